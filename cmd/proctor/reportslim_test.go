package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

// richReport writes a report of n cases with every field show and html
// read: judge evidence and scores, splits, groups, clusters, min_pass,
// severities, caveats, skipped checks, inputs and outputs, flaky and not
// graded cases; most are passed so the slim path carries most of them.
func richReport(t *testing.T, rng *rand.Rand, n int) string {
	t.Helper()
	r := proctor.NewReport("rich")
	out, exp := "the output", "expected"
	for i := range n {
		v := proctor.StatusPassed
		switch k := rng.IntN(10); {
		case k == 0:
			v = proctor.StatusFailed
		case k == 1:
			v = proctor.StatusFlaky
		case k == 2:
			v = proctor.StatusNotGraded
		}
		judge := proctor.Grade{Grader: "judge", Status: v, Reason: fmt.Sprintf("judge says %d", i%7),
			Evidence: map[string]any{"reasoning": "because " + fmt.Sprint(i), "votes": []any{1.0, 2.5}, "nested": map[string]any{"ok": i%2 == 0}}}
		if rng.IntN(3) > 0 {
			judge.Score, judge.HasScore = float64(rng.IntN(101))/100, true
		}
		if v == proctor.StatusFlaky {
			judge.Status = proctor.StatusFailed
		}
		if i%5 == 0 {
			judge.Caveats = []string{fmt.Sprintf("caveat %d", i%4)}
		}
		if i%97 == 5 {
			judge.Caveats = append(judge.Caveats, fmt.Sprintf("caveat of case %d", i))
		}
		grades := []proctor.Grade{{Grader: "contains", Status: proctor.StatusPassed, Reason: "contains \"x\""}, judge}
		atts := []proctor.AttemptResult{{Verdict: judge.Status, Grades: grades, Skipped: []string{"regex"}[:i%2], Output: &out}}
		if v == proctor.StatusFlaky {
			atts = append(atts, proctor.AttemptResult{Verdict: proctor.StatusPassed, Grades: grades[:1]})
		}
		if v == proctor.StatusNotGraded {
			atts[0].Error = "subject timed out"
		}
		r.Add(proctor.CaseResult{ID: fmt.Sprintf("case-%d", i), Verdict: v,
			Severity: proctor.Severity(rng.IntN(3)), Split: []string{"", "dev", "holdout"}[rng.IntN(3)],
			Cluster: fmt.Sprintf("cl%d", rng.IntN(4)), Group: []string{"", "a", "b"}[rng.IntN(3)],
			MinPass: rng.IntN(2), AttemptsSaved: rng.IntN(2), Input: "in " + fmt.Sprint(i), Expected: &exp, Attempts: atts})
	}
	return writeReportFile(t, r)
}

// writeReportFile writes r as JSON to a file and returns its path.
func writeReportFile(t *testing.T, r *proctor.Report) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.json")
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSlimStreamEqualsWholeDecode: report show (text, markdown, junit)
// and report html, which decode passed cases slim, write byte for byte
// what the writers write from the report decoded whole, including pages
// whose embedding budget runs out halfway (the decoders switch from
// whole to slim mid-stream).
func TestSlimStreamEqualsWholeDecode(t *testing.T) {
	for _, n := range []int{0, 1, 49, 50, 51, 3000} {
		path := richReport(t, rand.New(rand.NewPCG(uint64(n), 7)), n)
		r, err := readReport(path)
		if err != nil {
			t.Fatal(err)
		}
		checkShowFormats(t, path, r)
		for _, max := range []int{0, 1, 20 << 10, 200 << 10} {
			opts := reportfmt.HTMLOptions{Generated: time.Unix(1, 0), Version: "v", MaxBytes: max}
			var want, got bytes.Buffer
			if err := reportfmt.WriteHTML(&want, r, opts); err != nil {
				t.Fatal(err)
			}
			if err := writeHTMLStream(path, &got, opts); err != nil {
				t.Fatal(err)
			}
			if want.String() != got.String() {
				t.Errorf("%d cases, MaxBytes %d: html differs:\n%s", n, max, cmp.Diff(want.String(), got.String()))
			}
		}
	}
}

// slimOf is c with only the fields a slim decode fills.
func slimOf(c proctor.CaseResult) proctor.CaseResult {
	c.Input, c.Expected = "", nil
	atts := make([]proctor.AttemptResult, len(c.Attempts))
	for i, a := range c.Attempts {
		a.Skipped, a.Error, a.Output = nil, "", nil
		a.Grades = append([]proctor.Grade(nil), a.Grades...)
		for j := range a.Grades {
			a.Grades[j].Reason, a.Grades[j].Evidence = "", nil
		}
		atts[i] = a
	}
	if c.Attempts != nil {
		c.Attempts = atts
	}
	return c
}

