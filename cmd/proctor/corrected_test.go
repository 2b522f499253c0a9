package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// calibratedSuite writes a suite of ten cases whose check "helpful"
// passes seven, beside a calibration of that grader.
func calibratedSuite(t *testing.T, confusion string) (suitePath, calPath string) {
	t.Helper()
	var cases strings.Builder
	for i := range 10 {
		out := "yes"
		if i >= 7 {
			out = "no"
		}
		fmt.Fprintf(&cases, "  - {id: c%d, expected: \"yes\", outputs: [%q]}\n", i, out)
	}
	suitePath = writeSuite(t, "s.yaml", "name: cal\ncalibration: cal.json\ngraders: [{type: exact_match, name: helpful}]\ncases:\n"+cases.String())
	calPath = filepath.Join(filepath.Dir(suitePath), "cal.json")
	if err := os.WriteFile(calPath, []byte(`{"grader":"helpful","confusion":`+confusion+`}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return suitePath, calPath
}

func TestRunCorrectedPassRate(t *testing.T) {
	// Se 45/50 = 0.9, Sp 90/100 = 0.9: Rogan-Gladen (0.7 + 0.9 - 1) / 0.8.
	s, _ := calibratedSuite(t, `{"pass_passed":45,"pass_failed":5,"fail_passed":10,"fail_failed":90}`)
	out := filepath.Join(t.TempDir(), "r.json")
	code, text, stderr := cli(t, "run", s, "--out", out)
	if code != exitFailed {
		t.Fatalf("exit %d (three cases fail): %s", code, stderr)
	}
	if !strings.Contains(text, "corrected   helpful: raw 70.0% of 10 grades -> corrected 75.0%, 95% CI") {
		t.Errorf("terminal report lacks the corrected rate:\n%s", text)
	}
	b, _ := os.ReadFile(out)
	var doc struct {
		Corrected []struct {
			Grader      string
			RawPassRate float64                            `json:"raw_pass_rate"`
			Rate        *struct{ Rate, Low, High float64 } `json:"corrected_pass_rate"`
			Calibration struct {
				HumanPass int `json:"human_pass"`
			}
		} `json:"judge_corrected"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Corrected) != 1 {
		t.Fatalf("judge_corrected: %v\n%s", err, b)
	}
	c := doc.Corrected[0]
	if c.Grader != "helpful" || c.RawPassRate != 0.7 || c.Rate == nil || math.Abs(c.Rate.Rate-0.75) > 1e-12 ||
		c.Rate.Low >= c.Rate.Rate || c.Rate.High <= c.Rate.Rate || c.Calibration.HumanPass != 50 {
		t.Errorf("judge_corrected %+v", c)
	}
}

func TestRunCorrectedTooWeak(t *testing.T) {
	// Se 0.5, Sp 0.5 given with --calibration as well as by the suite.
	s, cal := calibratedSuite(t, `{"pass_passed":5,"pass_failed":5,"fail_passed":5,"fail_failed":5}`)
	_, text, _ := cli(t, "run", s, "--calibration", cal)
	if !strings.Contains(text, "too weak to correct") || strings.Contains(text, "-> corrected") {
		t.Errorf("a coin-flip calibration must say it cannot correct:\n%s", text)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	_ = os.WriteFile(bad, []byte(`{"samples": 3}`), 0o644)
	if code, _, stderr := cli(t, "run", s, "--calibration", bad); code != exitUsage || !strings.Contains(stderr, "calibrate --json") {
		t.Errorf("a file that is not a calibration: exit %d, %s", code, stderr)
	}
}

func TestRunGroupByCluster(t *testing.T) {
	s := writeSuite(t, "s.yaml", `name: grouped
cluster: item.doc
group_by: item.topic
graders: [{type: exact_match}]
cases:
  - {id: a, expected: x, item: {doc: d1, topic: billing}, outputs: [x]}
  - {id: b, expected: x, item: {doc: d1, topic: billing}, outputs: [x]}
  - {id: c, expected: x, item: {doc: d2, topic: billing}, outputs: [y]}
  - {id: d, expected: x, item: {doc: d2, topic: refunds}, outputs: [y]}
  - {id: e, expected: x, item: {doc: d3, topic: refunds}, outputs: [x]}
  - {id: f, expected: x, item: {topic: refunds}, outputs: [x]}
`)
	out := filepath.Join(t.TempDir(), "r.json")
	_, text, stderr := cli(t, "run", s, "--out", out)
	for _, want := range []string{"by item.topic", "billing", "refunds", "clustered SE", "over 4 clusters"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q (%s):\n%s", want, stderr, text)
		}
	}
	b, _ := os.ReadFile(out)
	var doc struct {
		Groups struct {
			By     string
			Groups []struct {
				Group  string
				Totals struct{ Passed, Failed int }
			}
		}
		ClusteredSE *struct{ Clusters int } `json:"clustered_se"`
		Cases       []struct{ ID, Cluster, Group string }
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	g := doc.Groups
	if g.By != "item.topic" || len(g.Groups) != 2 || g.Groups[0].Group != "billing" || g.Groups[0].Totals.Passed != 2 || g.Groups[1].Totals.Failed != 1 {
		t.Errorf("groups %+v", g)
	}
	if doc.ClusteredSE == nil || doc.ClusteredSE.Clusters != 4 || doc.Cases[0].Cluster != "d1" || doc.Cases[5].Cluster != "" || doc.Cases[3].Group != "refunds" {
		t.Errorf("clusters: %s", b)
	}
}

func TestRunClusterBootstrap(t *testing.T) {
	var cases strings.Builder
	for i := range 40 {
		out := "x"
		if i%5 == 0 || i/4 == 3 {
			out = "y"
		}
		fmt.Fprintf(&cases, "  - {id: c%d, expected: x, item: {doc: d%d}, outputs: [%s]}\n", i, i/4, out)
	}
	s := writeSuite(t, "s.yaml", "name: boot\ncluster: item.doc\ncluster_bootstrap: {reps: 500, seed: 7}\ngraders: [{type: exact_match}]\ncases:\n"+cases.String())
	read := func() (se, lo, hi float64, reps int) {
		out := filepath.Join(t.TempDir(), "r.json")
		cli(t, "run", s, "--out", out)
		b, _ := os.ReadFile(out)
		var doc struct {
			ClusteredSE struct {
				SE        float64 `json:"clustered_se"`
				Bootstrap *struct {
					Low, High, SE float64
					Reps          int
				}
			} `json:"clustered_se"`
		}
		if err := json.Unmarshal(b, &doc); err != nil || doc.ClusteredSE.Bootstrap == nil {
			t.Fatalf("no bootstrap: %v %s", err, b)
		}
		bs := doc.ClusteredSE.Bootstrap
		return doc.ClusteredSE.SE, bs.Low, bs.High, bs.Reps
	}
	se, lo, hi, reps := read()
	se2, lo2, hi2, _ := read()
	if reps != 500 || lo != lo2 || hi != hi2 || se != se2 || lo >= hi {
		t.Errorf("bootstrap [%v, %v] x%d, then [%v, %v]: want the same interval from the same seed", lo, hi, reps, lo2, hi2)
	}
	bad := writeSuite(t, "s.yaml", "cluster_bootstrap: {reps: 5}\ncases: [{id: a, outputs: [x]}]")
	if code, _, stderr := cli(t, "run", bad); code != exitUsage || !strings.Contains(stderr, "cluster_bootstrap.reps") {
		t.Errorf("reps 5: exit %d, %s", code, stderr)
	}
}
