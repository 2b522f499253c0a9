package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/proctorhq/proctor"
)

// cli runs the command line in-process and returns its exit status and
// outputs.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

const quickstart = "../../examples/quickstart/suite.yaml"

func TestRunQuickstart(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := cli(t, "run", quickstart, "--out", filepath.Join(dir, "r.json"),
		"--junit", filepath.Join(dir, "r.xml"), "--markdown", filepath.Join(dir, "r.md"))
	if code != exitFailed {
		t.Errorf("exit %d, want 1: cases failed (stderr %s)", code, stderr)
	}
	golden(t, []byte(out))
	for _, w := range []string{"flaky", "not graded", "passed", "failed",
		"[required: skipped has-product, polite-reply]",
		"scripted offline judge (canned replies, scripted) prompts proctor-judge/1: 2 calls, 1 cache hit,",
		"holdout     passed 1 | failed 2"} {
		if !strings.Contains(out, w) {
			t.Errorf("the quickstart report lacks %q", w)
		}
	}
	for _, f := range []string{"r.json", "r.xml", "r.md"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(f, func(t *testing.T) { golden(t, b) })
	}
	var rep proctor.Report
	b, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("report.json: %v", err)
	}
	if rep.Totals != (proctor.Totals{Passed: 4, Failed: 4, Flaky: 1, NotGraded: 1}) || len(rep.Cases) != 10 {
		t.Errorf("totals %+v with %d cases", rep.Totals, len(rep.Cases))
	}
}

func writeSuite(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunExitStatus(t *testing.T) {
	passFlaky := writeSuite(t, "pf.yaml", `cases:
  - {id: p, expected: a, outputs: [a], checks: [{type: exact_match}]}
  - {id: f, expected: a, outputs: [a, b], checks: [{type: exact_match}]}
`)
	notGraded := writeSuite(t, "ng.yaml", `cases:
  - {id: p, expected: a, outputs: [a], checks: [{type: exact_match}]}
  - {id: n, outputs: [a], checks: [{type: exact_match}]}
`)
	bad := writeSuite(t, "bad.yaml", "cases:\n  - {id: x, outputs: [a], checks: [{type: nope}]}\n")
	tests := []struct {
		name string
		args []string
		want int
		why  string
	}{
		{"flaky fails", []string{"run", passFlaky}, exitFailed, "flaky counts as failed for the exit status"},
		{"allow flaky", []string{"run", passFlaky, "--allow-flaky"}, exitOK, "unless --allow-flaky"},
		{"flag before suite", []string{"run", "--allow-flaky", passFlaky}, exitOK, "flags on either side"},
		{"not graded is not failed", []string{"run", notGraded}, exitOK, "nothing failed"},
		{"spec error", []string{"run", bad}, exitUsage, "bad suite"},
		{"no suite", []string{"run"}, exitUsage, "usage"},
		{"two suites", []string{"run", notGraded, passFlaky}, exitUsage, "usage"},
		{"missing file", []string{"run", "/nonexistent/s.yaml"}, exitUsage, "cannot read"},
		{"bad shard", []string{"run", notGraded, "--shard", "3/2"}, exitUsage, "I <= N"},
		{"bad flag", []string{"run", notGraded, "--frobnicate"}, exitUsage, "unknown flag"},
		{"split with none", []string{"run", notGraded, "--split", "holdout"}, exitNoneGraded, "no case selected: nothing was graded"},
		{"strict", []string{"run", notGraded, "--strict"}, exitFailed, "--strict: a case not graded fails"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := cli(t, tt.args...)
			if code != tt.want {
				t.Errorf("exit %d, want %d (%s); stderr: %s", code, tt.want, tt.why, stderr)
			}
		})
	}
	_, _, stderr := cli(t, "run", bad)
	if !strings.Contains(stderr, "bad.yaml:2") || !strings.Contains(stderr, "nope") {
		t.Errorf("stderr %q should name the file, line and type", stderr)
	}
}

