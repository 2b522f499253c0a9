package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/agent/otlp"
	"github.com/proctorhq/proctor/internal/termsafe"
	"github.com/proctorhq/proctor/reportfmt"
	"github.com/proctorhq/proctor/suite"
)

const runUsage = `usage: proctor run SUITE [flags]

Runs a suite file (YAML, JSON, or JSONL streamed one case per line), prints
the report table to standard output and writes the reports asked for.

Exit status: 0 when a case was graded and none failed; 1 when a case failed
(or was flaky, unless --allow-flaky; with --strict, also when a case was
not graded); 2 for a usage, spec or suite error, or a judge that refused
its key or does not know its model (the run stops at that reply); 3 when nothing was graded
(no case passed, failed or was flaky: no judge, every subject erred, ...).

A suite's config key names a config file in its folder (judges, as
--config holds them), used when --config is not given. A judge of type
scripted answers with canned replies and calls nothing: for demos and
tests, not a model. A reply is given for its case id, or when its
prompt_contains is in the prompt (the whole prompt, rubric included). Cases of the splits a suite's redact_splits names are
counted but their outputs never appear in any report.

With --traces FILE (OTLP JSON, as the collector's file exporter writes it),
each trace becomes a recorded output of the case its --trace-key attribute
names (else the case whose id is the trace id): its tool calls, token
usage, latency and model, read by the GenAI semantic conventions. A joined
case needs no outputs; spans skipped as not following the conventions are
counted in the report's caveats. See docs/agents.md.

flags:
`

// runFlags are the flags of proctor run.
type runFlags struct {
	configFile, shard, graderFile, split string
	out, junit, markdown, html           string
	progress, traces, traceKey           string
	concurrency, attempts                int
	keepOutputs, allowFlaky, strict      bool
	calibrations                         listFlag
}

func (f *runFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.configFile, "config", "", "judges and embedder (JSON or YAML)")
	fs.IntVar(&f.concurrency, "concurrency", 4, "cases graded at once")
	fs.IntVar(&f.attempts, "attempts", 0, "attempts per case, replacing the suite's default (a case's own attempts win)")
	fs.StringVar(&f.shard, "shard", "", "run shard `I/N` only: the cases whose id hashes to I (1-based) of N; auto reads I and N from the environment (PROCTOR_SHARD, a Kubernetes Indexed Job's JOB_COMPLETION_INDEX with PROCTOR_SHARD_COUNT, GitLab, CircleCI, Buildkite)")
	fs.StringVar(&f.out, "out", "", "write the JSON report (the input of report merge and compare) to `FILE`")
	fs.StringVar(&f.junit, "junit", "", "write a JUnit XML report to `FILE`")
	fs.StringVar(&f.markdown, "markdown", "", "write a Markdown report to `FILE`")
	fs.StringVar(&f.html, "html", "", "write a self-contained HTML report to `FILE` (keeps inputs and outputs in it)")
	fs.BoolVar(&f.keepOutputs, "keep-outputs", false, "keep each case's input, expected answer and outputs in the reports (always with --html)")
	fs.BoolVar(&f.allowFlaky, "allow-flaky", false, "do not count flaky cases as failures for the exit status")
	fs.StringVar(&f.split, "split", "", "run only the cases of split `NAME`")
	fs.StringVar(&f.graderFile, "grader-file", "", "suite-level graders for a .jsonl suite (one spec or a list)")
	fs.StringVar(&f.progress, "progress", "auto", "progress on standard error: auto (a live line on a terminal, periodic lines otherwise), off")
	fs.BoolVar(&f.strict, "strict", false, "a case not graded fails the run (exit 1)")
	fs.StringVar(&f.traces, "traces", "", "join the OTLP JSON traces in `FILE` to the cases; a joined case needs no outputs")
	fs.StringVar(&f.traceKey, "trace-key", otlp.DefaultKey, "the span `ATTR` whose value is a trace's case id (a trace without it joins by its trace id)")
	fs.Var(&f.calibrations, "calibration", "correct a model-graded check's pass rate with the `FILE` proctor calibrate --json wrote (repeatable; adds to the suite's calibration)")
}

