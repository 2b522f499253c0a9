package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportShowKeepsRunFigures: report show and report html of a run's
// report give the figures the run printed: the calibrated check's
// corrected pass rate, the clustered SE and design effect with the
// cluster bootstrap, and the group_by breakdown.
func TestReportShowKeepsRunFigures(t *testing.T) {
	var cases strings.Builder
	for i := range 30 {
		out := "yes"
		if i%4 == 0 || i/6 == 2 {
			out = "no"
		}
		fmt.Fprintf(&cases, "  - {id: c%d, expected: \"yes\", item: {doc: d%d, topic: t%d}, outputs: [%q]}\n", i, i/3, i%3, out)
	}
	dir := t.TempDir()
	suite := filepath.Join(dir, "s.yaml")
	body := "name: figures\ncalibration: cal.json\ncluster: item.doc\ngroup_by: item.topic\ncluster_bootstrap: {reps: 200, seed: 3}\n" +
		"graders: [{type: exact_match, name: helpful}]\ncases:\n" + cases.String()
	if err := os.WriteFile(suite, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cal := `{"grader":"helpful","confusion":{"pass_passed":45,"pass_failed":5,"fail_passed":10,"fail_failed":90}}`
	if err := os.WriteFile(filepath.Join(dir, "cal.json"), []byte(cal), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.json")
	_, ran, stderr := cli(t, "run", suite, "--out", out)
	lines := func(text string) []string {
		var keep []string
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, "corrected") || strings.Contains(l, "clustered SE") || strings.Contains(l, "t0") ||
				strings.Contains(l, "t1") || strings.Contains(l, "t2") || strings.Contains(l, "item.topic") {
				keep = append(keep, l)
			}
		}
		return keep
	}
	want := lines(ran)
	if len(want) < 5 || !strings.Contains(ran, "-> corrected") || !strings.Contains(ran, "cluster bootstrap") {
		t.Fatalf("the run printed too little to compare (%s):\n%s", stderr, ran)
	}
	_, shown, _ := cli(t, "report", "show", out)
	if got := lines(shown); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("report show:\n%s\nwant the run's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	page := filepath.Join(dir, "p.html")
	cli(t, "report", "html", "--out", page, out)
	html, _ := os.ReadFile(page)
	for _, w := range []string{`"judge_corrected":[{"grader":"helpful"`, `"group_by":"item.topic"`, `"bootstrap":{`, `"design_effect":`} {
		if !strings.Contains(string(html), w) {
			t.Errorf("report html lacks %s", w)
		}
	}
}

// TestReportShowKeepsTagGroups: a report grouped by tags shows the same
// tag lines when report show reads it back as the run printed, though most
// of its cases (passed, unlisted) are decoded slim.
func TestReportShowKeepsTagGroups(t *testing.T) {
	var cases strings.Builder
	for i := range 60 {
		out, tags := "yes", "[]"
		if i%7 == 0 {
			out = "no"
		}
		switch i % 3 {
		case 0:
			tags = "[tagalpha]"
		case 1:
			tags = "[tagalpha, tagbeta]"
		}
		fmt.Fprintf(&cases, "  - {id: c%d, expected: \"yes\", tags: %s, outputs: [%q]}\n", i, tags, out)
	}
	dir := t.TempDir()
	suite := filepath.Join(dir, "s.yaml")
	body := "name: tagged\ngroup_by: tags\ngraders: [{type: exact_match}]\ncases:\n" + cases.String()
	if err := os.WriteFile(suite, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.json")
	_, ran, stderr := cli(t, "run", suite, "--out", out)
	lines := func(text string) []string {
		var keep []string
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, "tagalpha") || strings.Contains(l, "tagbeta") || strings.Contains(l, "(no tag)") {
				keep = append(keep, l)
			}
		}
		return keep
	}
	want := lines(ran)
	if len(want) != 3 {
		t.Fatalf("want the run to print three tag lines (%s):\n%s", stderr, ran)
	}
	_, shown, _ := cli(t, "report", "show", out)
	if got := lines(shown); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("report show:\n%s\nwant the run's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