// shardSuite writes a suite of n cases with every verdict.
func shardSuite(t *testing.T, n int) string {
	var b strings.Builder
	b.WriteString("name: shards\ngraders: [{type: not_contains, value: BAD}]\ncases:\n")
	for i := range n {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "  - {id: c%03d, expected: a, outputs: [a], checks: [{type: exact_match}]}\n", i)
		case 1:
			fmt.Fprintf(&b, "  - {id: c%03d, expected: a, outputs: [BAD], checks: [{type: exact_match}]}\n", i)
		case 2:
			fmt.Fprintf(&b, "  - {id: c%03d, expected: a, outputs: [a, b, a], checks: [{type: exact_match}]}\n", i)
		case 3:
			fmt.Fprintf(&b, "  - {id: c%03d, outputs: [a], checks: [{type: exact_match}]}\n", i)
		}
	}
	return writeSuite(t, "shards.yaml", b.String())
}

func TestShardsMergeToWhole(t *testing.T) {
	path := shardSuite(t, 97)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.json")
	if code, _, stderr := cli(t, "run", path, "--out", whole); code != exitFailed {
		t.Fatalf("whole run exit %d: %s", code, stderr)
	}
	for _, n := range []int{1, 2, 5} {
		t.Run(fmt.Sprintf("%d shards", n), func(t *testing.T) {
			var parts []string
			for i := 1; i <= n; i++ {
				p := filepath.Join(dir, fmt.Sprintf("s%d-%d.json", n, i))
				cli(t, "run", path, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", p)
				parts = append(parts, p)
			}
			code, merged, stderr := cli(t, append([]string{"report", "merge"}, parts...)...)
			if code != exitOK {
				t.Fatalf("merge exit %d: %s", code, stderr)
			}
			want, _ := readReport(whole)
			var got proctor.Report
			if err := json.Unmarshal([]byte(merged), &got); err != nil {
				t.Fatal(err)
			}
			// The merged cases come in the whole run's order.
			var order []string
			for _, c := range want.Cases {
				order = append(order, c.ID)
			}
			var gotOrder []string
			for _, c := range got.Cases {
				gotOrder = append(gotOrder, c.ID)
			}
			if d := cmp.Diff(order, gotOrder); d != "" {
				t.Errorf("merged case order is not the whole run's order (-want +got):\n%s", d)
			}
			// The merge keeps the shards' suite digest; the whole run,
			// not sharded, records none.
			if !strings.HasPrefix(got.SuiteDigest, "sha256:") {
				t.Errorf("merged report has suite digest %q", got.SuiteDigest)
			}
			got.SuiteDigest = ""
			byID := func(a, b proctor.CaseResult) int { return strings.Compare(a.ID, b.ID) }
			slices.SortFunc(want.Cases, byID)
			slices.SortFunc(got.Cases, byID)
			wb, _ := json.Marshal(want)
			gb, _ := json.Marshal(&got)
			if !bytes.Equal(wb, gb) {
				t.Errorf("merged shards differ from the whole run:\n%s", cmp.Diff(string(wb), string(gb)))
			}
		})
	}
	// Overlapping shards and different suites are refused.
	if code, _, stderr := cli(t, "report", "merge", whole, whole); code != exitUsage || !strings.Contains(stderr, whole+" and "+whole) {
		t.Errorf("merging a report with itself: exit %d, want 2", code)
	}
	other := filepath.Join(dir, "other.json")
	cli(t, "run", quickstart, "--out", other)
	if code, _, stderr := cli(t, "report", "merge", whole, other); code != exitUsage || !strings.Contains(stderr, "other.json is of suite") || strings.Contains(stderr, "#") {
		t.Errorf("merging two suites: exit %d (%s), want 2", code, stderr)
	}
}

func TestCompare(t *testing.T) {
	dir := t.TempDir()
	base := writeSuite(t, "s.yaml", `name: cmp
cases:
  - {id: a, expected: x, outputs: [x], checks: [{type: exact_match}]}
  - {id: b, expected: x, outputs: [y], checks: [{type: exact_match}]}
  - {id: c, expected: x, outputs: [x], checks: [{type: exact_match}]}
  - {id: d, outputs: [x], checks: [{type: exact_match}]}
`)
	head := writeSuite(t, "s.yaml", `name: cmp
cases:
  - {id: a, expected: x, outputs: [x], checks: [{type: exact_match}]}
  - {id: b, expected: x, outputs: [x], checks: [{type: exact_match}]}
  - {id: c, expected: x, outputs: [y], checks: [{type: exact_match}]}
  - {id: e, expected: x, outputs: [x], checks: [{type: exact_match}]}
`)
	bj, hj := filepath.Join(dir, "base.json"), filepath.Join(dir, "head.json")
	cli(t, "run", base, "--out", bj)
	cli(t, "run", head, "--out", hj)
	code, out, stderr := cli(t, "compare", bj, hj)
	if code != exitFailed {
		t.Errorf("compare exit %d, want 1: case c regressed (%s)", code, stderr)
	}
	golden(t, []byte(out))
	code, out, _ = cli(t, "compare", "--json", bj, bj)
	if code != exitOK || !strings.Contains(out, `"p_value":1`) {
		t.Errorf("compare with itself: exit %d, %s", code, out)
	}
	code, out, stderr = cli(t, "compare", "--json", "--margin", "2pp", "--alpha", "0.025", bj, hj)
	var c struct {
		Difference *struct {
			Estimate, Low, High       float64
			N, PassToFail, FailToPass int
		} `json:"difference"`
		McNemarP    *float64 `json:"mcnemar_p"`
		NonInferior *struct {
			NonInferior   bool `json:"non_inferior"`
			Margin, Alpha float64
			N             int
		} `json:"non_inferior"`
		MDE *struct {
			Value *float64
			N     int
		} `json:"mde"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil || code != exitFailed {
		t.Fatalf("compare --json --margin: exit %d, %v: %s %s", code, err, out, stderr)
	}
	if c.Difference == nil || c.Difference.N != 3 || c.Difference.Estimate != 0 || c.McNemarP == nil || *c.McNemarP != 1 ||
		c.NonInferior == nil || c.NonInferior.NonInferior || c.NonInferior.Margin != 0.02 || c.NonInferior.Alpha != 0.025 ||
		c.MDE == nil || c.MDE.N != 3 || c.MDE.Value != nil {
		t.Errorf("compare --json figures: %s", out)
	}
	_, md, _ := cli(t, "compare", "--markdown", "--margin", "0.02", bj, hj)
	for _, want := range []string{"| difference (head - base) | +0.0 pp", "| McNemar exact p | 1 |", "| non-inferior | false |", "| minimum detectable difference | none |"} {
		if !strings.Contains(md, want) {
			t.Errorf("compare --markdown lacks %q:\n%s", want, md)
		}
	}
	for _, bad := range []string{"2", "x", "0", "150pp"} {
		if code, _, stderr := cli(t, "compare", "--margin", bad, bj, hj); code != exitUsage || !strings.Contains(stderr, "--margin") {
			t.Errorf("--margin %s: exit %d, %s", bad, code, stderr)
		}
	}
}

func TestReportShow(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	cli(t, "run", quickstart, "--out", p)
	for _, f := range []string{"text", "markdown", "junit"} {
		code, out, stderr := cli(t, "report", "show", "--format", f, p)
		if code != exitOK || len(out) == 0 {
			t.Errorf("report show --format %s: exit %d, %s", f, code, stderr)
		}
	}
	_, live, _ := cli(t, "run", quickstart)
	_, shown, _ := cli(t, "report", "show", p)
	if live != shown {
		t.Errorf("report show differs from the table proctor run printed:\n%s", cmp.Diff(live, shown))
	}
}

func TestProgress(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, true, 10)
	p.every = 0
	p.update(proctor.Totals{Passed: 3, Failed: 1, Flaky: 1, NotGraded: 2})
	want := "proctor run: 7/10 cases: passed 3, failed 1, flaky 1, not graded 2\n"
	if b.String() != want {
		t.Errorf("got %q, want %q (a plain line when stderr is not a terminal)", b.String(), want)
	}
	b.Reset()
	p = newProgress(&b, false, 10)
	p.every = 0
	p.update(proctor.Totals{Passed: 1})
	p.done(proctor.Totals{Passed: 1})
	if b.Len() != 0 {
		t.Errorf("--progress off wrote %q", b.String())
	}
}
