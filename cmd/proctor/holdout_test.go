package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// holdoutSuite has a dev and a holdout case whose outputs the checks'
// reasons and the judge's reasoning quote, and keeps holdout out of
// reports.
const holdoutSuite = `name: holdout
config: judge.yaml
redact_splits: [holdout]
cases:
  - id: dev-1
    split: dev
    expected: "Paris"
    outputs: ["Marseille is the capital, said the development answer"]
    checks:
      - {type: exact_match}
      - {type: llm_judge, rubric: names the capital}
  - id: hold-1
    split: holdout
    expected: "Paris"
    attempts: 2
    outputs: ["Lyon, quoth the zebra-quartz holdout reply", "Paris"]
    checks:
      - {type: one_of, values: ["Paris"]}
      - {type: exact_match}
      - {type: llm_judge, rubric: names the capital}
`

const holdoutJudge = `judges:
  - name: scripted offline judge
    type: scripted
    family: scripted
    replies:
      - case: dev-1
        reply: {criterion: "names Paris", violations: "says Marseille is the capital, said the development answer", verdict: fail, confidence: high}
      - case: hold-1
        prompt_contains: "Lyon"
        reply: {criterion: "names Paris", violations: "writes: Lyon, quoth the zebra-quartz holdout reply", verdict: fail, confidence: high}
      - case: hold-1
        reply: {criterion: "names Paris", violations: "none", verdict: pass, confidence: high}
`

// leaks returns the 12-rune windows of secret that appear in text.
func leaks(text, secret string) []string {
	r := []rune(secret)
	var out []string
	for i := 0; i+12 <= len(r); i++ {
		if w := string(r[i : i+12]); strings.Contains(text, w) {
			out = append(out, w)
		}
	}
	return out
}

func TestRunHoldoutHidden(t *testing.T) {
	dir := t.TempDir()
	suitePath := filepath.Join(dir, "suite.yaml")
	os.WriteFile(suitePath, []byte(holdoutSuite), 0o644)
	os.WriteFile(filepath.Join(dir, "judge.yaml"), []byte(holdoutJudge), 0o644)
	out := filepath.Join(dir, "r.json")
	code, text, stderr := cli(t, "run", suitePath, "--out", out, "--junit", filepath.Join(dir, "r.xml"), "--markdown", filepath.Join(dir, "r.md"))
	if code != exitFailed {
		t.Fatalf("exit %d, want 1; stderr %s", code, stderr)
	}
	reports := map[string]string{"text": text}
	for _, f := range []string{"r.json", "r.xml", "r.md"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		reports[f] = string(b)
	}
	for _, format := range []string{"text", "markdown", "junit"} {
		_, shown, _ := cli(t, "report", "show", "--format", format, out)
		reports["show "+format] = shown
	}
	_, merged, _ := cli(t, "report", "merge", out)
	reports["merge"] = merged
	holdout := []string{"Lyon, quoth the zebra-quartz holdout reply"}
	dev := "Marseille is the capital, said the development answer"
	for name, rep := range reports {
		for _, secret := range holdout {
			if l := leaks(rep, secret); len(l) > 0 {
				t.Errorf("%s report shows pieces of a holdout output: %q", name, l)
			}
		}
		// The check can fail: the dev output, quoted the same way, shows.
		if name != "merge" && name != "r.json" && len(leaks(rep, dev)) == 0 {
			t.Errorf("%s report shows nothing of the dev output: the leak check would miss a leak", name)
		}
	}
	if !strings.Contains(reports["r.json"], "Marseille is the capital") {
		t.Errorf("the JSON report lacks the dev output quoted in its reasons")
	}
	rep, err := readReport(out)
	if err != nil {
		t.Fatal(err)
	}
	// Verdicts, graders and statuses are kept: the holdout case is flaky
	// (its first attempt failed, its second passed) and the judge ran.
	h := rep.Cases[1]
	if h.ID != "hold-1" || h.Verdict != proctor.StatusFlaky || len(h.Attempts) != 2 {
		t.Fatalf("holdout case %+v, want hold-1 flaky over 2 attempts", h)
	}
	for _, g := range h.Attempts[0].Grades {
		if g.Status != proctor.StatusFailed || g.Reason != "hidden: holdout case" || g.Evidence != nil {
			t.Errorf("holdout grade %s: %v %q %v; want failed, the fixed reason, no evidence", g.Grader, g.Status, g.Reason, g.Evidence)
		}
	}
	if rep.Judges[0].Calls != 3 || rep.Judges[0].Name != "scripted offline judge" {
		t.Errorf("judges %+v, want the scripted judge with 3 calls", rep.Judges)
	}
	if !strings.Contains(text, "holdout  passed 0 | failed 0 | flaky 1 | not graded 0   pass rate n/a") || !strings.Contains(text, "dev      passed 0 | failed 1") {
		t.Errorf("the text report lacks the split breakdown:\n%s", text)
	}
}

