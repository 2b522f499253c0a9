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

// TestMergeKeepsRunFigures: report merge of a run's shards records the
// group breakdown, the clustered SE and the corrected pass rates the whole
// run recorded.
func TestMergeKeepsRunFigures(t *testing.T) {
	dir := t.TempDir()
	var cases strings.Builder
	for i := range 30 {
		out := "yes"
		if i%4 == 0 {
			out = "no"
		}
		fmt.Fprintf(&cases, "  - {id: c%d, expected: \"yes\", tags: [t%d], item: {doc: d%d}, outputs: [%q]}\n", i, i%3, i/3, out)
	}
	suite := filepath.Join(dir, "s.yaml")
	body := "name: figures\ncalibration: cal.json\ncluster: item.doc\ngroup_by: tags\n" +
		"graders: [{type: exact_match, name: helpful}]\ncases:\n" + cases.String()
	cal := `{"grader":"helpful","confusion":{"pass_passed":45,"pass_failed":5,"fail_passed":10,"fail_failed":90}}`
	if err := os.WriteFile(suite, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cal.json"), []byte(cal), 0o644); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole.json")
	cli(t, "run", suite, "--out", whole)
	var shards []string
	for i := 1; i <= 3; i++ {
		out := filepath.Join(dir, fmt.Sprintf("s%d.json", i))
		cli(t, "run", suite, "--shard", fmt.Sprintf("%d/3", i), "--out", out)
		shards = append(shards, out)
	}
	code, merged, stderr := cli(t, append([]string{"report", "merge"}, shards...)...)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	figures := func(data []byte) map[string]json.RawMessage {
		var all map[string]json.RawMessage
		if err := json.Unmarshal(data, &all); err != nil {
			t.Fatal(err)
		}
		return map[string]json.RawMessage{"groups": all["groups"], "clustered_se": all["clustered_se"], "judge_corrected": all["judge_corrected"]}
	}
	raw, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	want, got := figures(raw), figures([]byte(merged))
	for k := range want {
		if len(want[k]) == 0 {
			t.Fatalf("the whole run recorded no %s", k)
		}
		var w, g any
		json.Unmarshal(want[k], &w)
		json.Unmarshal(got[k], &g)
		if d := cmp.Diff(w, g); d != "" {
			t.Errorf("merged %s differs from the whole run's (-whole +merged):\n%s", k, d)
		}
	}
}
