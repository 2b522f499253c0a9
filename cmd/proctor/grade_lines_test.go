package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// gradeResults runs `proctor grade` on input and decodes every result line.
func gradeResults(t *testing.T, input string, args ...string) (int, []map[string]any, string) {
	t.Helper()
	code, out, errs := runCLI(t, input, append([]string{"grade"}, args...)...)
	var res []map[string]any
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("result line %q: %v", l, err)
		}
		res = append(res, m)
	}
	return code, res, errs
}

// Result N is input line N, across batches, whatever the line holds.
func TestGradeLineNumbers(t *testing.T) {
	var in strings.Builder
	want := map[int]string{} // line -> status or reason
	for i := 1; i <= 700; i++ {
		switch {
		case i%97 == 0:
			in.WriteString("   \r\n")
			want[i] = "blank line"
		case i%101 == 0:
			in.WriteString("{broken\n")
			want[i] = "malformed"
		case i%103 == 0:
			fmt.Fprintf(&in, `{"id":"L%d","output":"%s"}`+"\n", i, strings.Repeat("x", 300))
			want[i] = "longer than"
		default:
			fmt.Fprintf(&in, `{"id":"L%d","output":"Paris"}`+"\r\n", i)
			want[i] = "passed"
		}
	}
	in.WriteString("  ") // a last blank line without its newline
	want[701] = "blank line"
	code, res, _ := gradeResults(t, in.String(), "--max-line", "200", "--concurrency", "3",
		"--grader", `{"type":"contains","value":"Paris"}`)
	if code != exitOK {
		t.Errorf("exit %d, want %d (blank, malformed and long lines do not fail)", code, exitOK)
	}
	if len(res) != len(want) {
		t.Fatalf("%d results for %d input lines", len(res), len(want))
	}
	for i, r := range res {
		n := i + 1
		if r["line"] != float64(n) {
			t.Fatalf("result %d has line %v", n, r["line"])
		}
		w := want[n]
		if w == "passed" {
			if r["status"] != "passed" || r["id"] != fmt.Sprintf("L%d", n) {
				t.Errorf("line %d: %v", n, r)
			}
			continue
		}
		if r["status"] != "not_graded" || !strings.Contains(r["reason"].(string), w) {
			t.Errorf("line %d: %v, want not_graded with %q", n, r, w)
		}
	}
}

// Blank lines are not samples: they neither fail --strict nor count as
// graded.
func TestGradeBlankLinesExit(t *testing.T) {
	grader := []string{"--grader", `{"type":"contains","value":"Paris"}`}
	code, res, _ := gradeResults(t, "\n"+`{"output":"Paris"}`+"\n\n", append([]string{"--strict"}, grader...)...)
	if code != exitOK || len(res) != 3 {
		t.Errorf("exit %d with %d results, want %d with 3", code, len(res), exitOK)
	}
	code, res, errs := gradeResults(t, "\n \n", grader...)
	if code != exitNoneGraded || len(res) != 2 || !strings.Contains(errs, "no sample") {
		t.Errorf("only blank lines: exit %d, %d results, stderr %q", code, len(res), errs)
	}
	code, res, _ = gradeResults(t, "", grader...)
	if code != exitNoneGraded || len(res) != 0 {
		t.Errorf("empty input: exit %d, %d results", code, len(res))
	}
}
