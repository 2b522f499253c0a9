package similarity_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/testkit"
	"github.com/proctorhq/proctor/similarity"
)

// templateItem is the item the template rows read their expectations from.
const templateItem = testkit.TemplateItem

// TestValueTemplates runs each templated value option of the similarity
// types through the Compiler on a sample whose item holds the value to
// compare with: the same spec passes or fails by what the item says, not
// by its literal text.
func TestValueTemplates(t *testing.T) {
	tests := []struct {
		spec, sample string
		want         proctor.Status
		why          string
	}{
		{`{"type":"numeric_diff","expected":"{{item.num}}","threshold":0.99}`, `{"output":"42",` + templateItem + `}`, proctor.StatusPassed, "numeric_diff"},
		{`{"type":"json_diff","expected":"{{item.answer}}","threshold":0.99}`, `{"output":"Paris",` + templateItem + `}`, proctor.StatusPassed, "json_diff on a string"},
		{`{"type":"json_diff","expected":"{{item.obj}}","threshold":0.99}`, `{"output":"{\"a\": 1}",` + templateItem + `}`, proctor.StatusPassed, "an object item value renders as JSON, which json_diff parses"},
		{`{"type":"localization_f1","expected":"{{item.loc}}","threshold":0.9}`, `{"output":"see src/auth.go:10-24",` + templateItem + `}`, proctor.StatusPassed, "localization_f1"},
		{`{"type":"token_f1","expected":"{{item.ref}}","threshold":0.99}`, `{"output":"the cat sat on the mat",` + templateItem + `}`, proctor.StatusPassed, "token_f1"},
		{`{"type":"token_f1","expected":"{{item.ref}}","threshold":0.99}`, `{"output":"a dog",` + templateItem + `}`, proctor.StatusFailed, "token_f1 below"},
		{`{"type":"bleu","expected":"{{item.ref}}","threshold":0.9}`, `{"output":"the cat sat on the mat",` + templateItem + `}`, proctor.StatusPassed, "bleu"},
		{`{"type":"bleu","references":["{{item.ref}}","x y z"],"threshold":0.9}`, `{"output":"the cat sat on the mat",` + templateItem + `}`, proctor.StatusPassed, "bleu, templated references"},
		{`{"type":"gleu","expected":"{{item.ref}}","threshold":0.9}`, `{"output":"the cat sat on the mat",` + templateItem + `}`, proctor.StatusPassed, "gleu"},
		{`{"type":"rouge","expected":"{{item.ref}}","threshold":0.9}`, `{"output":"the cat sat on the mat",` + templateItem + `}`, proctor.StatusPassed, "rouge"},
		{`{"type":"rouge","expected":"{{item.ref}}","threshold":0.9}`, `{"output":"dogs bark",` + templateItem + `}`, proctor.StatusFailed, "rouge below"},
		{`{"type":"chrf","expected":"{{item.ref}}","threshold":0.9}`, `{"output":"the cat sat on the mat",` + templateItem + `}`, proctor.StatusPassed, "chrf"},
		{`{"type":"levenshtein","expected":"{{item.answer}}","max_distance":1}`, `{"output":"Pariss",` + templateItem + `}`, proctor.StatusPassed, "levenshtein"},
		{`{"type":"fuzzy_match","expected":"{{item.answer}}","threshold":0.99}`, `{"output":"Lyon",` + templateItem + `}`, proctor.StatusFailed, "fuzzy_match"},
		{`{"type":"jaro","expected":"{{item.answer}}","threshold":0.99}`, `{"output":"Paris",` + templateItem + `}`, proctor.StatusPassed, "jaro"},
		{`{"type":"jaro_winkler","expected":"{{item.answer}}","threshold":0.99}`, `{"output":"Paris",` + templateItem + `}`, proctor.StatusPassed, "jaro_winkler"},
		{`{"type":"hamming","expected":"{{item.code}}","threshold":0.99}`, `{"output":"A-17",` + templateItem + `}`, proctor.StatusPassed, "hamming"},
		{`{"type":"semantic_similarity","expected":"{{item.ref}}","threshold":0.99}`, `{"output":"the cat sat on the mat",` + templateItem + `}`, proctor.StatusPassed, "semantic_similarity, lexical embedder"},
		{`{"type":"token_f1","expected":"{{item.ref}}","references":["dogs"],"threshold":0.99}`, `{"output":"dogs",` + templateItem + `}`, proctor.StatusPassed, "the best of a templated expected and a literal reference"},
	}
	c := proctor.NewCompiler(similarity.Types())
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			got := gradeSpecSample(t, c, tt.spec, tt.sample)
			if got.Status != tt.want {
				t.Errorf("%s on %s: got %v (%s), want %v", tt.spec, tt.sample, got.Status, got.Reason, tt.want)
			}
		})
	}
}

