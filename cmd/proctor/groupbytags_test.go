package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunGroupByTags(t *testing.T) {
	s := writeSuite(t, "s.yaml", `name: tagged
cluster: item.doc
group_by: tags
graders: [{type: exact_match}]
cases:
  - {id: a, expected: x, tags: [billing, refunds], item: {doc: d1}, outputs: [x]}
  - {id: b, expected: x, tags: [billing], item: {doc: d1}, outputs: [y]}
  - {id: c, expected: x, tags: [billing], item: {doc: d2}, outputs: [x]}
  - {id: d, expected: x, item: {doc: d3}, outputs: [x]}
`)
	dir := t.TempDir()
	out, junit, md := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.md")
	_, text, stderr := cli(t, "run", s, "--out", out, "--junit", junit, "--markdown", md)
	for _, want := range []string{"by tags", "(no tag)  passed 1", "billing   passed 2 | failed 1", "pass rate 66.7% (2 of 3), 95% CI 20.8%-93.9%, clustered SE", "refunds   passed 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q (%s):\n%s", want, stderr, text)
		}
	}
	b, _ := os.ReadFile(out)
	var doc struct {
		Groups struct {
			By     string
			Groups []struct{ Group string }
		}
		Cases []struct {
			ID, Group string
			Tags      []string
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Groups.By != "tags" || len(doc.Groups.Groups) != 3 || doc.Cases[0].Group != "" || len(doc.Cases[0].Tags) != 2 || doc.Cases[3].Tags != nil {
		t.Errorf("JSON: %s", b)
	}
	x, _ := os.ReadFile(junit)
	m, _ := os.ReadFile(md)
	if !strings.Contains(string(x), `name="group.billing.pass_rate" value="0.6667"`) || !strings.Contains(string(m), "#### By tags") {
		t.Errorf("JUnit and Markdown show the tag groups:\n%s\n%s", x, m)
	}
	bad := writeSuite(t, "bad.yaml", "group_by: item.topik\ncases: [{id: a, item: {topic: x}, outputs: [x]}]\n")
	if code, _, stderr := cli(t, "run", bad); code != exitUsage || !strings.Contains(stderr, `did you mean "item.topic"?`) {
		t.Errorf("a field no case has: exit %d, %s", code, stderr)
	}
}
