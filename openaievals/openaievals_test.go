package openaievals

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/similarity"
)

func TestStringCheck(t *testing.T) {
	tests := []struct {
		name  string
		op    StringOp
		input string
		ref   string
		out   string
		item  map[string]any
		want  proctor.Status
		why   string
	}{
		{"eq", StringOpEq, "", "{{item.answer}}", "42", map[string]any{"answer": "42"}, proctor.StatusPassed, "equal"},
		{"eq trims", StringOpEq, "", "42", "42\n", nil, proctor.StatusPassed, "surrounding space trimmed"},
		{"eq case", StringOpEq, "", "Paris", "paris", nil, proctor.StatusFailed, "eq is case-sensitive"},
		{"ne", StringOpNe, "", "42", "42", nil, proctor.StatusFailed, "equal, so ne fails"},
		{"ne differs", StringOpNe, "", "42", "43", nil, proctor.StatusPassed, "different"},
		{"like contains", StringOpLike, "", "Paris", "The capital is Paris.", nil, proctor.StatusPassed, "OpenAI: like means contains"},
		{"like case", StringOpLike, "", "paris", "The capital is Paris.", nil, proctor.StatusFailed, "like is case-sensitive"},
		{"ilike", StringOpILike, "", "paris", "The capital is PARIS.", nil, proctor.StatusPassed, "ilike ignores case"},
		{"ilike sql wildcards", StringOpILike, "", "%paris%", "The capital is Paris.", nil, proctor.StatusPassed, "SQL-style % reads as any run"},
		{"like inner wildcard", StringOpLike, "", "cap%Paris", "The capital is Paris.", nil, proctor.StatusPassed, "% between parts"},
		{"like wildcard order", StringOpLike, "", "Paris%capital", "The capital is Paris.", nil, proctor.StatusFailed, "parts in order"},
		{"like escaped percent", StringOpLike, "", `50\%`, "a 50% rise", nil, proctor.StatusPassed, `\% is a literal percent`},
		{"like underscore literal", StringOpLike, "", "user_id", "the userXid field", nil, proctor.StatusFailed, "_ is literal"},
		{"input template", StringOpEq, "{{item.got}}", "{{expected}}", "ignored", map[string]any{"got": "B"}, proctor.StatusPassed, "input from the item"},
		{"missing item", StringOpEq, "", "{{item.answer}}", "42", nil, proctor.StatusNotGraded, "no item key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewStringCheck(tt.op, tt.ref, StringCheckOptions{Input: tt.input})
			if err != nil {
				t.Fatal(err)
			}
			got := g.Grade(context.Background(), &proctor.Sample{Output: tt.out, Item: tt.item, Expected: proctor.Ptr("B")})
			if got.Status != tt.want {
				t.Errorf("got %v (%s), want %v: %s", got.Status, got.Reason, tt.want, tt.why)
			}
		})
	}
	if _, err := NewStringCheck(StringOpEq, "{{item.nope", StringCheckOptions{}); err == nil {
		t.Errorf("unclosed template: got no error")
	}
}

// metricStub is a metric grader registered in place of one this build may
// lack: it passes when the output equals the expected value and records
// what it was given.
func metricStub(o *proctor.SpecOptions) (proctor.Grader, error) {
	th := o.Threshold(0)
	variant := o.String("variant", "")
	return proctor.Func(o.Type(), func(_ context.Context, s *proctor.Sample) proctor.Grade {
		e, _ := s.ExpectedText()
		score := 0.0
		if s.Output == e {
			score = 1
		}
		g := proctor.Scored(score, th, variant)
		g.Evidence = map[string]any{"output": s.Output, "expected": e}
		return g
	}), o.Err()
}

