package suite_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/suite"
)

func loadText(t *testing.T, text string) (*suite.Suite, error) {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return suite.Load(p, suite.Options{})
}

func TestMinPassStopEarlyCluster(t *testing.T) {
	s, err := loadText(t, `name: gate
min_pass: 2
cluster: item.doc
graders: [{type: exact_match}]
cases:
  - {id: a, expected: x, item: {doc: d1}, outputs: [x, y, x]}
  - {id: b, expected: x, item: {doc: d1}, outputs: [x, y, y]}
  - {id: c, expected: x, item: {doc: 7}, stop_early: true, outputs: [x, x, y]}
  - {id: d, expected: x, min_pass: 3, stop_early: true, outputs: [y, x, x]}
`)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := proctor.NewRunner(s.RunnerOptions()...).Run(context.Background(), collect(t, s))
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		verdict       proctor.Status
		gate          bool
		attempts      int
		saved         int
		cluster       string
		minPass, pass int
	}
	wants := map[string]want{
		"a": {proctor.StatusFlaky, true, 3, 0, "d1", 2, 2},
		"b": {proctor.StatusFlaky, false, 3, 0, "d1", 2, 1},
		"c": {proctor.StatusPassed, true, 2, 1, "7", 2, 2}, // decided after two passes
		"d": {proctor.StatusFailed, false, 1, 2, "", 3, 0}, // one failure: 3 of 3 is out of reach
	}
	for _, c := range r.Cases {
		w := wants[c.ID]
		got := want{c.Verdict, c.GatePassed(), len(c.Attempts), c.AttemptsSaved, c.Cluster, c.MinPass, c.PassedAttempts()}
		if got != w {
			t.Errorf("case %s: got %+v, want %+v", c.ID, got, w)
		}
	}
	if r.Totals.Flaky != 2 || r.Totals.FlakyGatePassed != 1 || r.Totals.AttemptsSaved != 3 || r.Totals.Passed != 1 {
		t.Errorf("totals %+v: flaky stays flaky, one met min_pass, 3 attempts saved", r.Totals)
	}
}

func TestGateKeyErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"min_pass: 0\ncases: [{id: a, outputs: [x]}]", "min_pass"},
		{"min_pass: 3\ncases: [{id: a, outputs: [x, y]}]", "more than the case's 2 attempts"},
		{"stop_early: yes please\ncases: [{id: a, outputs: [x]}]", "stop_early"},
		{"cluster: ''\ncases: [{id: a, outputs: [x]}]", "cluster"},
		{"cases: [{id: a, min_pass: 2, outputs: [x]}]", "min_pass"},
	} {
		_, err := loadText(t, tt.text)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err = %v, want one naming %q", tt.text, err, tt.want)
		}
	}
}
