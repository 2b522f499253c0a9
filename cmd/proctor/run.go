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

func cmdRun(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("run", stderr)
	configFile := fs.String("config", "", "judges and embedder (JSON or YAML)")
	concurrency := fs.Int("concurrency", 4, "cases graded at once")
	attempts := fs.Int("attempts", 0, "attempts per case, replacing the suite's default (a case's own attempts win)")
	shardFlag := fs.String("shard", "", "run shard `I/N` only: the cases whose id hashes to I (1-based) of N; auto reads I and N from the environment (PROCTOR_SHARD, a Kubernetes Indexed Job's JOB_COMPLETION_INDEX with PROCTOR_SHARD_COUNT, GitLab, CircleCI, Buildkite)")
	out := fs.String("out", "", "write the JSON report (the input of report merge and compare) to `FILE`")
	junit := fs.String("junit", "", "write a JUnit XML report to `FILE`")
	markdown := fs.String("markdown", "", "write a Markdown report to `FILE`")
	htmlOut := fs.String("html", "", "write a self-contained HTML report to `FILE` (keeps inputs and outputs in it)")
	keepOutputs := fs.Bool("keep-outputs", false, "keep each case's input, expected answer and outputs in the reports (always with --html)")
	allowFlaky := fs.Bool("allow-flaky", false, "do not count flaky cases as failures for the exit status")
	split := fs.String("split", "", "run only the cases of split `NAME`")
	graderFile := fs.String("grader-file", "", "suite-level graders for a .jsonl suite (one spec or a list)")
	progress := fs.String("progress", "auto", "progress on standard error: auto (a live line on a terminal, periodic lines otherwise), off")
	strict := fs.Bool("strict", false, "a case not graded fails the run (exit 1)")
	tracesFile := fs.String("traces", "", "join the OTLP JSON traces in `FILE` to the cases; a joined case needs no outputs")
	traceKey := fs.String("trace-key", otlp.DefaultKey, "the span `ATTR` whose value is a trace's case id (a trace without it joins by its trace id)")
	var calFiles listFlag
	fs.Var(&calFiles, "calibration", "correct a model-graded check's pass rate with the `FILE` proctor calibrate --json wrote (repeatable; adds to the suite's calibration)")
	pos, code, done := parseArgs(fs, runUsage, args, stdout)
	if done {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "proctor run: want exactly one suite file")
		printUsage(stderr, fs, runUsage)
		return exitUsage
	}
	var err error
	if *concurrency < 1 || *attempts < 0 || (*progress != "auto" && *progress != "off") {
		fmt.Fprintln(stderr, "proctor run: --concurrency must be >= 1, --attempts >= 0, --progress auto or off")
		return exitUsage
	}
	shard, _, err := parseShardFlag(*shardFlag, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "proctor run: --%v\n", err)
		return exitUsage
	}
	conf, err := loadCLIConfig(*configFile)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	// The config file the suite names, if any, stands in for --config.
	sopts := suite.Options{Compiler: conf.CompilerOptions(), GraderFile: *graderFile, Attempts: *attempts, Split: *split, Shard: shard,
		IgnoreConfig: *configFile != ""}
	var traced *traceJoin
	if *tracesFile != "" {
		if traced, err = readTraces(*tracesFile, *traceKey); err != nil {
			fmt.Fprintf(stderr, "proctor run: %v\n", err)
			return exitUsage
		}
		sopts.Traced = traced.lookup
	}
	s, err := suite.LoadContext(ctx, pos[0], sopts)
	if err != nil {
		fmt.Fprintf(stderr, "proctor run: %v\n", err)
		return exitUsage
	}
	defer s.Close()
	if *configFile != "" && s.Config != "" {
		fmt.Fprintf(stderr, "proctor run: using --config %s, not the suite's config %s\n", *configFile, s.Config)
	}

	ropts := append([]proctor.RunnerOption{proctor.WithOptions(conf.Options()...)}, s.RunnerOptions()...)
	ropts = append(ropts, proctor.WithConcurrency(*concurrency))
	if *htmlOut != "" || *keepOutputs {
		// The HTML case view shows what was graded; the suite's
		// redact_splits still keeps held-out outputs out.
		ropts = append(ropts, proctor.WithRecordOutputs())
	}
	runner := proctor.NewRunner(ropts...)
	if err := runner.Err(); err != nil {
		fmt.Fprintf(stderr, "proctor run: %v\n", err)
		return exitUsage
	}
	for _, c := range runner.Caveats() {
		fmt.Fprintf(stderr, "proctor run: warning: %s\n", c)
	}

	sum := reportfmt.NewSummary(s.Name)
	sum.GroupBy = s.GroupBy
	if b := s.Bootstrap; b != nil {
		sum.Bootstrap = &reportfmt.BootstrapOptions{Reps: b.Reps, Seed: b.Seed}
	}
	cals, err := readCalibrations(calFiles)
	if err != nil {
		fmt.Fprintf(stderr, "proctor run: %v\n", err)
		return exitUsage
	}
	sum.Calibrate(append(slices.Clip(s.Calibrations), cals...)...)
	var sinks []func(proctor.CaseResult) error
	var finish []func() error
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintf(stderr, "proctor run: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		j, err := shardJSON(f, s, *shardFlag != "", shard)
		if err != nil {
			fmt.Fprintf(stderr, "proctor run: %v\n", err)
			return exitUsage
		}
		sinks = append(sinks, j.Add)
		finish = append(finish, func() error {
			if err := j.Finish(sum); err != nil {
				return err
			}
			return f.Close()
		})
	}
	if *junit != "" {
		f, err := os.Create(*junit)
		if err != nil {
			fmt.Fprintf(stderr, "proctor run: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		scratch, err := os.CreateTemp("", "proctor-junit-*.xml")
		if err != nil {
			fmt.Fprintf(stderr, "proctor run: %v\n", err)
			return exitUsage
		}
		defer os.Remove(scratch.Name())
		defer scratch.Close()
		j := reportfmt.NewJUnit(s.Name, scratch)
		sinks = append(sinks, j.Add)
		finish = append(finish, func() error {
			if err := j.Finish(f, sum); err != nil {
				return err
			}
			return f.Close()
		})
	}
	if *markdown != "" {
		path := *markdown
		finish = append(finish, func() error {
			f, err := os.Create(path)
			if err != nil {
				return err
			}
			if err := reportfmt.WriteMarkdown(f, sum); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		})
	}
	if *htmlOut != "" {
		add, fin, err := htmlRunReport(*htmlOut, s.Name)
		if err != nil {
			fmt.Fprintf(stderr, "proctor run: %v\n", err)
			return exitUsage
		}
		sinks = append(sinks, add)
		finish = append(finish, func() error { return fin(sum) })
	}
	prog := newProgress(stderr, *progress == "auto", s.Count)
	graded, runErr := suite.Run(ctx, runner, s.Cases(), *concurrency, func(c proctor.CaseResult) error {
		// A split the suite keeps out of reports has lost its outputs
		// already: the runner redacts it (s.RunnerOptions).
		sum.Add(c)
		for _, sink := range sinks {
			if err := sink(c); err != nil {
				return err
			}
		}
		prog.update(sum.Totals)
		return nil
	})
	prog.done(sum.Totals)
	// The run-wide judge statistics and caveats.
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
	if *split != "" {
		sum.AddCaveat(fmt.Sprintf("split %q only: %d of the suite's %s", *split, s.Count, plural(s.Total, "case")))
	}
	code = exitOK
	if runErr != nil {
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
	}
	for _, f := range finish {
		if err := f(); err != nil {
			fmt.Fprintf(stderr, "proctor run: writing a report: %v\n", err)
			code = exitUsage
		}
	}
	if err := reportfmt.WriteText(stdout, sum); err != nil {
		fmt.Fprintf(stderr, "proctor run: %v\n", err)
	}
	if code != exitOK {
		return code
	}
	if runErr != nil {
		return exitFailed
	}
	t := tally{passed: sum.Totals.Passed, failed: sum.Totals.Failed, flaky: sum.Totals.Flaky, notGraded: sum.Totals.NotGraded}
	if !*allowFlaky {
		// A flaky case that met its min_pass passes the gate; it stays
		// flaky in every count.
		t.flakyFails = t.flaky - sum.Totals.FlakyGatePassed
	}
	code = verdictExit(t, *strict)
	switch {
	case code == exitNoneGraded:
		fmt.Fprintf(stderr, "proctor run: nothing was graded: %s\n", notGradedWord(t.notGraded, "case"))
	case code == exitFailed && t.failed+t.flakyFails == 0:
		fmt.Fprintf(stderr, "proctor run: --strict: %s\n", notGradedWord(t.notGraded, "case"))
	}
	return code
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
