package similarity_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
	"github.com/proctorhq/proctor/similarity"
)

// Reference values from autoevals' own tests:
//
//	js/json.test.ts, js/value.test.ts, py/autoevals/test_json.py,
//	py/autoevals/test_values.py  braintrustdata/autoevals@edfa259bb568c17b5089335262418744f9cc95f2
//
// JSON values are written as JSON text here; a Go string is a JSON string.
var autoevalsJSONCases = []struct {
	output, expected string // JSON text of each side
	want             float64
}{
	// "JSON String Test" (strings scored by Levenshtein).
	{`""`, `""`, 1},
	{`""`, `"a"`, 0},
	{`"a"`, `""`, 0},
	{`"a"`, `"a"`, 1},
	{`"a"`, `"b"`, 0},
	{`"ab"`, `"ac"`, 0.5},
	{`"ac"`, `"bc"`, 0.5},
	{`"abc"`, `"axc"`, 0.66667},
	{`"xabxcdxxefxgx"`, `"1ab2cd34ef5g6"`, 0.53846},
	// "JSON Object Test".
	{`null`, `null`, 1},
	{`""`, `null`, 0},
	{`[]`, `{}`, 0},
	{`[]`, `[]`, 1},
	{`{}`, `{}`, 1},
	{`{"a":1}`, `{"a":1}`, 1},
	{`{"a":1}`, `{"a":2}`, 0.66667},
	{`{"a":1}`, `["a",1]`, 0.5714285714285714},
	{`{"a":1}`, `{"b":{"a":1}}`, 0},
	{`{"a":1}`, `{"a":null}`, 0},
	{`{"mapping":{"a":"foo","b":"bar"}}`, `{"mapping":{"a":"Foo","b":"Bar"},"Extra":5}`, 0.33333333333333337},
	// "Semantic JSON Test" (NumericDiff numbers; strings holding JSON).
	{`"{\"x\": 1, \"y\": 2}"`, `"{\"y\": 2, \"x\": 1}"`, 1},
	{`"{\"zs\": [\"a\", \"b\"], \"x\": 1, \"y\": 2}"`, `"{\"y\": 2, \"zs\": [\"a\", \"b\"], \"x\": 1}"`, 1},
	{`"{\"o1\": {\"x\": 1, \"y\": 2}}"`, `"{\"o1\": {\"y\": 2, \"x\": 1}}"`, 1},
	{`"{\"xs\": [{\"o1\": {\"x\": 1, \"y\": [2]}}]}"`, `"{\"xs\": [{\"o1\": {\"y\": [2], \"x\": 1}}]}"`, 1},
	{`"{\"o1\": {\"x\": 2, \"y\": 2}}"`, `"{\"o1\": {\"y\": 2, \"x\": 1}}"`, 0.83333},
	{`{"o1":{"x":2,"y":2}}`, `"{\"o1\": {\"y\": 2, \"x\": 1}}"`, 0.83333},
	{`"{\"x\": 1, \"y\": 2}"`, `"{\"x\": 1, \"z\": 2}"`, 0.3333},
	{`"[1, 2]"`, `"[1, 2]"`, 1},
	{`"[1, 2]"`, `"[2, 1]"`, 0.66667},
}

func TestJSONDiffAutoevals(t *testing.T) {
	maxDiff := 0.0
	for _, c := range autoevalsJSONCases {
		var out, exp any
		if err := json.Unmarshal([]byte(c.output), &out); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(c.expected), &exp); err != nil {
			t.Fatal(err)
		}
		g, err := similarity.NewJSONDiff(similarity.JSONDiffOptions{Expected: &exp})
		if err != nil {
			t.Fatal(err)
		}
		// The grader's output is text: a JSON string side is its content;
		// anything else its JSON text.
		text := c.output
		if s, ok := out.(string); ok {
			text = s
		}
		if c.output == "null" {
			continue // an output is always text; null outputs are covered below
		}
		got := g.Grade(context.Background(), &proctor.Sample{Output: text})
		d := math.Abs(got.Score - c.want)
		maxDiff = max(maxDiff, d)
		if d > 1e-4 {
			t.Errorf("JSONDiff(%s, %s) = %v, want %v (autoevals)", c.output, c.expected, got.Score, c.want)
		}
	}
	t.Logf("%d autoevals values, max abs difference %.2g", len(autoevalsJSONCases)-1, maxDiff)
}

