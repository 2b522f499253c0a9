package proctor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name       string
		spec       string
		wantOption string
		wantText   string // a fragment the message must hold
	}{
		{"not an object", `["contains"]`, "", "JSON object"},
		{"not JSON", `{"type":`, "", "not a JSON object"},
		{"trailing data", `{"type":"contains","value":"a"} {}`, "", "trailing"},
		{"duplicate option", `{"type":"contains","value":"a","value":"b"}`, "", "given twice"},
		{"missing type", `{"value":"a"}`, "type", "missing"},
		{"type not a string", `{"type":5}`, "type", "want a string"},
		{"unknown type", `{"type":"nope"}`, "type", `unknown type "nope"`},
		{"unknown option", `{"type":"contains","value":"a","bogus_option":1}`, "bogus_option", "unknown option"},
		{"ill-typed option", `{"type":"contains","value":5}`, "value", "want a string, got a number"},
		{"ill-typed bool", `{"type":"exact_match","case_sensitive":"yes"}`, "case_sensitive", "want true or false"},
		{"bad enum", `{"type":"contains","value":"a","mode":"some"}`, "mode", "want one of all, any"},
		{"missing option", `{"type":"contains"}`, "value", "missing"},
		{"both value and values", `{"type":"contains","value":"a","values":["b"]}`, "values", "not both"},
		{"empty value", `{"type":"contains","values":[""]}`, "values", "empty value"},
		{"bad severity", `{"type":"contains","value":"a","severity":"urgent"}`, "severity", "low, medium, high or critical"},
		{"bad name", `{"type":"contains","value":"a","name":7}`, "name", "want a string"},
		{"nested error names path", `{"type":"all","graders":[{"type":"contains","value":"a"},{"type":"nope"}]}`, "type", "#0.graders[1]"},
		{"empty list", `{"type":"any","graders":[]}`, "graders", "at least one"},
		{"not without grader", `{"type":"not"}`, "grader", "missing"},
		{"too deep", strings.Repeat(`{"type":"not","grader":`, 40) + `{"type":"contains","value":"a"}` + strings.Repeat("}", 40), "", "nested more than"},
		{"empty starts_with", `{"type":"starts_with","value":""}`, "value", "must not be empty"},
	}
	c := NewCompiler()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Compile([]byte(tt.spec))
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SpecError", err)
			}
			if se.Option != tt.wantOption {
				t.Errorf("option %q, want %q (%v)", se.Option, tt.wantOption, err)
			}
			if se.Spec == "" || !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("error %q: want it to name the spec and hold %q", err, tt.wantText)
			}
		})
	}
}

func TestCompileCommonOptions(t *testing.T) {
	ch, err := NewCompiler().Compile([]byte(`{"type":"contains","value":"a","name":"has-a","required":true,"criterion":"c1","severity":"high"}`))
	if err != nil {
		t.Fatal(err)
	}
	if ch.Name() != "has-a" || !ch.Required || ch.Criterion != "c1" || ch.Severity != SeverityHigh {
		t.Errorf("got %+v, want name has-a, required, criterion c1, severity high", ch)
	}
	if g := ch.Grade(context.Background(), &Sample{Output: "xa"}); g.Status != StatusPassed || g.Grader != "has-a" {
		t.Errorf("got %+v, want passed by has-a", g)
	}
}

func TestCompileAs(t *testing.T) {
	_, err := NewCompiler().CompileAs("suite.yaml cases[3].checks[0]", []byte(`{"type":"all","graders":[{"type":"contains"}]}`))
	if err == nil || !strings.Contains(err.Error(), "suite.yaml cases[3].checks[0].graders[0]") {
		t.Errorf("got %v, want the error to name the spec from its label", err)
	}
}

func TestCompileList(t *testing.T) {
	c := NewCompiler()
	chs, err := c.CompileList([]byte(`[{"type":"contains","value":"a"},{"type":"one_of","values":["x"]}]`))
	if err != nil || len(chs) != 2 {
		t.Fatalf("got %d checks, %v; want 2", len(chs), err)
	}
	_, err = c.CompileList([]byte(`[{"type":"contains","value":"a"},{"type":"contains"}]`))
	var se *SpecError
	if !errors.As(err, &se) || !strings.HasPrefix(se.Spec, "#1") {
		t.Errorf("got %v, want a SpecError naming spec #1", err)
	}
}

func TestCompilerRegister(t *testing.T) {
	c := NewCompiler()
	c.Register("shout", func(o *SpecOptions) (Grader, error) {
		min := o.Int("min", 1)
		return Func(o.Name(), func(_ context.Context, s *Sample) Grade {
			if strings.Count(s.Output, "!") >= min {
				return Pass("")
			}
			return Fail("not loud enough")
		}), o.Err()
	})
	ch, err := c.Compile([]byte(`{"type":"shout","min":2}`))
	if err != nil {
		t.Fatal(err)
	}
	if g := ch.Grade(context.Background(), &Sample{Output: "hi!!"}); g.Status != StatusPassed {
		t.Errorf("got %v, want passed", g.Status)
	}
	if _, err := c.Compile([]byte(`{"type":"shout","loud":true}`)); err == nil || !strings.Contains(err.Error(), "loud") {
		t.Errorf("got %v, want the unknown option loud named", err)
	}
}

// FuzzCompile: compiling any spec text either yields a check with a
// grader or a *SpecError, never a panic; a compiled check grades to one of
// the three attempt statuses.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		`{"type":"contains","value":"a"}`,
		`{"type":"contains","values":["a","b"],"mode":"any","case_sensitive":false}`,
		`{"type":"exact_match","expected":{"a":[1,2]}}`,
		`{"type":"exact_match","expected":null,"remove_punctuation":true}`,
		`{"type":"one_of","values":["x"],"name":"n","required":true,"severity":"low"}`,
		`{"type":"all","graders":[{"type":"not","grader":{"type":"starts_with","value":"x"}}]}`,
		`{"type":"any","graders":{"a":{"type":"ends_with","value":"y"}}}`,
		`{"type":"nope"}`, `[]`, `{`, `{"type":"contains","value":"a","value":"b"}`,
	} {
		f.Add([]byte(s))
	}
	c := NewCompiler()
	f.Fuzz(func(t *testing.T, spec []byte) {
		ch, err := c.Compile(spec)
		if err != nil {
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T) is not a *SpecError", err, err)
			}
			return
		}
		if ch.Grader == nil {
			t.Fatal("no error and no grader")
		}
		g := ch.Grade(context.Background(), &Sample{Output: "x a y", Expected: Ptr("x")})
		if g.Status > StatusFailed {
			t.Fatalf("status %v is not an attempt status", g.Status)
		}
	})
}

// TestCompilerRegisterConcurrent registers types while other goroutines
// compile specs; under -race this proves Register needs no ordering.
func TestCompilerRegisterConcurrent(t *testing.T) {
	c := NewCompiler()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			typ := fmt.Sprintf("custom_%d", i)
			c.Register(typ, func(o *SpecOptions) (Grader, error) {
				return Func(o.Name(), func(context.Context, *Sample) Grade { return Pass("") }), nil
			})
			if _, err := c.Compile([]byte(`{"type":"` + typ + `"}`)); err != nil {
				t.Errorf("compile %s after registering it: %v", typ, err)
			}
			if _, err := c.Compile([]byte(`{"type":"contains","value":"x"}`)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := len(c.Types()); n < 8 {
		t.Errorf("Types() has %d entries, want the 8 registered at least", n)
	}
}