// checkSlim fails when decodeSlim accepts raw but encoding/json refuses
// it, or decodes it to other counted fields.
func checkSlim(t *testing.T, raw []byte) bool {
	t.Helper()
	var s slimCase
	if !decodeSlim(raw, &s) {
		return false
	}
	var whole proctor.CaseResult
	if err := json.Unmarshal(raw, &whole); err != nil {
		t.Fatalf("slim decode accepted %s, which encoding/json refuses: %v", raw, err)
	}
	got := s.result()
	if len(whole.Attempts) == 0 && len(got.Attempts) == 0 {
		whole.Attempts, got.Attempts = nil, nil
	}
	for i := range whole.Attempts {
		if len(whole.Attempts[i].Grades) == 0 && i < len(got.Attempts) && len(got.Attempts[i].Grades) == 0 {
			whole.Attempts[i].Grades, got.Attempts[i].Grades = nil, nil
		}
	}
	if d := cmp.Diff(slimOf(whole), got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("%s: slim differs (-whole +slim):\n%s", raw, d)
	}
	return true
}

// checkShowFormats fails when report show of path, in any format, is not
// what the writers write from r, the report decoded whole.
func checkShowFormats(t *testing.T, path string, r *proctor.Report) {
	t.Helper()
	for _, format := range []string{"text", "markdown", "junit"} {
		var want bytes.Buffer
		switch format {
		case "text":
			reportfmt.WriteText(&want, reportfmt.Summarize(r), reportfmt.TextOptions{})
		case "markdown":
			reportfmt.WriteMarkdown(&want, reportfmt.Summarize(r), reportfmt.MarkdownOptions{})
		case "junit":
			reportfmt.WriteJUnit(&want, r, reportfmt.JUnitOptions{})
		}
		code, out, errs := runCLI(t, "", "report", "show", "--format", format, path)
		if code != exitOK || out != want.String() {
			t.Errorf("%d cases, %s: exit %d %s\n%s", len(r.Cases), format, code, errs, cmp.Diff(want.String(), out))
		}
	}
}

// TestSlimCaseResult: a case decoded slim has the fields of the whole
// decode that the counting reads; what the slim decoder is unsure of it
// leaves to the whole decode.
func TestSlimCaseResult(t *testing.T) {
	path := richReport(t, rand.New(rand.NewPCG(9, 9)), 200)
	r, err := readReport(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Cases {
		raw, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if !checkSlim(t, raw) {
			t.Fatalf("%s: a case proctor wrote needs the whole decode", raw)
		}
	}
	for _, raw := range []string{
		`{"ID":"x","verdict":"passed","attempts":[]}`,
		`{"id":"x","verdict":"passed","min_pass":1.5}`,
		`{"id":"x","verdict":"passed","input":3}`,
		`{"id":"x","verdict":"passed","attempts":[{"verdict":"passed","grades":[{"grader":"g","status":"passed","reason":7}]}]}`,
		`{"id":"x","verdict":"passed","attempts":[{"verdict":"passed","skipped":[1]}]}`,
		`{"id":"x","verdict":"passed","attempts":[1]}`,
		`{"id":"x","verdict":"passed","attempts":[{"verdict":"passed"}],"attempts":[{"verdict":"failed"}]}`,
		`{"id":"x","verdict":"pass"}`,
		`{"id":"\xff","verdict":"passed"}`,
		`{"id":"x","verdict":"passed","attempts":{}}`,
	} {
		if checkSlim(t, []byte(raw)) {
			t.Errorf("%s: decoded slim, want it left to the whole decode", raw)
		}
	}
}

// FuzzDecodeSlim: whatever the slim decoder accepts, encoding/json
// accepts too and decodes to the same counted fields.
func FuzzDecodeSlim(f *testing.F) {
	for i := range 60 {
		raw, _ := json.Marshal(scaleCase(i))
		f.Add(raw)
	}
	f.Add([]byte(`{"id":"a","verdict":"passed","severity":"high","split":"dev","cluster":"c","group":"g","min_pass":2,"attempts_saved":1,"input":"i","expected":null,"attempts":[{"verdict":"passed","skipped":["x"],"error":"","output":"o","grades":[{"grader":"judge","status":"passed","score":0.5,"reason":"r","evidence":{"a":[1,{"b":null}]},"caveats":["c1","c2"]}]}],"extra":{"x":[1,2]}}`))
	f.Add([]byte(`{"id":"t","verdict":"failed","tags":["a","b"],"attempts":[]}`))
	f.Add([]byte(`{"id":"t","tags":["a"],"tags":null,"attempts":[{"verdict":"passed"}],"attempts":null}`))
	f.Add([]byte(`{"id":"t","tags":[],"tags":["b",1]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return // the splitter hands the decoders valid JSON only
		}
		checkSlim(t, raw)
	})
}
