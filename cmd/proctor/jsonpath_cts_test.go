package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestGradeJSONPathCTS runs the JSONPath Compliance Test Suite (the
// library's testdata/jsonpath-cts.json, see its SOURCE.md) through
// `proctor grade`, one line per case with the case's own grader: a valid
// selector's spec (exists false for an empty node list, else one_of its
// allowed node lists, and the node itself when there is one) passes, and an invalid selector is refused as a
// spec error on "path".
func TestGradeJSONPathCTS(t *testing.T) {
	b, err := os.ReadFile("../../testdata/jsonpath-cts.json")
	if err != nil {
		t.Fatal(err)
	}
	var suite struct {
		Tests []struct {
			Name     string            `json:"name"`
			Selector string            `json:"selector"`
			Document json.RawMessage   `json:"document"`
			Result   []json.RawMessage `json:"result"`
			Results  [][]json.RawMessage
			Invalid  bool `json:"invalid_selector"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(b, &suite); err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	for i, c := range suite.Tests {
		grader := map[string]any{"type": "json_path", "path": c.Selector}
		alts := c.Results
		if alts == nil {
			alts = [][]json.RawMessage{c.Result}
		}
		switch {
		case c.Invalid:
			grader["exists"] = true
		case len(alts[0]) == 0:
			grader["exists"] = false
		case len(alts[0]) == 1:
			// A singular query compares its one node, others their list.
			grader["one_of"] = []any{alts[0], alts[0][0]}
		default:
			grader["one_of"] = alts
		}
		line, err := json.Marshal(map[string]any{"id": fmt.Sprint(i), "output": string(c.Document), "grader": grader})
		if err != nil {
			t.Fatal(err)
		}
		in.Write(line)
		in.WriteByte('\n')
	}
	_, stdout, stderr := runCLI(t, in.String(), "grade")
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	n, valid, invalid := 0, 0, 0
	for sc.Scan() {
		var got struct {
			ID     string `json:"id"`
			Status string `json:"status"`
			Reason string `json:"reason"`
		}
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		var i int
		fmt.Sscan(got.ID, &i)
		c := suite.Tests[i]
		n++
		switch {
		case c.Invalid && got.Status == "not_graded" && strings.Contains(got.Reason, `option "path"`):
			invalid++
		case !c.Invalid && got.Status == "passed":
			valid++
		default:
			t.Errorf("%s: %q: got %s (%s)", c.Name, c.Selector, got.Status, got.Reason)
		}
	}
	if n != len(suite.Tests) {
		t.Fatalf("%d result lines for %d cases; stderr: %s", n, len(suite.Tests), stderr)
	}
	t.Logf("through proctor grade: %d valid selectors right, %d invalid refused, of %d cases", valid, invalid, n)
}