// TestValueTemplateMissing checks that a variable the sample lacks is not
// graded, with a reason naming the option and the variable, for every
// templated option: never a comparison with an empty string.
func TestValueTemplateMissing(t *testing.T) {
	tests := []struct{ spec, option string }{
		{`{"type":"numeric_diff","expected":"{{item.nope}}"}`, "expected"},
		{`{"type":"json_diff","expected":"{{item.nope}}"}`, "expected"},
		{`{"type":"localization_f1","expected":"{{item.nope}}"}`, "expected"},
		{`{"type":"bleu","references":["ok","{{item.nope}}"]}`, "references"},
		{`{"type":"rouge","expected":"{{item.nope}}"}`, "expected"},
		{`{"type":"semantic_similarity","expected":"{{item.nope}}"}`, "expected"},
	}
	c := proctor.NewCompiler(similarity.Types())
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			// Output "" and the sample's expected "" would pass an
			// empty-string comparison for most of these types.
			got := gradeSpecSample(t, c, tt.spec, `{"output":"","item":{"answer":"Paris"}}`)
			if got.Status != proctor.StatusNotGraded {
				t.Fatalf("got %v (%s), want not graded", got.Status, got.Reason)
			}
			if !errors.Is(got.Err, proctor.ErrMissingVariable) {
				t.Errorf("Err = %v, want ErrMissingVariable", got.Err)
			}
			if !strings.HasPrefix(got.Reason, tt.option+": ") {
				t.Errorf("reason %q does not start with the option %q", got.Reason, tt.option)
			}
		})
	}
}

// TestValueTemplateSpecErrors checks that a malformed template is a spec
// error naming the option, and not ErrMissingVariable.
func TestValueTemplateSpecErrors(t *testing.T) {
	c := proctor.NewCompiler(similarity.Types())
	for _, tt := range []struct{ name, spec, option string }{
		{name: "bleu expected", spec: `{"type":"bleu","expected":"{{item"}`, option: "expected"},
		{name: "rouge references", spec: `{"type":"rouge","references":["{{ref}}"]}`, option: "references"},
		{name: "empty references beside a template", spec: `{"type":"rouge","expected":"{{item.ref}}","references":[]}`, option: "references"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Compile([]byte(tt.spec))
			var se *proctor.SpecError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SpecError", err)
			}
			if se.Option != tt.option {
				t.Errorf("got option %q, want %q (%v)", se.Option, tt.option, err)
			}
			if errors.Is(err, proctor.ErrMissingVariable) {
				t.Errorf("errors.Is(err, ErrMissingVariable) = true, want false")
			}
		})
	}
}

// TestValueTemplateLiteralPath checks that a value without variables
// builds the same grader as before templates: the concrete type, not a
// wrapper, so that it costs what it did.
func TestValueTemplateLiteralPath(t *testing.T) {
	c := proctor.NewCompiler(similarity.Types())
	for spec, want := range map[string]string{
		`{"type":"rouge","expected":"ref"}`:                     "*similarity.Rouge",
		`{"type":"semantic_similarity","expected":"{{input}}"}`: "*proctor.expectedSubst",
	} {
		ch, err := c.Compile([]byte(spec))
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		if got := fmt.Sprintf("%T", ch.Grader); got != want {
			t.Errorf("%s: built %s, want %s", spec, got, want)
		}
	}
}

// TestValueTemplateKind checks that a templated semantic_similarity still
// reports the embedder's kind, so the Runner budgets it as it did.
func TestValueTemplateKind(t *testing.T) {
	c := proctor.NewCompiler(similarity.Types())
	lit, err := c.Compile([]byte(`{"type":"semantic_similarity","expected":"ref"}`))
	if err != nil {
		t.Fatal(err)
	}
	tm, err := c.Compile([]byte(`{"type":"semantic_similarity","expected":"{{item.ref}}"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := proctor.KindOf(tm.Grader), proctor.KindOf(lit.Grader); got != want {
		t.Errorf("templated kind %v, literal kind %v", got, want)
	}
	if got := tm.Grader.Name(); got != "semantic_similarity" {
		t.Errorf("Name() = %q", got)
	}
}

func gradeSpecSample(t *testing.T, c *proctor.Compiler, spec, sample string) proctor.Grade {
	t.Helper()
	ch, err := c.Compile([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	var s proctor.Sample
	if err := json.Unmarshal([]byte(sample), &s); err != nil {
		t.Fatal(err)
	}
	return ch.Grade(context.Background(), &s)
}
