package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// The model the agent's planner stands in for, as its chat spans name it.
const (
	requestModel  = "planner-small"
	responseModel = "planner-small-2025-06-01"
	agentName     = "weather-agent"
	caseKey       = "proctor.case_id"
)

// agent answers weather questions with two tools, get_weather and
// convert_temperature. Its "model" is a scripted planner, so that it runs
// offline and its path is predictable; everything else - the spans, their
// attributes, the export - is what an LLM agent instrumented with the
// OpenTelemetry Go SDK emits by the GenAI semantic conventions.
type agent struct {
	tracer   trace.Tracer
	stations map[string]station
}

// station is what get_weather knows of a city; delay is how long its
// lookup takes.
type station struct {
	celsius    float64
	conditions string
	delay      time.Duration
}

// newAgent returns the agent, tracing with tracer.
func newAgent(tracer trace.Tracer) *agent {
	return &agent{tracer: tracer, stations: map[string]station{
		"Paris":     {celsius: 21, conditions: "sunny"},
		"Boston":    {celsius: 18, conditions: "cloudy"},
		"Oslo":      {celsius: 9, conditions: "rainy"},
		"Reykjavik": {celsius: 4, conditions: "windy", delay: 25 * time.Millisecond}, // a slow station
	}}
}

// reply is the agent's answer and what it cost: the tokens its model
// calls counted, and the tools it called, by name.
type reply struct {
	Text          string
	InputTokens   int
	OutputTokens  int
	Tools         []string
	FailedTools   []string
	ModelRequests int
}

// toolCall is a call the planner asks for.
type toolCall struct {
	ID   string
	Name string
	Args map[string]any
}

// toolResult is what a call returned, or its error.
type toolResult struct {
	Call   toolCall
	Result map[string]any
	Err    error
}

// systemPrompt is the planner's instructions, counted in its input tokens.
const systemPrompt = "You are a weather agent. Call get_weather with a city for its weather in Celsius, " +
	"and convert_temperature with celsius and to (F or K) to convert it. Answer in one sentence."

// maxSteps bounds the model calls of one answer.
const maxSteps = 4

// answer answers one question. Its spans form one trace: an invoke_agent
// span carrying the case id, over one chat span per model call and one
// execute_tool span per tool call. A tool that fails is reported to the
// model, which answers without it.
func (a *agent) answer(ctx context.Context, caseID, question string) (reply, error) {
	ctx, root := a.tracer.Start(ctx, "invoke_agent "+agentName, trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(
			attribute.String("gen_ai.operation.name", "invoke_agent"),
			attribute.String("gen_ai.agent.name", agentName),
			attribute.String("gen_ai.request.model", requestModel)))
	defer root.End()
	if caseID != "" {
		root.SetAttributes(attribute.String(caseKey, caseID))
	}
	var r reply
	var results []toolResult
	for range maxSteps {
		call, text := a.chat(ctx, question, results, &r)
		if call == nil {
			r.Text = text
			// The agent span repeats the usage; a reader must not count it twice.
			root.SetAttributes(attribute.Int("gen_ai.usage.input_tokens", r.InputTokens),
				attribute.Int("gen_ai.usage.output_tokens", r.OutputTokens))
			return r, nil
		}
		res := a.execute(ctx, *call)
		r.Tools = append(r.Tools, call.Name)
		if res.Err != nil {
			r.FailedTools = append(r.FailedTools, call.Name)
		}
		results = append(results, res)
	}
	err := fmt.Errorf("no answer after %d model calls", maxSteps)
	root.SetStatus(codes.Error, err.Error())
	root.SetAttributes(attribute.String("error.type", "max_steps"))
	return r, err
}

// chat is one model call, traced as a chat span with its token usage: it
// returns the next tool call, or the final answer's text.
func (a *agent) chat(ctx context.Context, question string, results []toolResult, r *reply) (*toolCall, string) {
	_, sp := a.tracer.Start(ctx, "chat "+requestModel, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(
			attribute.String("gen_ai.operation.name", "chat"),
			attribute.String("gen_ai.provider.name", "local"),
			attribute.String("gen_ai.request.model", requestModel)))
	defer sp.End()
	call, text := plan(question, results)
	prompt := systemPrompt + " " + question
	for _, res := range results {
		prompt += " " + resultJSON(res)
	}
	out, finish := text, "stop"
	if call != nil {
		call.ID = fmt.Sprintf("call_%d", len(results)+1)
		out, finish = call.Name+" "+string(mustJSON(call.Args)), "tool_call"
	}
	in, outN := countTokens(prompt), countTokens(out)
	r.InputTokens += in
	r.OutputTokens += outN
	r.ModelRequests++
	sp.SetAttributes(
		attribute.String("gen_ai.response.model", responseModel),
		attribute.Int("gen_ai.usage.input_tokens", in),
		attribute.Int("gen_ai.usage.output_tokens", outN),
		attribute.StringSlice("gen_ai.response.finish_reasons", []string{finish}),
		attribute.String("gen_ai.output.messages", outputMessages(call, text, finish)))
	return call, text
}