func TestRunSuiteConfigOverridden(t *testing.T) {
	dir := t.TempDir()
	suitePath := filepath.Join(dir, "suite.yaml")
	os.WriteFile(suitePath, []byte(holdoutSuite), 0o644)
	os.WriteFile(filepath.Join(dir, "judge.yaml"), []byte(holdoutJudge), 0o644)
	other := writeFile(t, "other.yaml", "judges:\n  - {name: other judge, type: scripted, family: f, replies: [{reply: {verdict: pass, confidence: high}}]}\n")
	_, text, stderr := cli(t, "run", suitePath, "--config", other)
	if !strings.Contains(stderr, "using --config "+other+", not the suite's config judge.yaml") {
		t.Errorf("stderr %q does not say the suite's config is not used", stderr)
	}
	if !strings.Contains(text, "other judge (canned replies, f)") || strings.Contains(text, "scripted offline judge") {
		t.Errorf("the report's judges are not --config's:\n%s", text)
	}
	// A suite's config may not name a judge cache folder.
	os.WriteFile(filepath.Join(dir, "judge.yaml"), []byte(holdoutJudge+"judge_cache: ../cache\n"), 0o644)
	code, _, stderr := cli(t, "run", suitePath)
	if code != exitUsage || !strings.Contains(stderr, "judge_cache: set it in a --config file") {
		t.Errorf("exit %d, stderr %q; want 2 refusing judge_cache", code, stderr)
	}
}

func TestRunItemSchema(t *testing.T) {
	code, text, stderr := cli(t, "run", "../../testdata/suites/items.yaml")
	if code != exitOK {
		t.Errorf("exit %d, want 0: a bad item is not graded, not failed; stderr %s", code, stderr)
	}
	for _, w := range []string{
		"bad-qty    not graded  0/1       item_schema: items.yaml:24: cases[1].item/qty: got string, want integer",
		"passed 1 | failed 0 | flaky 0 | not graded 4",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("report lacks %q:\n%s", w, text)
		}
	}
}

func TestRunSplitSelects(t *testing.T) {
	tests := []struct {
		split string
		cases int
		want  string
		why   string
	}{
		{"holdout", 3, `split "holdout" only: 3 of the suite's 10 cases`, "only the holdout cases run, and the report says so"},
		{"dev", 0, `split "dev" only: 0 of the suite's 10 cases`, "the quickstart names no dev split: nothing runs"},
	}
	for _, tt := range tests {
		t.Run(tt.split, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.json")
			_, text, stderr := cli(t, "run", quickstart, "--split", tt.split, "--out", out)
			rep, err := readReport(out)
			if err != nil {
				t.Fatalf("%v (stderr %s)", err, stderr)
			}
			if len(rep.Cases) != tt.cases || !strings.Contains(text, tt.want) {
				t.Errorf("%d cases, report:\n%s\nwant %d cases and %q (%s)", len(rep.Cases), text, tt.cases, tt.want, tt.why)
			}
			for _, c := range rep.Cases {
				if c.Split != tt.split {
					t.Errorf("case %s of split %q ran", c.ID, c.Split)
				}
			}
		})
	}
}