func TestTextSimilarityMapsToMetrics(t *testing.T) {
	c := proctor.NewCompiler(Types(), Types(), similarity.Types())
	for _, typ := range []string{"fuzzy_match", "rouge", "semantic_similarity"} {
		c.Register(typ, metricStub)
	}
	spec := `{"type":"text_similarity","input":"{ {item.section} }","reference":"{ {sample.output_text} }","evaluation_metric":"rouge_l","pass_threshold":0.5}`
	ch, err := c.Compile([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	got := ch.Grade(context.Background(), &proctor.Sample{Output: "same", Item: map[string]any{"section": "same"}})
	if got.Status != proctor.StatusPassed || got.Reason != "rougeL" {
		t.Errorf("got %v %q, want passed by the rouge grader with variant rougeL", got.Status, got.Reason)
	}
	ev, _ := got.Evidence.(map[string]any)
	if ev["output"] != "same" || ev["expected"] != "same" {
		t.Errorf("metric saw %v, want the rendered input as output and reference as expected", ev)
	}
	got = ch.Grade(context.Background(), &proctor.Sample{Output: "x"})
	if got.Status != proctor.StatusNotGraded {
		t.Errorf("missing item: got %v, want not graded", got.Status)
	}
	for metric, typ := range map[string]string{"cosine": "semantic_similarity", "cosine_similarity": "semantic_similarity", "fuzzy_match": "fuzzy_match", "rouge_3": "rouge"} {
		ch, err := c.Compile([]byte(`{"type":"text_similarity","reference":"{{expected}}","evaluation_metric":"` + metric + `","pass_threshold":1}`))
		if err != nil {
			t.Errorf("%s: %v", metric, err)
			continue
		}
		g := ch.Grade(context.Background(), &proctor.Sample{Output: "a", Expected: proctor.Ptr("b")})
		if g.Status != proctor.StatusFailed {
			t.Errorf("%s (%s): got %v, want failed below the threshold", metric, typ, g.Status)
		}
	}
}

func TestTextSimilarityNotAvailable(t *testing.T) {
	c := proctor.NewCompiler(Types(), Types(), similarity.Types())
	builtinMeteor := slices.Contains(proctor.NewCompiler(Types(), Types(), similarity.Types()).Types(), "meteor")
	if builtinMeteor {
		t.Skip("meteor is built in")
	}
	_, err := c.Compile([]byte(`{"type":"text_similarity","reference":"{{expected}}","evaluation_metric":"meteor","pass_threshold":0.5}`))
	var se *proctor.SpecError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "not available yet") {
		t.Errorf("got %v, want a spec error saying meteor is not available yet", err)
	}
}

func TestCompileTestingCriteria(t *testing.T) {
	c := proctor.NewCompiler(Types(), Types(), similarity.Types())
	c.Register("fuzzy_match", metricStub)
	list := `[
	  {"name": "exact", "type": "string_check", "operation": "eq", "input": "{{sample.output_text}}", "reference": "{{item.answer}}"},
	  {"name": "close", "type": "text_similarity", "input": "{{sample.output_text}}", "reference": "{{item.answer}}", "evaluation_metric": "fuzzy_match", "pass_threshold": 0.8}
	]`
	checks, err := CompileTestingCriteria(c, []byte(list))
	if err != nil {
		t.Fatal(err)
	}
	if len(checks) != 2 || checks[0].Name() != "exact" || checks[1].Name() != "close" {
		t.Fatalf("got %d checks named %v, want exact and close", len(checks), checks)
	}
	s := &proctor.Sample{Output: "42", Item: map[string]any{"answer": "42"}}
	for _, ch := range checks {
		if g := ch.Grade(context.Background(), s); g.Status != proctor.StatusPassed {
			t.Errorf("%s: got %v (%s), want passed", ch.Name(), g.Status, g.Reason)
		}
	}
	wrapped, err := CompileTestingCriteria(c, []byte(`{"name":"eval","testing_criteria":`+list+`}`))
	if err != nil || len(wrapped) != 2 {
		t.Errorf("wrapped list: got %d, %v", len(wrapped), err)
	}
	for _, typ := range []string{"score_model", "label_model"} {
		_, err := CompileTestingCriteria(c, []byte(`[{"name":"g","type":"`+typ+`","source":"def grade(i,s): return 1"}]`))
		var se *proctor.SpecError
		// score_model and label_model are built now: without a model the
		// spec is refused naming the option.
		if !errors.As(err, &se) || se.Option != "model" {
			t.Errorf("%s: got %v, want a spec error naming option model", typ, err)
		}
	}
	for _, bad := range []string{`[]`, `{}`, `[{"type":"string_check","operation":"eq"}]`, `nope`} {
		if _, err := CompileTestingCriteria(c, []byte(bad)); err == nil {
			t.Errorf("CompileTestingCriteria(%s): got no error", bad)
		}
	}
}

func TestSeedTestingCriteria(t *testing.T) {
	// The shape of the OpenAI-evals testing_criteria in the design seeds:
	// text_similarity over the lexical embedder and a python grader.
	list := []map[string]any{
		{"name": "cosine_similarity", "type": "text_similarity", "input": "{ {item.section} }", "reference": "{ {sample.output_text} }", "pass_threshold": 0.5, "evaluation_metric": "cosine_similarity"},
		{"name": "chemical_name_grader", "type": "python", "source": "def grade(item, sample):\n    return 1.0", "pass_threshold": 0.9},
	}
	b, _ := json.Marshal(list)
	c := proctor.NewCompiler(Types(), Types(), similarity.Types())
	c.Register("semantic_similarity", metricStub)
	checks, err := CompileTestingCriteria(c, b)
	if err != nil {
		t.Fatal(err)
	}
	defer proctor.CloseChecks(checks)
	if len(checks) != 2 || checks[1].Name() != "chemical_name_grader" {
		t.Errorf("got %d checks, want cosine_similarity and chemical_name_grader", len(checks))
	}
}

// TestSeedTestingCriteriaEndToEnd runs the testing_criteria list of the
// design seed (seeds/004: chemical_name_grader and
// word_length_deviation_grader in python, cosine_similarity as
// text_similarity, llm_as_judge as score_model), as OpenAI writes it, on
// two summaries through CompileTestingCriteria and a Runner, with a
// scripted judge named after the model the list asks for.
func TestSeedTestingCriteriaEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: the seed's python graders need it")
	}
	t.Parallel()
	list, err := os.ReadFile("../testdata/compat/openai/testing_criteria.json")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var prompts []string
	judge := proctor.JudgeModel{Name: "gpt-4.1", Family: "openai", Model: "scripted", Call: func(_ context.Context, p string) (string, error) {
		mu.Lock()
		prompts = append(prompts, p)
		mu.Unlock()
		switch {
		case strings.Contains(p, "Generated Summary:\nRat hepatocytes"):
			return "0.97", nil
		case strings.Contains(p, "Generated Summary:\nHepatocytes were"):
			return `{"steps": [{"description": "both tracers are missing", "conclusion": "major omissions"}], "result": 0.3}`, nil
		}
		return "", errors.New("unexpected prompt")
	}}
	pool := proctor.NewJudgePool(judge)
	checks, err := CompileTestingCriteria(proctor.NewCompiler(Types(), similarity.Types(), pool), list)
	if err != nil {
		t.Fatal(err)
	}
	defer proctor.CloseChecks(checks)

	lines, err := os.ReadFile("../testdata/compat/openai/summaries.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var cases []proctor.Case
	for line := range strings.Lines(string(lines)) {
		var c struct {
			ID      string         `json:"id"`
			Item    map[string]any `json:"item"`
			Outputs []string       `json:"outputs"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, proctor.Case{ID: c.ID, Sample: proctor.Sample{Item: c.Item}, Outputs: []proctor.Sample{{Output: c.Outputs[0]}}})
	}
	rep, err := proctor.NewRunner(proctor.WithChecks(checks...), pool).Run(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]proctor.Status{"good": proctor.StatusPassed, "bad": proctor.StatusFailed}
	names := []string{"chemical_name_grader", "word_length_deviation_grader", "cosine_similarity", "llm_as_judge"}
	for _, cr := range rep.Cases {
		if cr.Verdict != want[cr.ID] {
			t.Errorf("case %s: verdict %v, want %v", cr.ID, cr.Verdict, want[cr.ID])
		}
		grades := cr.Attempts[0].Grades
		if len(grades) != len(names) {
			t.Fatalf("case %s: %d grades, want %d", cr.ID, len(grades), len(names))
		}
		for _, g := range grades {
			// Every check agrees on these two summaries: the good one keeps
			// both tracers, runs 78 words and shares its wording; the bad
			// one has 12 words and no tracer.
			if !slices.Contains(names, g.Grader) || g.Status != want[cr.ID] {
				t.Errorf("case %s: %s %v (%s), want %v", cr.ID, g.Grader, g.Status, g.Reason, want[cr.ID])
			}
			if g.Grader == "llm_as_judge" {
				ev := judgeEvidence(g)
				if ev == nil || len(ev.Judges) != 1 || ev.Judges[0].Name != "gpt-4.1" || len(g.Caveats) != 0 {
					t.Errorf("case %s: llm_as_judge evidence %+v, caveats %q; want gpt-4.1 alone, no caveat", cr.ID, ev, g.Caveats)
				}
			}
		}
	}
	if len(prompts) != 2 || !strings.HasPrefix(prompts[0], "[system]\nYou are an expert technical summarization evaluator.") ||
		!strings.Contains(prompts[0], "[user]\nSource Section:\nThe study administered [1-14C]glucose") {
		t.Errorf("judge asked %d prompts; first %q", len(prompts), prompts)
	}
	if len(rep.Judges) != 1 || rep.Judges[0].Calls != 2 {
		t.Errorf("judge stats %+v, want gpt-4.1 with 2 calls", rep.Judges)
	}
}

// TestTextSimilarityWithoutSimilarity checks that a Compiler lacking the
// similarity family refuses a text_similarity spec at load, saying which
// types bring its metric's grader.
func TestTextSimilarityWithoutSimilarity(t *testing.T) {
	_, err := proctor.NewCompiler(Types()).Compile([]byte(`{"type":"text_similarity","reference":"{{expected}}","evaluation_metric":"bleu","pass_threshold":0.5}`))
	var se *proctor.SpecError
	if !errors.As(err, &se) || se.Option != "evaluation_metric" || !strings.Contains(err.Error(), "similarity.Types()") {
		t.Errorf("got %v, want a spec error on evaluation_metric naming similarity.Types()", err)
	}
}
