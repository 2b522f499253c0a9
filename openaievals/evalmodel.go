package openaievals

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"
)

// EvalMessage is one message of an OpenAI-evals model grader's input
// (score_model, label_model): a role and a content template.
type EvalMessage struct {
	// Role is system, developer, user or assistant.
	Role string
	// Content is a [proctor.Template]: {{item.KEY}}, {{sample.output_text}} and
	// the other variables it lists.
	Content string
}

// evalRoles are the roles OpenAI's eval messages take.
var evalRoles = []string{"system", "developer", "user", "assistant"}

// evalMessage is an [EvalMessage] with its content compiled.
type evalMessage struct {
	role    string
	content *proctor.Template
}

// evalModel is the body score_model and label_model share: the messages,
// the judge asked first and the caveats every judged grade carries.
type evalModel struct {
	name     string
	severity proctor.Severity
	judging  *proctor.Judging
	messages []evalMessage
	first    string   // the judge asked first; "" for pool order
	caveats  []string // the requested model not configured, sampling params not applied
	typ      string   // the spec type, for caveats
	model    string   // the model asked for, matched to the Runner's judges when built without any
	format   string   // how the judge is told to answer
}

// newEvalModel compiles the messages and picks the judge for model.
func newEvalModel(typ string, input []EvalMessage, model string, jo proctor.JudgeOptions, with []proctor.CompilerOption) (evalModel, error) {
	msgs, err := compileMessages(input)
	if err != nil {
		return evalModel{}, refuse("%s: %w", typ, err)
	}
	g := evalModel{name: cmp.Or(jo.Name, typ), severity: jo.Severity, judging: proctor.NewJudging(with...), messages: msgs, typ: typ, model: model}
	var caveat string
	g.first, caveat = resolveJudge(g.judging.Pool(context.Background()), typ, model)
	if caveat != "" {
		g.caveats = append(g.caveats, caveat)
	}
	return g, nil
}

// compileMessages checks the roles and parses the content templates.
func compileMessages(input []EvalMessage) ([]evalMessage, error) {
	if len(input) == 0 {
		return nil, errors.New("input: no messages: the judge would be asked nothing")
	}
	out := make([]evalMessage, len(input))
	for i, m := range input {
		if !slices.Contains(evalRoles, m.Role) {
			return nil, fmt.Errorf("input[%d].role: %q is not one of %s", i, m.Role, strings.Join(evalRoles, ", "))
		}
		t, err := proctor.ParseTemplate(m.Content)
		if err != nil {
			return nil, fmt.Errorf("input[%d].content: %w", i, err)
		}
		out[i] = evalMessage{role: m.Role, content: t}
	}
	return out, nil
}

// Name returns the grader's name.
func (g *evalModel) Name() string { return g.name }

// GraderKind returns [proctor.KindModel]: a judge model grades.
func (g *evalModel) GraderKind() proctor.Kind { return proctor.KindModel }

// prompt renders the messages for s as "[role]\ncontent" blocks, the
// sample's values passed through redact, and ends with the answer format.
// It returns why s cannot be graded when a variable is missing.
func (g *evalModel) prompt(s *proctor.Sample, redact func(string) string) (string, string) {
	var b strings.Builder
	for i, m := range g.messages {
		text, err := m.content.RenderRedacted(s, redact)
		if err != nil {
			return "", fmt.Sprintf("input[%d].content: %v", i, err)
		}
		b.WriteString("[" + m.role + "]\n")
		b.WriteString(text)
		b.WriteString("\n\n")
	}
	b.WriteString("[system]\n")
	b.WriteString(g.format)
	return b.String(), ""
}

// grade asks the judges and adds the grader's caveats to a judged grade.
// Built without judges, it matches its model to the judges of the Runner
// that runs it.
func (g *evalModel) grade(ctx context.Context, s *proctor.Sample, read func(string) (proctor.JudgeReading, error)) proctor.Grade {
	first, caveats := g.first, g.caveats
	if g.judging.Pool(context.Background()) == nil {
		if p := g.judging.Pool(ctx); p != nil {
			var caveat string
			first, caveat = resolveJudge(p, g.typ, g.model)
			if caveat != "" {
				caveats = append(slices.Clip(caveats), caveat)
			}
		}
	}
	r := g.judging.Ask(ctx, s, g.severity, proctor.JudgeAsk{Prompt: g.prompt, Read: read, First: first})
	if ev, ok := r.Evidence.(*proctor.JudgeEvidence); ok && len(ev.Judges) > 0 && len(caveats) > 0 {
		r.Caveats = append(slices.Clip(r.Caveats), caveats...)
	}
	return r
}

// modelFamilies infers a model's family from its id, for mapping an
// OpenAI grader's model to a judge of the same family.
var modelFamilies = []struct{ prefix, family string }{
	{"gpt-", "openai"}, {"chatgpt", "openai"}, {"o1", "openai"}, {"o3", "openai"}, {"o4", "openai"},
	{"claude", "anthropic"}, {"gemini", "google"}, {"gemma", "google"},
	{"llama", "meta"}, {"mistral", "mistral"}, {"mixtral", "mistral"},
	{"qwen", "alibaba"}, {"deepseek", "deepseek"},
}

