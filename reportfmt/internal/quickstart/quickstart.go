// Package quickstart runs the quickstart suite for the tests of package
// reportfmt and its browser tests, as proctor run --html does: inputs and
// outputs recorded, holdout ones redacted as the suite's redact_splits asks.
package quickstart

import (
	"context"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/suite"
)

// Run loads the suite at path (examples/quickstart/suite.yaml, relative to
// the calling test's directory) and returns its report, failing t on any
// error.
func Run(t testing.TB, path string) *proctor.Report {
	t.Helper()
	s, err := suite.Load(path, suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var cases []proctor.Case
	for c, err := range s.Cases() {
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	rep, err := proctor.NewRunner(append([]proctor.RunnerOption{proctor.WithRecordOutputs()}, s.RunnerOptions()...)...).Run(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
