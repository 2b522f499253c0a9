package proctor

import (
	"context"
	"encoding/json"
	"strconv"
)

// Grader grades one attempt of a case.
//
// Grade never returns an error: an output that breaks the check is
// [StatusFailed] with the reason, and a grader that cannot decide returns
// [StatusNotGraded] with the reason. Built-in graders are immutable once
// constructed and safe for concurrent use; custom graders used with a
// [Runner] must be too.
type Grader interface {
	// Name is shown in results: the spec's name, or its type.
	Name() string
	// Grade grades s. Deterministic graders may ignore ctx; graders that wait
	// (judges, webhooks, embedders) honour its cancellation. The grade's
	// Grader field may be left empty: [Check.Grade] fills it with Name.
	Grade(ctx context.Context, s *Sample) Grade
}

// GraderFunc adapts a function to a [Grader], as http.HandlerFunc adapts a
// function to a Handler; it is a struct so that the grader has a name.
// Build one with [Func]. It is as safe for concurrent use as its function.
// It is deterministic to a [Runner] (see [Kinded]): wrap a function that
// calls a model or a service in a type that reports its [Kind]. A nil Func
// panics when graded, which [Check.Grade] turns into not graded.
type GraderFunc struct {
	// GraderName is returned by Name.
	GraderName string
	// Func grades a sample.
	Func func(ctx context.Context, s *Sample) Grade
}

// Func returns a [Grader] named name that calls f.
func Func(name string, f func(ctx context.Context, s *Sample) Grade) GraderFunc {
	return GraderFunc{GraderName: name, Func: f}
}

// Name returns f.GraderName.
func (f GraderFunc) Name() string { return f.GraderName }

// Grade calls f.Func.
func (f GraderFunc) Grade(ctx context.Context, s *Sample) Grade { return f.Func(ctx, s) }

// Kind says what a grader needs to do its job, which decides when a
// [Runner] runs it: deterministic checks first, then network ones, then
// model-graded ones.
type Kind uint8

const (
	// KindDeterministic graders are pure functions of the sample. The
	// default for graders that do not implement [Kinded].
	KindDeterministic Kind = iota
	// KindNetwork graders call a service (a webhook, an embedder).
	KindNetwork
	// KindModel graders ask a judge model.
	KindModel
)

// String returns "deterministic", "network" or "model".
func (k Kind) String() string {
	switch k {
	case KindDeterministic:
		return "deterministic"
	case KindNetwork:
		return "network"
	case KindModel:
		return "model"
	}
	return "kind_" + strconv.Itoa(int(k))
}

// Kinded is implemented by graders that are not deterministic. A [Runner]
// asks it to order checks; graders that do not implement it are
// [KindDeterministic].
type Kinded interface {
	GraderKind() Kind
}

// KindOf returns g's [Kind]: its GraderKind when it implements [Kinded],
// otherwise [KindDeterministic].
func KindOf(g Grader) Kind {
	if k, ok := g.(Kinded); ok {
		return k.GraderKind()
	}
	return KindDeterministic
}

// Sample is one attempt to grade: what the subject was asked, what it
// answered and what is known about how it answered. Only Output is
// required. Graders never modify a Sample.
type Sample struct {
	// ID identifies the case in results. Optional.
	ID string `json:"id,omitempty"`
	// Input is what the subject was asked.
	Input string `json:"input,omitempty"`
	// Output is the subject's answer, the candidate being graded.
	Output string `json:"output"`
	// Expected is the reference answer; nil means there is none, which is
	// not the same as an empty expected answer. A JSON expected value that
	// is not a string is kept as its compact JSON text.
	Expected *string `json:"expected,omitempty"`
	// ExpectedJSON reports that Expected holds the JSON text of a value
	// that was not a string (an object, array, number or boolean), as the
	// JSON form of a sample decodes it. exact_match compares an object or
	// array expected structurally only when it is set.
	ExpectedJSON bool `json:"-"`
	// References are further acceptable answers (BLEU, token F1, ...).
	References []string `json:"references,omitempty"`
	// ReferenceIDs are ids of relevant items, from {"id": ...} objects in
	// the JSON form of references (context_f1).
	ReferenceIDs []string `json:"-"`
	// Context is what the subject was given or retrieved (RAG passages).
	Context []string `json:"context,omitempty"`
	// ContextIDs are ids of retrieved items, from {"id": ...} objects in
	// the JSON form of context (context_f1).
	ContextIDs []string `json:"-"`
	// Item holds the case's variables for templates ({{item.KEY}}).
	Item map[string]any `json:"item,omitempty"`
	// Metrics are what was measured about the call. Absent measurements
	// are nil, never zero.
	Metrics Metrics `json:"metrics"`
	// ToolCalls are the tools the subject called, in order.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Messages is the conversation, when the sample is one: the JSON form
	// accepts OpenAI chat messages and Anthropic messages. Decoding fills
	// an empty Output with the last assistant turn's text and empty
	// ToolCalls with the calls the messages made, in order.
	Messages []Message `json:"messages,omitempty"`
	// HTTPStatus is the status code of the subject's HTTP reply; 0 means
	// none was recorded.
	HTTPStatus int `json:"http_status,omitempty"`
	// Model is the model under test; its family decides which judges may
	// grade it.
	Model Model `json:"model"`
}

// ExpectedText returns the expected answer and whether there is one.
func (s *Sample) ExpectedText() (string, bool) {
	if s == nil || s.Expected == nil {
		return "", false
	}
	return *s.Expected, true
}

// Metrics are measurements of one call to the subject. A nil field was not
// measured; graders that need it return [StatusNotGraded], never treat it as
// zero.
type Metrics struct {
	// LatencyMS is how long the call took, in milliseconds.
	LatencyMS *float64 `json:"latency_ms,omitempty"`
	// InputTokens is the prompt's token count.
	InputTokens *float64 `json:"input_tokens,omitempty"`
	// OutputTokens is the answer's token count.
	OutputTokens *float64 `json:"output_tokens,omitempty"`
	// TotalTokens is the call's total token count.
	TotalTokens *float64 `json:"total_tokens,omitempty"`
	// CostUSD is what the call cost, in US dollars.
	CostUSD *float64 `json:"cost_usd,omitempty"`
}

// ToolCall is one tool call the subject made.
type ToolCall struct {
	// Name is the tool's name.
	Name string `json:"name"`
	// Arguments is the call's arguments as JSON (an object, usually).
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// Result is what the tool returned, as JSON (a string, usually); nil
	// when it was not recorded.
	Result json.RawMessage `json:"result,omitempty"`
	// IsError reports that the call failed: the tool returned an error
	// (an Anthropic tool_result with is_error, a span with status ERROR).
	// A failed call is still a call in the path.
	IsError bool `json:"is_error,omitempty"`
}

// Message is one turn of a conversation.
type Message struct {
	// Role is who spoke: "user", "assistant", "system", "tool", ...
	Role string `json:"role"`
	// Content is the turn's text (its text blocks, joined).
	Content string `json:"content,omitempty"`
	// ToolCalls are the tools an assistant turn called, each with the
	// result and error status of the turn that answered it.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
}

// Model identifies a model: the subject under test or a judge.
type Model struct {
	// Name is the model's name ("gpt-4.1").
	Name string `json:"name,omitempty"`
	// Family is who makes it ("openai"); judges from the subject's family
	// are refused by default.
	Family string `json:"family,omitempty"`
}

// Ptr returns a pointer to v, for the optional fields of [Sample] and
// [Metrics].
func Ptr[T any](v T) *T { return &v }
