package openaievals_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/openaievals"
)

// fixedScore is a custom spec type for multi tests: it grades with the
// score and status given in its spec.
func fixedScore(o *proctor.SpecOptions) (proctor.Grader, error) {
	score := o.Float("score", 0)
	status := o.Enum("status", "scored", "scored", "passed", "failed", "not_graded")
	return proctor.Func(o.Name(), func(context.Context, *proctor.Sample) proctor.Grade {
		switch status {
		case "passed":
			return proctor.Pass("")
		case "failed":
			return proctor.Fail("")
		case "not_graded":
			return proctor.NotGraded("no measurement")
		}
		return proctor.Scored(score, 0.5, "")
	}), o.Err()
}

func multiCompiler() *proctor.Compiler {
	c := proctor.NewCompiler(openaievals.Types())
	c.Register("fixed", fixedScore)
	return c
}

func TestMultiSpec(t *testing.T) {
	tests := []struct {
		name, spec string
		output     string
		want       proctor.Status
		score      float64
		why        string
	}{
		{"average passes", `{"type":"multi","graders":{"a":{"type":"exact_match","expected":"yes"},"b":{"type":"contains","value":"y"}},"calculate_output":"(a + b) / 2","pass_threshold":0.9}`,
			"yes", proctor.StatusPassed, 1, "both sub-graders pass: (1 + 1) / 2 = 1"},
		{"average fails", `{"type":"multi","graders":{"a":{"type":"exact_match","expected":"yes"},"b":{"type":"contains","value":"y"}},"calculate_output":"(a + b) / 2","pass_threshold":0.9}`,
			"y", proctor.StatusFailed, 0.5, "exact_match fails (0), contains passes (1)"},
		{"sub scores are read", `{"type":"multi","graders":{"s":{"type":"fixed","score":0.3},"t":{"type":"fixed","score":0.9}},"calculate_output":"0.5 * s + 0.5 * t"}`,
			"", proctor.StatusPassed, 0.6, "a scored sub-grade contributes its score, default threshold 0.5"},
		{"min of weights", `{"type":"multi","graders":{"s":{"type":"fixed","score":0.3},"t":{"type":"fixed","score":0.9}},"calculate_output":"min(s, t)","threshold":0.3}`,
			"", proctor.StatusPassed, 0.3, "threshold is accepted as pass_threshold's other spelling"},
		{"not graded sub", `{"type":"multi","graders":{"s":{"type":"fixed","status":"not_graded"},"t":{"type":"fixed","score":0.9}},"calculate_output":"s + t"}`,
			"", proctor.StatusNotGraded, 0, "a sub-grade that is not graded makes the multi not graded"},
		{"division by zero", `{"type":"multi","graders":{"f":{"type":"fixed","status":"failed"}},"calculate_output":"1 / f"}`,
			"", proctor.StatusNotGraded, 0, "dividing by a failed (0) sub-grade cannot be scored"},
		{"clamped", `{"type":"multi","graders":{"p":{"type":"fixed","status":"passed"}},"calculate_output":"p * 3","pass_threshold":1}`,
			"", proctor.StatusPassed, 1, "values above 1 are clamped before the comparison"},
		{"array graders use names", `{"type":"multi","graders":[{"type":"fixed","name":"x","score":1},{"type":"fixed","name":"y","score":0}],"calculate_output":"x - y"}`,
			"", proctor.StatusPassed, 1, "a list of specs is named by each spec's name"},
	}
	comp := multiCompiler()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch, err := comp.Compile([]byte(tt.spec))
			if err != nil {
				t.Fatal(err)
			}
			got := ch.Grade(context.Background(), &proctor.Sample{Output: tt.output})
			if got.Status != tt.want {
				t.Errorf("status = %v (%s), want %v (%s)", got.Status, got.Reason, tt.want, tt.why)
			}
			if tt.want != proctor.StatusNotGraded && (!got.HasScore || math.Abs(got.Score-tt.score) > 1e-9) {
				t.Errorf("score = %v, want %v (%s)", got.Score, tt.score, tt.why)
			}
		})
	}
}

