// Command quickstart runs the quickstart suite from Go, as
//
//	go run ./cmd/proctor run examples/quickstart/suite.yaml
//
// runs it from the command line, and prints the same report:
//
//	go run ./examples/quickstart                  # examples/quickstart/suite.yaml
//	go run ./examples/quickstart path/to/suite.yaml
//
// suite.Load reads the suite: its cases, recorded outputs and checks
// (grader specs, compiled by proctor's Compiler), and the config file its
// config key names, offline-judge.yaml: a scripted judge with canned
// replies, not a model, so nothing calls a model or the network. The
// suite's RunnerOptions give a proctor.Runner its name, judges and
// redact_splits. The report is reportfmt's terminal table, the one proctor
// run prints. The exit status is 1 when a case failed or was flaky, 2 when
// the suite could not be loaded, 0 otherwise.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
	"github.com/proctorhq/proctor/suite"
)

func main() {
	failed, err := run(context.Background(), os.Args[1:], os.Stdout)
	switch {
	case err != nil:
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(2)
	case failed:
		os.Exit(1)
	}
}

// defaultSuite finds suite.yaml from the repository root (go run
// ./examples/quickstart) or from this folder (go test).
func defaultSuite() string {
	for _, p := range []string{"examples/quickstart/suite.yaml", "suite.yaml"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return "examples/quickstart/suite.yaml"
}

// run grades the suite at args[0] (default: the quickstart's), writes the
// report to w and reports whether a case failed or was flaky.
func run(ctx context.Context, args []string, w io.Writer) (failed bool, err error) {
	path := defaultSuite()
	switch len(args) {
	case 0:
	case 1:
		path = args[0]
	default:
		return false, errors.New("usage: quickstart [SUITE.yaml]")
	}
	s, err := suite.Load(path, suite.Options{})
	if err != nil {
		return false, err
	}
	defer s.Close()
	var cases []proctor.Case
	for c, err := range s.Cases() {
		if err != nil {
			return false, err
		}
		cases = append(cases, c)
	}
	rep, err := proctor.NewRunner(s.RunnerOptions()...).Run(ctx, cases)
	if err != nil {
		return false, err
	}
	if err := reportfmt.WriteText(w, reportfmt.Summarize(rep), reportfmt.TextOptions{}); err != nil {
		return false, err
	}
	return rep.Totals.Failed > 0 || rep.Totals.Flaky > 0, nil
}
