// Command quickstart grades a small support-bot suite with proctor and
// prints the report as a table: each case's verdict (passed, failed, flaky
// or not graded), the pass rate with its denominator, and why each case
// that did not pass came out as it did.
//
//	go run ./examples/quickstart                  # the bundled suite
//	go run ./examples/quickstart path/to/suite.json
//
// The suite (testdata/suite.json) holds recorded outputs, so nothing calls
// a model. Its checks are grader specs compiled with [proctor.Compiler], so
// any built-in type can be added to a case by editing the file; for
// instance, where the json_schema grader is available, the ticket cases
// can also check their output against testdata/schemas/ticket.json with
//
//	{"type": "json_schema", "schema_file": "schemas/ticket.json", "required": true}
//
// because spec files are read from the suite's folder ([proctor.WithFiles]).
package main

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/proctorhq/proctor"
)

//go:embed testdata
var bundled embed.FS

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(2)
	}
}

// suiteFile is the quickstart's suite format: suite-level grader specs and
// cases with recorded outputs and their own checks.
type suiteFile struct {
	Name    string            `json:"name"`
	Graders json.RawMessage   `json:"graders"`
	Cases   []json.RawMessage `json:"cases"`
}

// caseFile is what a case adds to a sample (id, input, expected...).
type caseFile struct {
	ID       string          `json:"id"`
	Attempts int             `json:"attempts"`
	Outputs  []string        `json:"outputs"`
	Checks   json.RawMessage `json:"checks"`
}

func run(ctx context.Context, args []string, w io.Writer) error {
	src, files, err := openSuite(args)
	if err != nil {
		return err
	}
	var sf suiteFile
	if err := json.Unmarshal(src, &sf); err != nil {
		return fmt.Errorf("suite: %w", err)
	}
	comp := proctor.NewCompiler(proctor.WithFiles(files))
	comp.Register("ticket_fields", ticketFieldsSpec)
	var suiteChecks []proctor.Check
	if len(sf.Graders) > 0 {
		if suiteChecks, err = comp.CompileList(sf.Graders); err != nil {
			return fmt.Errorf("suite graders: %w", err)
		}
	}
	cases := make([]proctor.Case, 0, len(sf.Cases))
	for i, raw := range sf.Cases {
		c, err := loadCase(comp, raw)
		if err != nil {
			return fmt.Errorf("case %d: %w", i, err)
		}
		cases = append(cases, c)
	}
	runner := proctor.NewRunner(proctor.WithChecks(suiteChecks...), proctor.WithConcurrency(4))
	rep, err := runner.Run(ctx, cases)
	if err != nil {
		return err
	}
	rep.Suite = sf.Name
	return printReport(w, rep)
}

// openSuite returns the suite named on the command line, or the bundled
// one, with the folder its spec files are read from.
func openSuite(args []string) ([]byte, fs.FS, error) {
	if len(args) > 0 {
		b, err := os.ReadFile(args[0])
		return b, os.DirFS(filepath.Dir(args[0])), err
	}
	b, err := bundled.ReadFile("testdata/suite.json")
	if err != nil {
		return nil, nil, err
	}
	sub, err := fs.Sub(bundled, "testdata")
	return b, sub, err
}

func loadCase(comp *proctor.Compiler, raw json.RawMessage) (proctor.Case, error) {
	var cf caseFile
	if err := json.Unmarshal(raw, &cf); err != nil {
		return proctor.Case{}, err
	}
	// The case object is also a sample: input, expected (any JSON value),
	// references, context, item.
	var base proctor.Sample
	if err := json.Unmarshal(raw, &base); err != nil {
		return proctor.Case{}, err
	}
	c := proctor.Case{ID: cf.ID, Sample: base, Attempts: cf.Attempts}
	for _, o := range cf.Outputs {
		c.Outputs = append(c.Outputs, proctor.Sample{Output: o})
	}
	if len(cf.Checks) > 0 {
		checks, err := comp.CompileList(cf.Checks)
		if err != nil {
			return proctor.Case{}, fmt.Errorf("%s: %w", cf.ID, err)
		}
		c.Checks = checks
	}
	return c, nil
}

