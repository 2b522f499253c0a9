package suite_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/suite"
)

func TestTagsCarried(t *testing.T) {
	s, err := loadText(t, `name: tagged
group_by: tags
graders: [{type: exact_match}]
cases:
  - {id: a, expected: x, tags: [billing, refunds], outputs: [x]}
  - {id: b, expected: x, tags: [billing], outputs: [y]}
  - {id: c, expected: x, outputs: [x]}
  - {id: d, expected: x, tags: [], outputs: [x]}
`)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.GroupBy != "tags" {
		t.Errorf("GroupBy = %q", s.GroupBy)
	}
	cs := collect(t, s)
	got := [][]string{cs[0].Tags, cs[1].Tags, cs[2].Tags, cs[3].Tags}
	want := [][]string{{"billing", "refunds"}, {"billing"}, nil, nil}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("tags (-want +got):\n%s", d)
	}
	r, err := proctor.NewRunner(s.RunnerOptions()...).Run(context.Background(), cs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Cases[0].Tags, []string{"billing", "refunds"}) || r.Cases[0].Group != "" || r.Cases[2].Tags != nil {
		t.Errorf("the results carry the tags and no group: %+v", r.Cases)
	}
}

func TestTagsJSONL(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	text := `{"id": "a", "outputs": ["x"], "tags": ["slow"]}
{"id": "b", "outputs": ["x"]}
`
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cs := collect(t, load(t, p, suite.Options{}))
	if len(cs) != 2 || !slices.Equal(cs[0].Tags, []string{"slow"}) || cs[1].Tags != nil {
		t.Errorf("jsonl tags: %+v", cs)
	}
	if err := os.WriteFile(p, []byte(`{"id": "a", "outputs": ["x"], "tags": "slow"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := suite.Load(p, suite.Options{}); err == nil || !strings.Contains(err.Error(), "tags") {
		t.Errorf("a tag that is not a list: err = %v", err)
	}
}

func TestGroupByFieldErrors(t *testing.T) {
	const cases = "\ncases:\n  - {id: a, item: {topic: billing, doc: d1}, outputs: [x]}\n  - {id: b, item: {topic: refunds}, outputs: [x]}\n"
	for _, tt := range []struct{ text, want string }{
		{"group_by: item.topik" + cases, `group_by: no case has the item field "topik"; did you mean "item.topic"?`},
		{"group_by: topik" + cases, `did you mean "item.topic"?`},
		{"group_by: splt" + cases, `did you mean "split"?`},
		{"group_by: colour" + cases, `no case has the item field "colour" (want a case key: id, split, severity, input, tags; or an item field: item.NAME)`},
		{"cluster: item.docs" + cases, `cluster: no case has the item field "docs"; did you mean "item.doc"?`},
		{"cluster: tags" + cases, "tags cannot name a cluster"},
		{"group_by: tags" + cases, "no case has tags: give cases tags"},
		{"group_by: tags\ncases:\n  - {id: a, item: {tags: [x]}, outputs: [x]}\n", "write item.tags"},
		{"cases: [{id: a, tags: [x, x], outputs: [x]}]", `tag "x" is given twice`},
		{"cases: [{id: a, tags: [' '], outputs: [x]}]", "a tag must not be empty"},
		{"cases: [{id: a, tags: [1], outputs: [x]}]", "tags[0]: want a string"},
		{"cases: [{id: a, tags: x, outputs: [x]}]", "tags: want a list of strings"},
	} {
		s, err := loadText(t, tt.text)
		if err == nil {
			s.Close()
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err = %v, want one with %q", tt.text, err, tt.want)
		}
	}
}

func TestGroupByFieldsAccepted(t *testing.T) {
	// A field some case has is accepted, even when others lack it; the
	// case keys need no case to have them.
	const cases = "\ncases:\n  - {id: a, item: {topic: billing}, tags: [t], outputs: [x]}\n  - {id: b, outputs: [x]}\n"
	for _, head := range []string{"group_by: item.topic", "group_by: topic", "group_by: tags", "group_by: split", "group_by: severity",
		"group_by: id", "group_by: input", "cluster: item.topic\ngroup_by: tags"} {
		s, err := loadText(t, head+cases)
		if err != nil {
			t.Errorf("%q: %v", head, err)
			continue
		}
		s.Close()
	}
	// A suite of no cases has nothing to check against.
	if s, err := loadText(t, "group_by: item.topic\ncases: []\n"); err != nil {
		t.Errorf("no cases: %v", err)
	} else {
		s.Close()
	}
}
