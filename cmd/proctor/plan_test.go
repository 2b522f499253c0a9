package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/metric"
)

func TestPlan(t *testing.T) {
	code, out, stderr := cli(t, "plan", "--baseline", "0.80", "--detect", "3pp", "--discordance", "0.10")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Connor's n for delta 0.03, discordance 0.10: 869.8, so 870
	// (metric.TestPairedSampleSizeMESS checks the formula against MESS).
	if !strings.HasPrefix(out, "cases needed: 870\n") || !strings.Contains(out, "10.0% of cases change verdict") {
		t.Errorf("plan:\n%s", out)
	}
	golden(t, []byte(out))
}

func TestPlanAssumptions(t *testing.T) {
	code, out, _ := cli(t, "plan", "--baseline", "80%", "--detect", "0.03", "--cluster-size", "5", "--icc", "0.1", "--json")
	var r planResult
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	// No discordance given: independence, at the worse of 77% and 83%.
	disc := metric.IndependentDiscordance(0.8, 0.77)
	n, _ := metric.PairedSampleSize(0.03, disc, 0.05, 0.8)
	if !r.Assumed || r.Discordance != disc || r.Pairs != n || r.DesignEffect != 1.4 || r.Cases < int(1.4*float64(n)) || r.Cases > int(1.4*float64(n))+1 {
		t.Errorf("plan %+v, want discordance %v, %d pairs times 1.4", r, disc, n)
	}
	if r.Clusters*5 < r.Cases {
		t.Errorf("%d clusters of 5 do not hold %d cases", r.Clusters, r.Cases)
	}
	_, text, _ := cli(t, "plan", "--baseline", "80%", "--detect", "0.03")
	if !strings.Contains(text, "assumed: the two runs' verdicts are independent") || !strings.Contains(text, "cases are independent of each other") {
		t.Errorf("plan does not say what it assumed:\n%s", text)
	}
}

func TestPlanErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--detect", "0.03"},
		{"--baseline", "0.8"},
		{"--baseline", "80", "--detect", "0.03"},
		{"--baseline", "0.8", "--detect", "x"},
		{"--baseline", "0.8", "--detect", "0.03", "--discordance", "0.01"},
		{"--baseline", "0.8", "--detect", "0.03", "--cluster-size", "5"},
		{"--baseline", "0.8", "--detect", "0.03", "--cluster-size", "5", "--icc", "2"},
		{"--baseline", "0.8", "--detect", "0.03", "--power", "1"},
		{"--baseline", "0.8", "--detect", "0.03", "extra"},
	} {
		if code, _, stderr := cli(t, append([]string{"plan"}, args...)...); code != exitUsage || !strings.Contains(stderr, "proctor plan:") {
			t.Errorf("plan %v: exit %d, %s", args, code, stderr)
		}
	}
}

func TestRunMinPassGate(t *testing.T) {
	met := writeSuite(t, "s.yaml", `name: gate
min_pass: 2
graders: [{type: exact_match}]
cases:
  - {id: a, expected: x, outputs: [x, y, x]}
  - {id: b, expected: x, stop_early: true, outputs: [x, x, y]}
`)
	code, out, stderr := cli(t, "run", met)
	if code != exitOK {
		t.Errorf("flaky case that met min_pass: exit %d, want 0 (%s)", code, stderr)
	}
	for _, want := range []string{"2 of 3, min 2", "flaky 1", "1 of 1 flaky case passed the gate with min_pass", "stop_early saved 1 attempt"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	unmet := writeSuite(t, "s.yaml", `name: gate
min_pass: 2
graders: [{type: exact_match}]
cases:
  - {id: a, expected: x, outputs: [x, y, y]}
`)
	if code, _, _ := cli(t, "run", unmet); code != exitFailed {
		t.Errorf("flaky case below min_pass: exit %d, want 1", code)
	}
	if code, _, _ := cli(t, "run", unmet, "--allow-flaky"); code != exitOK {
		t.Errorf("--allow-flaky: exit %d, want 0", code)
	}
}
