// Command proctor grades LLM outputs from the command line: `proctor grade`
// reads JSONL samples and writes JSONL results (docs/formats.md).
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/proctorhq/proctor/internal/termsafe"
)

// Exit statuses of every command (docs/exit-codes.md).
const (
	exitOK         = 0 // something was graded and nothing failed
	exitFailed     = 1 // something failed (with --strict: or was not graded)
	exitUsage      = 2 // usage, spec, config or input error
	exitNoneGraded = 3 // nothing was graded: no sample or case passed or failed
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first signal, a second one ends the process at once,
		// even while a read from standard input is blocked.
		<-ctx.Done()
		stop()
	}()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const usage = `usage: proctor COMMAND [flags] [arguments]

commands:
  grade         grade JSONL samples with a grader spec, writing JSONL results
  run           run a suite file and write reports
  report merge  join the JSON reports of a run's shards
  report show   print a JSON report as a table, Markdown or JUnit XML
  compare       compare two JSON reports: regressions, fixes, paired difference
  plan          the cases needed to detect a change in pass rate
  calibrate     measure a judge grader against human labels
  serve         serve grading over HTTP on loopback
  types         list the spec types, or one type's options
  version       print proctor's version

Run proctor COMMAND --help for a command's flags. Flags may come before or
after the arguments.

exit status:
  0  something was graded and nothing failed
  1  something failed, or (with --strict) was not graded
  2  usage, spec, config or input error
  3  nothing was graded: no sample or case passed or failed (grade, run)
`

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Messages may quote what a model, a judge endpoint or a subject wrote:
	// none of it reaches the terminal as control characters.
	stderr = termsafe.Writer{W: stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "grade":
		return cmdGrade(ctx, args[1:], stdin, stdout, stderr)
	case "run":
		return cmdRun(ctx, args[1:], stdin, stdout, stderr)
	case "report":
		return cmdReport(ctx, args[1:], stdin, stdout, stderr)
	case "compare":
		return withMemoryLimit(func() int { return cmdCompare(ctx, args[1:], stdin, stdout, stderr) })
	case "plan":
		return cmdPlan(ctx, args[1:], stdin, stdout, stderr)
	case "calibrate":
		return cmdCalibrate(ctx, args[1:], stdin, stdout, stderr)
	case "serve":
		return cmdServe(ctx, args[1:], stdin, stdout, stderr)
	case "version", "--version":
		fmt.Fprintf(stdout, "proctor %s\n", version())
		return exitOK
	case "types":
		return cmdTypes(ctx, args[1:], stdin, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "proctor: unknown command %q\n%s", args[0], usage)
	return exitUsage
}

// version is the module version proctor was built from: a tag for
// `go install ...@v1.2.3`, "(devel)" for a build from a checkout, followed
// by the VCS revision (and "+dirty" for uncommitted changes) when the
// build recorded one.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return versionOf(bi)
}

// versionOf formats the module version and VCS revision of bi.
func versionOf(bi *debug.BuildInfo) string {
	v := cmp.Or(bi.Main.Version, "(devel)")
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" || strings.Contains(v, rev[:min(12, len(rev))]) {
		return v
	}
	v += " (revision " + rev[:min(12, len(rev))]
	if dirty {
		v += "+dirty"
	}
	return v + ")"
}

// newFlags returns a flag set for a subcommand whose parse errors go to
// stderr. Its usage text is printed by parseArgs.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // parseArgs prints the usage where it belongs
	return fs
}

// printUsage writes text and then fs's flags to w.
func printUsage(w io.Writer, fs *flag.FlagSet, text string) {
	fmt.Fprint(w, text)
	out := fs.Output()
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(out)
}

// parseArgs parses flags before and after the positional arguments and
// returns the positional ones. On --help it prints the usage to stdout
// and done is true with exitOK; on a bad flag it prints the usage to the
// flag set's output (standard error) and done is true with exitUsage.
func parseArgs(fs *flag.FlagSet, text string, args []string, stdout io.Writer) (pos []string, code int, done bool) {
	pos, err := parseInterspersed(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printUsage(stdout, fs, text)
		return nil, exitOK, true
	case err != nil:
		printUsage(fs.Output(), fs, text)
		return nil, exitUsage, true
	}
	return pos, exitOK, false
}

// verdictExit is the exit status of a run that graded passed+failed
// samples or cases (flaky ones count as graded, as failures unless
// allowed) and left notGraded ungraded.
func verdictExit(t tally, strict bool) int {
	switch {
	case t.failed > 0, t.flakyFails > 0, strict && t.notGraded > 0:
		return exitFailed
	case t.passed+t.failed+t.flaky == 0:
		return exitNoneGraded
	}
	return exitOK
}

// tally counts the verdicts of a grade or run: flakyFails are the flaky
// ones that count as failures.
type tally struct {
	passed, failed, flaky, flakyFails, notGraded int
}