func cmdRun(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("run", stderr)
	var f runFlags
	f.define(fs)
	pos, code, done := parseArgs(fs, runUsage, args, stdout)
	if done {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "proctor run: want exactly one suite file")
		printUsage(stderr, fs, runUsage)
		return exitUsage
	}
	if f.concurrency < 1 || f.attempts < 0 || (f.progress != "auto" && f.progress != "off") {
		fmt.Fprintln(stderr, "proctor run: --concurrency must be >= 1, --attempts >= 0, --progress auto or off")
		return exitUsage
	}
	shard, _, err := parseShardFlag(f.shard, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "proctor run: --%v\n", err)
		return exitUsage
	}
	conf, err := loadCLIConfig(f.configFile)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	s, traced, err := f.loadSuite(ctx, pos[0], conf.CompilerOptions(), shard)
	if err != nil {
		fmt.Fprintf(stderr, "proctor run: %v\n", err)
		return exitUsage
	}
	defer s.Close()
	if f.configFile != "" && s.Config != "" {
		fmt.Fprintf(stderr, "proctor run: using --config %s, not the suite's config %s\n", f.configFile, s.Config)
	}
	runner, sum, err := f.newRunner(conf.Options(), s, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "proctor run: %v\n", err)
		return exitUsage
	}
	var reports runReports
	defer reports.close()
	if err := reports.open(&f, s, sum, shard); err != nil {
		fmt.Fprintf(stderr, "proctor run: %v\n", err)
		return exitUsage
	}
	prog := newProgress(stderr, f.progress == "auto", s.Count)
	graded, runErr := suite.Run(ctx, runner, s.Cases(), f.concurrency, func(c proctor.CaseResult) error {
		// A split the suite keeps out of reports has lost its outputs
		// already: the runner redacts it (s.RunnerOptions).
		sum.Add(c)
		if err := reports.add(c); err != nil {
			return err
		}
		prog.update(sum.Totals)
		return nil
	})
	prog.done(sum.Totals)
	f.complete(sum, runner, s, shard, traced, stderr)
	code = runStopped(runErr, graded, s, sum, stderr)
	if reports.finish(stderr) != nil {
		code = exitUsage
	}
	if err := reportfmt.WriteText(stdout, sum, reportfmt.TextOptions{}); err != nil {
		fmt.Fprintf(stderr, "proctor run: %v\n", err)
	}
	if code != exitOK {
		return code
	}
	if runErr != nil {
		return exitFailed
	}
	return f.verdict(sum, stderr)
}

// loadSuite loads the suite file at path, with the traces of --traces
// joined to its cases.
func (f *runFlags) loadSuite(ctx context.Context, path string, opts []proctor.CompilerOption, shard suite.Shard) (*suite.Suite, *traceJoin, error) {
	// The config file the suite names, if any, stands in for --config.
	sopts := suite.Options{Compiler: opts, GraderFile: f.graderFile, Attempts: f.attempts, Split: f.split, Shard: shard,
		IgnoreConfig: f.configFile != ""}
	var traced *traceJoin
	if f.traces != "" {
		var err error
		if traced, err = readTraces(f.traces, f.traceKey); err != nil {
			return nil, nil, err
		}
		sopts.Traced = traced.lookup
	}
	s, err := suite.LoadContext(ctx, path, sopts)
	if err != nil {
		return nil, nil, err
	}
	return s, traced, nil
}

// newRunner builds the runner for suite s, warning on stderr of its
// caveats, and the summary its results go into, calibrated by the suite's
// calibration files and those of --calibration.
func (f *runFlags) newRunner(opts []proctor.Option, s *suite.Suite, stderr io.Writer) (*proctor.Runner, *reportfmt.Summary, error) {
	ropts := append([]proctor.RunnerOption{proctor.WithOptions(opts...)}, s.RunnerOptions()...)
	ropts = append(ropts, proctor.WithConcurrency(f.concurrency))
	if f.html != "" || f.keepOutputs {
		// The HTML case view shows what was graded; the suite's
		// redact_splits still keeps held-out outputs out.
		ropts = append(ropts, proctor.WithRecordOutputs())
	}
	runner := proctor.NewRunner(ropts...)
	if err := runner.Err(); err != nil {
		return nil, nil, err
	}
	for _, c := range runner.Caveats() {
		fmt.Fprintf(stderr, "proctor run: warning: %s\n", c)
	}
	sum := reportfmt.NewSummary(s.Name)
	sum.GroupBy = s.GroupBy
	if b := s.Bootstrap; b != nil {
		sum.Bootstrap = &reportfmt.BootstrapOptions{Reps: b.Reps, Seed: b.Seed}
	}
	cals, err := readCalibrations(f.calibrations)
	if err != nil {
		return nil, nil, err
	}
	sum.Calibrate(append(slices.Clip(s.Calibrations), cals...)...)
	return runner, sum, nil
}