// printReport writes the report as a table, then the totals and the pass
// rate with its denominator.
func printReport(w io.Writer, rep *proctor.Report) error {
	fmt.Fprintf(w, "proctor quickstart: suite %s, %d cases\n\n", rep.Suite, len(rep.Cases))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CASE\tVERDICT\tATTEMPTS\tWHY")
	for _, c := range rep.Cases {
		passed := 0
		for _, a := range c.Attempts {
			if a.Verdict == proctor.StatusPassed {
				passed++
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d passed\t%s\n", c.ID, verdictText(c.Verdict), passed, len(c.Attempts), why(c))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	t := rep.Totals
	fmt.Fprintf(w, "\n%d passed, %d failed, %d flaky, %d not graded\n", t.Passed, t.Failed, t.Flaky, t.NotGraded)
	if rate, den, ok := rep.PassRate(); ok {
		fmt.Fprintf(w, "pass rate: %.1f%% (%d of %d cases with a verdict; flaky and not graded cases are counted on their own)\n",
			100*rate, t.Passed, den)
	} else {
		fmt.Fprintln(w, "pass rate: not available (no case passed or failed)")
	}
	for _, cv := range rep.Caveats {
		fmt.Fprintln(w, "caveat:", cv)
	}
	return nil
}

// verdictText spells a verdict for people: "not graded" with a space.
func verdictText(s proctor.Status) string {
	return strings.ReplaceAll(s.String(), "_", " ")
}

// why explains a case that did not pass: the first grade that failed or
// was not graded, and the checks a required failure skipped.
func why(c proctor.CaseResult) string {
	if c.Verdict == proctor.StatusPassed {
		return ""
	}
	var parts []string
	for i, a := range c.Attempts {
		for _, g := range a.Grades {
			if g.Status == proctor.StatusPassed {
				continue
			}
			p := fmt.Sprintf("%s %s: %s", g.Grader, verdictText(g.Status), g.Reason)
			if len(c.Attempts) > 1 {
				p = fmt.Sprintf("attempt %d: %s", i+1, p)
			}
			parts = append(parts, p)
			break
		}
		if len(a.Skipped) > 0 {
			parts = append(parts, "skipped "+strings.Join(a.Skipped, ", "))
		}
	}
	return strings.Join(parts, "; ")
}

// ticketFields is a custom grader, registered as the spec type
// "ticket_fields": it reads the ticket JSON from the output (prose and
// Markdown fences around it are ignored) and compares order_id, product
// and urgent with the case's expected ticket. The score is the share of
// fields that match; it passes when all three do.
type ticketFields struct{ name string }

type ticket struct {
	OrderID string `json:"order_id"`
	Product string `json:"product"`
	Urgent  bool   `json:"urgent"`
}

func ticketFieldsSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	return ticketFields{name: o.Name()}, o.Err()
}

func (g ticketFields) Name() string { return g.name }

func (g ticketFields) Grade(_ context.Context, s *proctor.Sample) proctor.Grade {
	want, ok := s.ExpectedText()
	if !ok {
		return proctor.NotGraded("no expected ticket on the case")
	}
	var exp ticket
	if err := json.Unmarshal([]byte(want), &exp); err != nil {
		return proctor.ErrorGrade("expected ticket is not JSON", err)
	}
	start, end := strings.IndexByte(s.Output, '{'), strings.LastIndexByte(s.Output, '}')
	if start < 0 || end < start {
		return proctor.Fail("output holds no JSON object")
	}
	var got ticket
	if err := json.Unmarshal([]byte(s.Output[start:end+1]), &got); err != nil {
		return proctor.Failf("output JSON does not decode as a ticket: %v", err)
	}
	var differ []string
	if got.OrderID != exp.OrderID {
		differ = append(differ, "order_id")
	}
	if got.Product != exp.Product {
		differ = append(differ, "product")
	}
	if got.Urgent != exp.Urgent {
		differ = append(differ, "urgent")
	}
	if len(differ) == 0 {
		return proctor.Pass("").WithScore(1)
	}
	return proctor.Failf("fields differ: %s", strings.Join(differ, ", ")).WithScore(float64(3-len(differ)) / 3)
}
