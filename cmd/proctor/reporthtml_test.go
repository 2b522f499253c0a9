package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTMLFlags runs the quickstart with --html and --out, renders the
// JSON report with report html and compares it with itself with --html.
func TestHTMLFlags(t *testing.T) {
	dir := t.TempDir()
	page, rep := filepath.Join(dir, "report.html"), filepath.Join(dir, "report.json")
	if code, _, errs := cli(t, "run", quickstart, "--html", page, "--out", rep, "--progress", "off"); code != exitFailed {
		t.Fatalf("run: exit %d, want %d (the quickstart has failed cases): %s", code, exitFailed, errs)
	}
	fromRun, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`<script type="application/json" id="proctor-data">`, `"id":"escalation"`, `"kind":"report"`, "</html>"} {
		if !strings.Contains(string(fromRun), w) {
			t.Errorf("run --html page lacks %q", w)
		}
	}
	for _, held := range []string{"Order A-18", "Where is order A-17?", "Parcels are sometimes late", "My parcel is a week late."} {
		if strings.Contains(string(fromRun), held) {
			t.Errorf("run --html page shows the holdout text %q", held)
		}
	}
	// Other cases' inputs and outputs are recorded for the case view.
	for _, shown := range []string{"How long do I have to return a jacket?", "within 30 days of delivery for a full refund"} {
		if !strings.Contains(string(fromRun), shown) {
			t.Errorf("run --html page lacks the recorded text %q", shown)
		}
	}
	page2 := filepath.Join(dir, "again.html")
	if code, _, errs := cli(t, "report", "html", "--out", page2, rep); code != exitOK {
		t.Fatalf("report html: exit %d: %s", code, errs)
	}
	again, err := os.ReadFile(page2)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(again, []byte(`"id":"escalation"`)) {
		t.Error("report html page lacks the quickstart's cases")
	}
	code, stdout, _ := cli(t, "report", "html", rep)
	if code != exitOK || !strings.HasPrefix(stdout, "<!DOCTYPE html>") {
		t.Errorf("report html to standard output: exit %d, %.40q", code, stdout)
	}
	diff := filepath.Join(dir, "diff.html")
	if code, _, errs := cli(t, "compare", "--html", diff, rep, rep); code != exitOK {
		t.Fatalf("compare --html: exit %d: %s", code, errs)
	}
	d, err := os.ReadFile(diff)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(d, []byte(`"kind":"compare"`)) {
		t.Error("compare --html page is not a comparison")
	}
	if code, _, errs := cli(t, "report", "html", page); code != exitUsage || !strings.Contains(errs, "not a proctor JSON report") {
		t.Errorf("report html of an HTML file: exit %d, %q", code, errs)
	}
	if code, _, errs := cli(t, "report", "html", rep, rep); code != exitUsage || !strings.Contains(errs, rep+" and "+rep) {
		t.Errorf("report html of one report twice: exit %d, %q; want it refused naming the files", code, errs)
	}
	if code, _, _ := cli(t, "report", "html"); code != exitUsage {
		t.Errorf("report html with no file: exit %d", code)
	}
}