// complete adds to sum what is known once the run is over: the run-wide
// judge statistics and caveats, and the caveats of the traces and the
// split; a shard's run says on stderr which part of the suite it ran.
func (f *runFlags) complete(sum *reportfmt.Summary, runner *proctor.Runner, s *suite.Suite, shard suite.Shard, traced *traceJoin, stderr io.Writer) {
	tail := proctor.NewReport("")
	runner.Finish(tail)
	sum.Judges = append(sum.Judges, tail.Judges...)
	sum.Panels = tail.Panels
	for _, c := range tail.Caveats {
		sum.AddCaveat(c)
	}
	if shard.N > 1 {
		// Said on standard error, not as a caveat: the merged report of
		// all shards must equal the report of the whole run.
		fmt.Fprintf(stderr, "proctor run: shard %d/%d: %d of the suite's %s; join the shards' reports with proctor report merge\n", shard.I, shard.N, s.Count, plural(s.Total, "case"))
	}
	if traced != nil {
		for _, c := range traced.caveats() {
			sum.AddCaveat(c)
		}
	}
	if f.split != "" {
		sum.AddCaveat(fmt.Sprintf("split %q only: %d of the suite's %s", f.split, s.Count, plural(s.Total, "case")))
	}
}

// runStopped reports a run that stopped before its last case on stderr
// and as a caveat, and returns exitUsage when the stop was a suite or
// judge configuration error, else exitOK.
func runStopped(runErr error, graded int, s *suite.Suite, sum *reportfmt.Summary, stderr io.Writer) int {
	if runErr == nil {
		return exitOK
	}
	code := exitOK
	var se *suite.Error
	switch {
	case errors.As(runErr, &se):
		fmt.Fprintf(stderr, "proctor run: %v\n", runErr)
		code = exitUsage
	case errors.Is(runErr, proctor.ErrJudgeMisconfigured):
		// No call can succeed: a config error, found on the first reply.
		fmt.Fprintf(stderr, "proctor run: stopped: %v\n", runErr)
		code = exitUsage
	default:
		fmt.Fprintf(stderr, "proctor run: stopped: %v\n", runErr)
	}
	sum.AddCaveat(fmt.Sprintf("run stopped after %d of %s: %v", graded, plural(s.Count, "case"), runErr))
	return code
}

// verdict is the exit status of a run that graded every case: what the
// totals say, under --allow-flaky and --strict.
func (f *runFlags) verdict(sum *reportfmt.Summary, stderr io.Writer) int {
	t := tally{passed: sum.Totals.Passed, failed: sum.Totals.Failed, flaky: sum.Totals.Flaky, notGraded: sum.Totals.NotGraded}
	if !f.allowFlaky {
		// A flaky case that met its min_pass passes the gate; it stays
		// flaky in every count.
		t.flakyFails = t.flaky - sum.Totals.FlakyGatePassed
	}
	code := verdictExit(t, f.strict)
	switch {
	case code == exitNoneGraded:
		fmt.Fprintf(stderr, "proctor run: nothing was graded: %s\n", notGradedWord(t.notGraded, "case"))
	case code == exitFailed && t.failed+t.flakyFails == 0:
		fmt.Fprintf(stderr, "proctor run: --strict: %s\n", notGradedWord(t.notGraded, "case"))
	}
	return code
}

// runReports are the report files proctor run writes: sinks that take
// each case's result as it is graded, and finishers that complete the
// files from the summary once the run is over.
type runReports struct {
	sinks    []func(proctor.CaseResult) error
	finishes []func() error
	cleanups []func()
}