// resolveJudge picks the judge an OpenAI grader's model names: a judge of
// that name, else of that model id, else of that family, else of the
// family the model id belongs to (gpt-* is openai, claude-* anthropic...).
// It returns the judge's name, or "" for the pool's own order, and a
// caveat when the judge asked is not the model requested.
func resolveJudge(p *proctor.JudgePool, typ, model string) (string, string) {
	if p == nil || model == "" {
		return "", ""
	}
	js := p.Judges()
	for _, same := range []func(proctor.JudgeModel) bool{
		func(j proctor.JudgeModel) bool { return j.Name == model },
		func(j proctor.JudgeModel) bool { return strings.EqualFold(j.Model, model) },
		func(j proctor.JudgeModel) bool { return familyOf(j) == strings.ToLower(strings.TrimSpace(model)) },
	} {
		if i := slices.IndexFunc(js, same); i >= 0 {
			return js[i].Name, ""
		}
	}
	m := strings.ToLower(model)
	for _, f := range modelFamilies {
		if !strings.HasPrefix(m, f.prefix) {
			continue
		}
		if i := slices.IndexFunc(js, func(j proctor.JudgeModel) bool { return familyOf(j) == f.family }); i >= 0 {
			return js[i].Name, fmt.Sprintf("%s model %q is not a configured judge: judge %s (model %s) of the same family, %s, graded instead",
				typ, model, js[i].Name, cmp.Or(js[i].Model, "unnamed"), f.family)
		}
		break
	}
	return "", fmt.Sprintf("%s model %q matches no configured judge by name, model or family: the primary judge %s (model %s) graded instead",
		typ, model, js[0].Name, cmp.Or(js[0].Model, "unnamed"))
}

// familyOf is the family judge j is compared by, as the pool compares
// families: its Family folded to lower case, or its own name's when empty.
func familyOf(j proctor.JudgeModel) string {
	if f := strings.ToLower(strings.TrimSpace(j.Family)); f != "" {
		return f
	}
	return "judge:" + j.Name
}

// evalInputOption reads OpenAI's input: a list of messages {role, content,
// type "message"}, content a template string, a content part {type:
// input_text | output_text, text} or a list of them (joined by newlines).
// Images and audio are spec errors: judges here take text.
func evalInputOption(o *proctor.SpecOptions) []EvalMessage {
	raw, ok := o.Raw("input")
	if !ok {
		o.Errorf("input", "missing: want a list of messages [{role, content}]")
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || len(items) == 0 {
		o.Errorf("input", "want a non-empty list of messages [{role, content}], got %s", kit.JSONKind(raw))
		return nil
	}
	out := make([]EvalMessage, 0, len(items))
	for i, it := range items {
		key := "input[" + strconv.Itoa(i) + "]"
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
			Type    string          `json:"type"`
		}
		if err := strictJSON(it, &m); err != nil {
			o.Wrap(key, "want a message {role, content, type \"message\"}", err)
			return nil
		}
		if m.Type != "" && m.Type != "message" {
			o.Errorf(key+".type", "want \"message\", got %q", m.Type)
			return nil
		}
		if !slices.Contains(evalRoles, m.Role) {
			o.Errorf(key+".role", "want one of %s, got %q", strings.Join(evalRoles, ", "), m.Role)
			return nil
		}
		text, err := contentText(m.Content)
		if err != nil {
			o.Wrap(key+".content", "want a template string or text content parts", err)
			return nil
		}
		if _, err := proctor.ParseTemplate(text); err != nil {
			o.Wrap(key+".content", "bad template", err)
			return nil
		}
		out = append(out, EvalMessage{Role: m.Role, Content: text})
	}
	return out
}

// contentText reads a message's content: a string, a part or parts.
func contentText(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []json.RawMessage
	if json.Unmarshal(raw, &parts) != nil {
		parts = []json.RawMessage{raw}
	}
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		var part struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		var loose map[string]json.RawMessage
		if err := json.Unmarshal(p, &loose); err != nil {
			return "", fmt.Errorf("content part is %s, not an object", kit.JSONKind(p))
		}
		switch t := strings.Trim(string(loose["type"]), `"`); t {
		case "input_text", "output_text", "text":
		case "input_image", "input_audio", "image_url":
			return "", fmt.Errorf("content part type %s is not supported: judges here take text only", t)
		default:
			return "", fmt.Errorf("content part type %q is unknown (want input_text or output_text)", t)
		}
		if err := strictJSON(p, &part); err != nil || part.Text == nil {
			return "", fmt.Errorf("want a text part {type, text}: %v", cmpErr(err, "no text"))
		}
		texts = append(texts, *part.Text)
	}
	return strings.Join(texts, "\n"), nil
}

func cmpErr(err error, def string) string {
	if err != nil {
		return err.Error()
	}
	return def
}

// strictJSON decodes b into v, refusing unknown fields.
func strictJSON(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// judgeOptionsOf reads the options every model-graded spec shares.
func judgeOptionsOf(o *proctor.SpecOptions) (proctor.JudgeOptions, []proctor.CompilerOption) {
	return proctor.JudgeOptions{Name: o.Name(), Severity: o.Severity()}, []proctor.CompilerOption{o.Injected()}
}

// messageText is the templates of input, one after another, as a MustX
// panic quotes them.
func messageText(input []EvalMessage) string {
	parts := make([]string, len(input))
	for i, m := range input {
		parts[i] = m.Content
	}
	return strings.Join(parts, "\n")
}