func TestMultiSpecErrors(t *testing.T) {
	sub := `"graders":{"a":{"type":"exact_match","expected":"x"}}`
	tests := []struct{ name, spec, option string }{
		{"import", `{"type":"multi",` + sub + `,"calculate_output":"__import__('os')"}`, "calculate_output"},
		{"unknown name", `{"type":"multi",` + sub + `,"calculate_output":"a + b"}`, "calculate_output"},
		{"attribute", `{"type":"multi",` + sub + `,"calculate_output":"a.__class__"}`, "calculate_output"},
		{"python power", `{"type":"multi",` + sub + `,"calculate_output":"a ** 2"}`, "calculate_output"},
		{"missing formula", `{"type":"multi",` + sub + `}`, "calculate_output"},
		{"empty formula", `{"type":"multi",` + sub + `,"calculate_output":"  "}`, "calculate_output"},
		{"no graders", `{"type":"multi","graders":{},"calculate_output":"1"}`, "graders"},
		{"bad threshold", `{"type":"multi",` + sub + `,"calculate_output":"a","pass_threshold":2}`, "pass_threshold"},
		{"both thresholds", `{"type":"multi",` + sub + `,"calculate_output":"a","pass_threshold":0.5,"threshold":0.5}`, "threshold"},
		{"bad sub-spec", `{"type":"multi","graders":{"a":{"type":"nope"}},"calculate_output":"a"}`, "type"},
		{"unknown option", `{"type":"multi",` + sub + `,"calculate_output":"a","weights":[1]}`, "weights"},
	}
	comp := multiCompiler()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := comp.Compile([]byte(tt.spec))
			var se *proctor.SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error = %v, want a *SpecError", err)
			}
			if se.Option != tt.option {
				t.Errorf("option = %q, want %q (%v)", se.Option, tt.option, err)
			}
		})
	}
}

// closer is a grader that counts Close calls.
type closer struct {
	proctor.GraderFunc
	closed *atomic.Int32
}

func (c closer) Close() error { c.closed.Add(1); return nil }

func TestMultiGo(t *testing.T) {
	var n atomic.Int32
	a := closer{proctor.Func("a", func(context.Context, *proctor.Sample) proctor.Grade { return proctor.Pass("") }), &n}
	b := proctor.NewExactMatchTo("yes", proctor.ExactMatchOptions{Name: "b"})
	m, err := openaievals.NewMulti("max(a, b) - min(a, b) / 2", []proctor.Grader{a, b}, openaievals.MultiOptions{PassThreshold: proctor.Ptr(0.5)})
	if err != nil {
		t.Fatal(err)
	}
	got := m.Grade(context.Background(), &proctor.Sample{Output: "no"})
	if got.Status != proctor.StatusPassed || got.Score != 1 {
		t.Errorf("got %v %v (%s), want passed 1: max(1, 0) - min(1, 0)/2", got.Status, got.Score, got.Reason)
	}
	ev := got.Evidence.(openaievals.MultiEvidence)
	if ev.Scores["a"] != 1 || ev.Scores["b"] != 0 || !strings.Contains(ev.Formula, "max(a, b)") {
		t.Errorf("evidence = %+v", ev)
	}
	if err := m.Close(); err != nil || n.Load() != 1 {
		t.Errorf("Close: err %v, sub-grader closed %d times, want once", err, n.Load())
	}
	if _, err := openaievals.NewMulti("a", []proctor.Grader{a, closer{proctor.Func("a", nil), &n}}, openaievals.MultiOptions{}); err == nil {
		t.Error("NewMulti accepted two graders named a")
	}
}

func BenchmarkMulti(b *testing.B) {
	m := openaievals.MustMulti("(a + b) / 2", []proctor.Grader{
		proctor.NewExactMatchTo("yes", proctor.ExactMatchOptions{Name: "a"}),
		proctor.NewExactMatchTo("yes", proctor.ExactMatchOptions{Name: "b"}),
	}, openaievals.MultiOptions{})
	s := &proctor.Sample{Output: "yes"}
	ctx := context.Background()
	for b.Loop() {
		m.Grade(ctx, s)
	}
}