// execute runs a tool, traced as an execute_tool span with its arguments
// and result; a failed call sets the span's status to ERROR and error.type.
func (a *agent) execute(ctx context.Context, call toolCall) toolResult {
	args := mustJSON(call.Args)
	ctx, sp := a.tracer.Start(ctx, "execute_tool "+call.Name, trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(
			attribute.String("gen_ai.operation.name", "execute_tool"),
			attribute.String("gen_ai.tool.name", call.Name),
			attribute.String("gen_ai.tool.type", "function"),
			attribute.String("gen_ai.tool.call.id", call.ID),
			attribute.String("gen_ai.tool.call.arguments", string(args))))
	defer sp.End()
	res := toolResult{Call: call}
	switch call.Name {
	case "get_weather":
		res.Result, res.Err = a.getWeather(ctx, call.Args)
	case "convert_temperature":
		res.Result, res.Err = convertTemperature(call.Args)
	default:
		res.Err = &toolError{kind: "unknown_tool", msg: "no tool " + call.Name}
	}
	sp.SetAttributes(attribute.String("gen_ai.tool.call.result", resultJSON(res)))
	if res.Err != nil {
		kind := "tool_error"
		if te, ok := errors.AsType[*toolError](res.Err); ok {
			kind = te.kind
		}
		sp.RecordError(res.Err)
		sp.SetStatus(codes.Error, res.Err.Error())
		sp.SetAttributes(attribute.String("error.type", kind))
	}
	return res
}

// toolError is a tool's failure; kind is its error.type.
type toolError struct{ kind, msg string }

func (e *toolError) Error() string { return e.msg }

// getWeather is the get_weather tool: {"city"} to {"city", "celsius",
// "conditions"}. A city without a station is an error.
func (a *agent) getWeather(ctx context.Context, args map[string]any) (map[string]any, error) {
	city, _ := args["city"].(string)
	st, ok := a.stations[city]
	if !ok {
		return nil, &toolError{kind: "unknown_city", msg: "no weather station for " + city}
	}
	select {
	case <-time.After(st.delay):
	case <-ctx.Done():
		return nil, &toolError{kind: "cancelled", msg: ctx.Err().Error()}
	}
	return map[string]any{"city": city, "celsius": st.celsius, "conditions": st.conditions}, nil
}

// convertTemperature is the convert_temperature tool: {"celsius", "to"}
// (F or K) to {"value", "unit"}.
func convertTemperature(args map[string]any) (map[string]any, error) {
	c, ok := args["celsius"].(float64)
	if !ok {
		return nil, &toolError{kind: "bad_arguments", msg: "celsius is not a number"}
	}
	var v float64
	switch to, _ := args["to"].(string); to {
	case "F":
		v = c*9/5 + 32
	case "K":
		v = c + 273.15
	default:
		return nil, &toolError{kind: "bad_arguments", msg: fmt.Sprintf("cannot convert to %q", to)}
	}
	return map[string]any{"value": math.Round(v*10) / 10, "unit": args["to"]}, nil
}

// plan is the scripted model: from the question and the results so far
// it asks for the weather of the city named, then for a conversion to
// Fahrenheit when the question asks for it, then answers. It knows no
// Kelvin: a question in Kelvin is answered in Celsius.
func plan(question string, results []toolResult) (*toolCall, string) {
	city := cityOf(question)
	if len(results) == 0 {
		return &toolCall{Name: "get_weather", Args: map[string]any{"city": city}}, ""
	}
	w := results[0]
	if w.Err != nil {
		return nil, fmt.Sprintf("I could not get the weather for %s: %v.", city, w.Err)
	}
	celsius, _ := w.Result["celsius"].(float64)
	wantF := strings.Contains(strings.ToLower(question), "fahrenheit")
	if wantF && len(results) == 1 {
		return &toolCall{Name: "convert_temperature", Args: map[string]any{"celsius": celsius, "to": "F"}}, ""
	}
	temp := fmt.Sprintf("%g°C", celsius)
	if wantF && results[1].Err == nil {
		temp = fmt.Sprintf("%g°F", results[1].Result["value"])
	}
	return nil, fmt.Sprintf("It is %s and %s in %s.", temp, w.Result["conditions"], city)
}

// cityOf is the first capitalised word after "in" in the question.
func cityOf(question string) string {
	words := strings.FieldsFunc(question, func(r rune) bool { return !(r == '-' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z') })
	for i := range len(words) - 1 {
		if w := words[i+1]; words[i] == "in" && w[0] >= 'A' && w[0] <= 'Z' {
			return w
		}
	}
	return ""
}

// countTokens is the toy tokenizer the planner's usage is counted with:
// one token per word.
func countTokens(s string) int { return len(strings.Fields(s)) }

// outputMessages is gen_ai.output.messages for a model call: the tool
// call it asked for, or its text.
func outputMessages(call *toolCall, text, finish string) string {
	part := map[string]any{"type": "text", "content": text}
	if call != nil {
		part = map[string]any{"type": "tool_call", "id": call.ID, "name": call.Name, "arguments": call.Args}
	}
	return string(mustJSON([]any{map[string]any{"role": "assistant", "parts": []any{part}, "finish_reason": finish}}))
}

// resultJSON is a call's result as the model reads it: the result, or
// {"error": message}.
func resultJSON(r toolResult) string {
	if r.Err != nil {
		return string(mustJSON(map[string]any{"error": r.Err.Error()}))
	}
	return string(mustJSON(r.Result))
}

// mustJSON encodes a value built of maps, slices, strings and finite
// numbers; should that ever fail, it is the error as a JSON string.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(err.Error())
	}
	return b
}