// TestNumericDiffGrader checks the grader around metric.NumericDiff.
func TestNumericDiffGrader(t *testing.T) {
	g := proctest.Must(similarity.NewNumericDiff(similarity.NumericDiffOptions{Expected: proctor.Ptr(2.0), Threshold: proctor.Ptr(0.6)}))
	for out, want := range map[string]proctor.Status{" 1 ": proctor.StatusPassed, "0.5": proctor.StatusFailed, "two": proctor.StatusFailed, "NaN": proctor.StatusFailed} {
		if got := g.Grade(context.Background(), &proctor.Sample{Output: out}); got.Status != want {
			t.Errorf("output %q: got %v, want %v", out, got, want)
		}
	}
	if got := proctest.Must(similarity.NewNumericDiff(similarity.NumericDiffOptions{})).Grade(context.Background(), &proctor.Sample{Output: "1", Expected: proctor.Ptr("x")}); got.Status != proctor.StatusNotGraded {
		t.Errorf("expected not a number: got %v, want not graded", got)
	}
}

// TestListContainsTooLong: a pair of items past the string scorer's limit
// makes list_contains not graded, naming the first such pair; the exact
// scorer has no limit.
func TestListContainsTooLong(t *testing.T) {
	long := func(c string, n int) string { return strings.Repeat(c, n) }
	want := []string{"short", long("a", 40000), long("c", 50000)}
	out, _ := json.Marshal([]string{long("b", 30000), "x"})
	s := &proctor.Sample{Output: string(out)}
	jaro, _ := similarity.NewListContains(similarity.ListContainsOptions{Expected: want, StringScorer: "jaro"})
	got := jaro.Grade(context.Background(), s)
	if got.Status != proctor.StatusNotGraded || got.Err == nil ||
		got.Reason != "list_contains: strings too long to compare: 30000 and 40000 code points, over 1073741824 pairs" {
		t.Errorf("jaro on 30000 x 40000 code points: got %v %q, want not graded naming that pair", got.Status, got.Reason)
	}
	exact, _ := similarity.NewListContains(similarity.ListContainsOptions{Expected: want, StringScorer: "exact"})
	if got := exact.Grade(context.Background(), s); got.Status != proctor.StatusFailed || got.Score != 0 {
		t.Errorf("exact: got %v score %v, want failed with score 0", got.Status, got.Score)
	}
}

func TestJSONDiffSpecs(t *testing.T) {
	s := &proctor.Sample{Output: `{"name":"Ada","age":36,"tags":["x","y"]}`, Expected: proctor.Ptr(`{"age":37,"name":"Ada","tags":["x","y"]}`), ExpectedJSON: true}
	runSpecRows(t, s, []specRow{
		{Spec: `{"type":"json_diff","threshold":0.99}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"json_diff","number_scorer":"exact","threshold":0.7}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"json_diff","expected":{"name":"Bob"},"string_scorer":"exact","threshold":0.1}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"json_diff","string_scorer":"cosine"}`, WantErr: true},
		{Spec: `{"type":"numeric_diff","expected":1}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"numeric_diff","expected":"1"}`, WantErr: true},
		{Spec: `{"type":"list_contains","expected":["x","y"]}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"list_contains","expected":"x"}`, WantErr: true},
	})
	list := &proctor.Sample{Output: `["paris", "Lyon", 3]`, Expected: proctor.Ptr(`["Paris","Lyon"]`), ExpectedJSON: true}
	runSpecRows(t, list, []specRow{
		{Spec: `{"type":"list_contains","threshold":0.6}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"list_contains","allow_extra":true,"threshold":0.9}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"list_contains","string_scorer":"exact","threshold":0.5}`, Want: proctor.StatusFailed},
	})
	g, _ := similarity.NewListContains(similarity.ListContainsOptions{Expected: []string{"a"}})
	if got := g.Grade(context.Background(), &proctor.Sample{Output: "a, b"}); got.Status != proctor.StatusFailed {
		t.Errorf("output not an array: got %v, want failed", got)
	}
	jd, _ := similarity.NewJSONDiff(similarity.JSONDiffOptions{})
	if got := jd.Grade(context.Background(), &proctor.Sample{Output: "{}"}); got.Status != proctor.StatusNotGraded {
		t.Errorf("no expected: got %v, want not graded", got)
	}
}

