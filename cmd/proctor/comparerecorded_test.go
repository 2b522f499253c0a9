package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCompareShowsEachRunsFigures: compare prints, and compare --json
// carries, each run's clustered SE and corrected pass rate exactly as the
// run's own report recorded them.
func TestCompareShowsEachRunsFigures(t *testing.T) {
	dir := t.TempDir()
	cal := `{"grader":"helpful","confusion":{"pass_passed":45,"pass_failed":5,"fail_passed":10,"fail_failed":90}}`
	if err := os.WriteFile(filepath.Join(dir, "cal.json"), []byte(cal), 0o644); err != nil {
		t.Fatal(err)
	}
	report := func(name string, failEvery int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "name: %s\ncluster: item.doc\ncalibration: cal.json\ngraders: [{type: exact_match, name: helpful}]\ncases:\n", name)
		for i := range 40 {
			out := "yes"
			if i%failEvery == 0 {
				out = "no"
			}
			fmt.Fprintf(&b, "  - {id: c%d, expected: \"yes\", item: {doc: d%d}, outputs: [%q]}\n", i, i/4, out)
		}
		path := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, name+".json")
		cli(t, "run", path, "--out", out)
		return out
	}
	base, head := report("base", 5), report("head", 3)
	_, js, stderr := cli(t, "compare", "--json", base, head)
	var got struct {
		Base, Head struct {
			ClusteredSE       json.RawMessage `json:"clustered_se"`
			CorrectedPassRate json.RawMessage `json:"corrected_pass_rate"`
			PassRate          float64         `json:"pass_rate"`
		}
	}
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatalf("%v (%s):\n%s", err, stderr, js)
	}
	for _, run := range []struct {
		path     string
		clus, co json.RawMessage
		rate     float64
	}{{base, got.Base.ClusteredSE, got.Base.CorrectedPassRate, got.Base.PassRate}, {head, got.Head.ClusteredSE, got.Head.CorrectedPassRate, got.Head.PassRate}} {
		raw, err := os.ReadFile(run.path)
		if err != nil {
			t.Fatal(err)
		}
		var rec struct {
			ClusteredSE    any `json:"clustered_se"`
			JudgeCorrected any `json:"judge_corrected"`
		}
		if err := json.Unmarshal(raw, &rec); err != nil || rec.ClusteredSE == nil || rec.JudgeCorrected == nil {
			t.Fatalf("%s: %v, recorded %+v: want both figures in the report", run.path, err, rec)
		}
		var clus, co any
		json.Unmarshal(run.clus, &clus)
		json.Unmarshal(run.co, &co)
		if d := cmp.Diff(rec.ClusteredSE, clus); d != "" {
			t.Errorf("%s: clustered_se differs from the report's (-report +compare):\n%s", run.path, d)
		}
		if d := cmp.Diff(rec.JudgeCorrected, co); d != "" {
			t.Errorf("%s: corrected_pass_rate differs from the report's judge_corrected (-report +compare):\n%s", run.path, d)
		}
	}
	if got.Base.PassRate != 0.8 || got.Head.PassRate != 26.0/40 {
		t.Errorf("pass rates %v, %v; want 0.8 and 0.65", got.Base.PassRate, got.Head.PassRate)
	}
	_, text, _ := cli(t, "compare", base, head)
	for _, w := range []string{"base clustered SE", "head clustered SE", "base corrected helpful: raw 80.0% ->", "head corrected helpful: raw 65.0% ->"} {
		if !strings.Contains(text, w) {
			t.Errorf("compare lacks %q:\n%s", w, text)
		}
	}
}