// open creates the files --out, --junit, --markdown and --html ask for.
func (r *runReports) open(f *runFlags, s *suite.Suite, sum *reportfmt.Summary, shard suite.Shard) error {
	if f.out != "" {
		if err := r.openJSON(f.out, s, f.shard != "", shard, sum); err != nil {
			return err
		}
	}
	if f.junit != "" {
		if err := r.openJUnit(f.junit, s.Name, sum); err != nil {
			return err
		}
	}
	if f.markdown != "" {
		path := f.markdown
		r.finishes = append(r.finishes, func() error {
			file, err := os.Create(path)
			if err != nil {
				return err
			}
			if err := reportfmt.WriteMarkdown(file, sum, reportfmt.MarkdownOptions{}); err != nil {
				file.Close()
				return err
			}
			return file.Close()
		})
	}
	if f.html != "" {
		add, fin, err := htmlRunReport(f.html, s.Name)
		if err != nil {
			return err
		}
		r.sinks = append(r.sinks, add)
		r.finishes = append(r.finishes, func() error { return fin(sum) })
	}
	return nil
}

// openJSON starts the JSON report (the shard's, when sharded) at path.
func (r *runReports) openJSON(path string, s *suite.Suite, sharded bool, shard suite.Shard, sum *reportfmt.Summary) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	r.cleanups = append(r.cleanups, func() { f.Close() })
	j, err := shardJSON(f, s, sharded, shard)
	if err != nil {
		return err
	}
	r.sinks = append(r.sinks, j.Add)
	r.finishes = append(r.finishes, func() error {
		if err := j.Finish(sum); err != nil {
			return err
		}
		return f.Close()
	})
	return nil
}

// openJUnit starts the JUnit report at path; the test cases are written
// to a scratch file as they come, since the suite element that holds
// them opens with the totals.
func (r *runReports) openJUnit(path, suiteName string, sum *reportfmt.Summary) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	r.cleanups = append(r.cleanups, func() { f.Close() })
	scratch, err := os.CreateTemp("", "proctor-junit-*.xml")
	if err != nil {
		return err
	}
	r.cleanups = append(r.cleanups, func() { os.Remove(scratch.Name()) }, func() { scratch.Close() })
	j := reportfmt.NewJUnit(f, suiteName, reportfmt.JUnitOptions{Scratch: scratch})
	r.sinks = append(r.sinks, j.Add)
	r.finishes = append(r.finishes, func() error {
		if err := j.Finish(sum); err != nil {
			return err
		}
		return f.Close()
	})
	return nil
}

// add gives a case's result to every report.
func (r *runReports) add(c proctor.CaseResult) error {
	for _, sink := range r.sinks {
		if err := sink(c); err != nil {
			return err
		}
	}
	return nil
}

// finish completes every report, saying on stderr which could not be
// written, and returns the last such error.
func (r *runReports) finish(stderr io.Writer) error {
	var last error
	for _, fin := range r.finishes {
		if err := fin(); err != nil {
			fmt.Fprintf(stderr, "proctor run: writing a report: %v\n", err)
			last = err
		}
	}
	return last
}

// close closes and removes the files open opened, last first.
func (r *runReports) close() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

// parseInterspersed parses flags that may come before or after the
// positional arguments (proctor run SUITE --out r.json) and returns the
// positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// progress reports counts as the run goes: a line redrawn in place on a
// terminal, a plain line every ten seconds otherwise.
type progress struct {
	w     io.Writer
	tty   bool
	on    bool
	total int
	last  time.Time
	every time.Duration
	drawn bool
}

func newProgress(w io.Writer, on bool, total int) *progress {
	p := &progress{w: w, on: on, total: total, last: time.Now(), every: 10 * time.Second}
	// The progress line is proctor's own: its redraw escapes go out as
	// they are.
	w = termsafe.Raw(w)
	p.w = w
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty, p.every = true, 100*time.Millisecond
		}
	}
	return p
}

func (p *progress) line(t proctor.Totals) string {
	return fmt.Sprintf("%d/%s: passed %d, failed %d, flaky %d, not graded %d", t.Cases(), plural(p.total, "case"), t.Passed, t.Failed, t.Flaky, t.NotGraded)
}

func (p *progress) update(t proctor.Totals) {
	if !p.on || time.Since(p.last) < p.every {
		return
	}
	p.last = time.Now()
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", p.line(t))
		p.drawn = true
		return
	}
	fmt.Fprintf(p.w, "proctor run: %s\n", p.line(t))
}

func (p *progress) done(t proctor.Totals) {
	if p.on && p.drawn {
		fmt.Fprintf(p.w, "\r\033[K")
	}
}