func FuzzJSONDiff(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x",null,true]}`, `[1e308,-1e308]`, `"{\"a\":1}"`, `{"a":{"b":{"c":[[]]}}}`, "\xff", ``} {
		f.Add(s, `{"a":[1,"y",null,false]}`)
	}
	f.Fuzz(func(t *testing.T, out, exp string) {
		g, _ := similarity.NewJSONDiff(similarity.JSONDiffOptions{})
		gr := g.Grade(context.Background(), &proctor.Sample{Output: out, Expected: &exp, ExpectedJSON: json.Valid([]byte(exp))})
		if gr.Status == proctor.StatusNotGraded && gr.Err == nil {
			t.Errorf("not graded without a cause: %v", gr)
		}
		if gr.HasScore && (gr.Score < 0 || gr.Score > 1 || math.IsNaN(gr.Score)) {
			t.Errorf("score %v out of [0, 1]", gr.Score)
		}
	})
}

// BenchmarkListContains grades a list of 20 items against 20 expected
// ones: 400 Levenshtein comparisons and the best one-to-one assignment.
func BenchmarkListContains(b *testing.B) {
	var got, want []string
	for i := range 20 {
		got = append(got, fmt.Sprintf("item number %d of the output", i*7%20))
		want = append(want, fmt.Sprintf("item number %d of the list", i))
	}
	out, _ := json.Marshal(got)
	g, _ := similarity.NewListContains(similarity.ListContainsOptions{Expected: want})
	s := &proctor.Sample{Output: string(out)}
	if gr := g.Grade(context.Background(), s); gr.Status != proctor.StatusPassed {
		b.Fatalf("got %v, want passed", gr)
	}
	b.ReportAllocs()
	for b.Loop() {
		g.Grade(context.Background(), s)
	}
}

// BenchmarkNumericDiff grades one number against the expected one.
func BenchmarkNumericDiff(b *testing.B) {
	g := proctest.Must(similarity.NewNumericDiff(similarity.NumericDiffOptions{Expected: proctor.Ptr(1234.5)}))
	s := &proctor.Sample{Output: " 1200.25 "}
	if gr := g.Grade(context.Background(), s); gr.Status != proctor.StatusPassed {
		b.Fatalf("got %v, want passed", gr)
	}
	b.ReportAllocs()
	for b.Loop() {
		g.Grade(context.Background(), s)
	}
}

// TestNumericDiffRefusesNonFiniteExpected: an expected number that is NaN
// or infinite can be scored against nothing; it is refused when built.
func TestNumericDiffRefusesNonFiniteExpected(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		g, err := similarity.NewNumericDiff(similarity.NumericDiffOptions{Expected: &bad})
		if want := fmt.Sprintf("similarity: numeric_diff expected %v: want a finite number", bad); err == nil || err.Error() != want || g != nil {
			t.Errorf("expected %v: got %v, %v; want %q", bad, g, err, want)
		}
	}
}
