// Package proctortest runs proctor cases as Go subtests and checks that a
// grader keeps the grader contract, as testing/slogtest checks a
// slog.Handler.
//
// [Run] grades cases concurrently and turns each into a subtest: a failed
// case fails it with the reasons, what the judges said and an excerpt of
// the output, a not graded case skips it with the reason, and a flaky case
// fails it unless the caller passes [AllowFlaky]. [TestGrader] returns every
// violation of the contract a [proctor.Grader] promises, joined into one
// error, and [RunGrader] runs the same rules as subtests.
package proctortest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

// Option configures [Run].
type Option interface{ apply(*runConfig) }

type runConfig struct {
	allowFlaky bool
	logOutputs bool
	ctx        context.Context
}

type optionFunc func(*runConfig)

func (f optionFunc) apply(c *runConfig) { f(c) }

// AllowFlaky makes a flaky case pass its subtest, logging its attempts,
// instead of failing it.
func AllowFlaky() Option { return optionFunc(func(c *runConfig) { c.allowFlaky = true }) }

// LogOutputs logs every case's graded outputs in its subtest (shown with
// go test -v), not only a failed case's. Outputs a result redactor keeps out
// (a held-out split's) are never shown.
func LogOutputs() Option { return optionFunc(func(c *runConfig) { c.logOutputs = true }) }

// WithContext grades the cases with ctx (default: the test's context,
// cancelled when the test ends).
func WithContext(ctx context.Context) Option {
	return optionFunc(func(c *runConfig) { c.ctx = ctx })
}

// Run grades each case with r in a subtest named by the case's id and
// returns the report of the run. A failed case fails its subtest; a not
// graded case skips it with the reason, since nothing was measured; a flaky
// case fails it unless [AllowFlaky] is given. A passed case passes.
//
// A failed or flaky subtest shows, for each attempt that did not pass, the
// checks that did not pass with their reasons, what the judges said
// (verdict and reasoning), and an excerpt of the graded output, unless a
// result redactor of the Runner removed it (held-out splits).
//
// The cases are graded at once, as many at a time as the Runner's
// concurrency ([proctor.Runner.Concurrency]), while the subtests report
// them in order; a subtest left out by -run still has its case graded, and
// counted in the report. The report is named by the Runner's suite name
// ([proctor.WithSuiteName]), else by the test's name, and carries the run's
// judge statistics and caveats ([proctor.Runner.Finish]).
func Run(t *testing.T, r *proctor.Runner, cases []proctor.Case, opts ...Option) *proctor.Report {
	t.Helper()
	cfg := runConfig{}
	for _, o := range opts {
		if o != nil {
			o.apply(&cfg)
		}
	}
	ctx := cfg.ctx
	if ctx == nil {
		ctx = t.Context()
	}
	results := gradeAll(proctor.ContextWithRecordOutputs(ctx), r, cases)
	rep := proctor.NewReport("")
	for i := range cases {
		name := cases[i].ID
		if name == "" {
			name = fmt.Sprintf("case%d", i)
		}
		t.Run(name, func(t *testing.T) {
			t.Helper()
			res := <-results[i]
			rep.Add(res)
			report(t, name, res, cfg)
		})
	}
	r.Finish(rep)
	if rep.Suite == "" {
		rep.Suite = t.Name()
	}
	return rep
}

// gradeAll grades every case in the background, at most r.Concurrency()
// at a time, and returns one channel per case that delivers its result.
func gradeAll(ctx context.Context, r *proctor.Runner, cases []proctor.Case) []chan proctor.CaseResult {
	out := make([]chan proctor.CaseResult, len(cases))
	for i := range out {
		out[i] = make(chan proctor.CaseResult, 1)
	}
	sem := make(chan struct{}, r.Concurrency())
	go func() {
		for i := range cases {
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				out[i] <- r.RunCase(ctx, &cases[i])
			}()
		}
	}()
	return out
}

// report passes, fails or skips t by the case's verdict.
func report(t *testing.T, name string, res proctor.CaseResult, cfg runConfig) {
	t.Helper()
	switch res.Verdict {
	case proctor.StatusPassed:
		if cfg.logOutputs {
			t.Logf("case %s passed:\n%s", name, details(res, true))
		}
	case proctor.StatusFailed:
		t.Errorf("case %s failed:\n%s", name, details(res, cfg.logOutputs))
	case proctor.StatusFlaky:
		if cfg.allowFlaky {
			t.Logf("case %s is flaky (allowed):\n%s", name, details(res, cfg.logOutputs))
		} else {
			t.Errorf("case %s is flaky: some attempts passed, some failed:\n%s", name, details(res, cfg.logOutputs))
		}
	default:
		t.Skipf("case %s not graded: %s", name, reportfmt.CaseReason(res))
	}
}

// maxExcerpt is how many runes of an output a subtest shows.
const maxExcerpt = 500

// details lists each attempt that did not pass (every attempt with all):
// its checks that did not pass with their reasons and the judges' votes,
// and an excerpt of its output when the result kept it.
func details(res proctor.CaseResult, all bool) string {
	var b strings.Builder
	for i, a := range res.Attempts {
		if a.Verdict == proctor.StatusPassed && !all {
			fmt.Fprintf(&b, "  attempt %d: %s\n", i+1, a.Verdict)
			continue
		}
		fmt.Fprintf(&b, "  attempt %d: %s\n", i+1, a.Verdict)
		for _, g := range a.Grades {
			if g.Status != proctor.StatusPassed || all {
				fmt.Fprintf(&b, "    %s: %s: %s\n", g.Grader, g.Status, g.Reason)
			}
			writeVotes(&b, g)
		}
		if len(a.Skipped) > 0 {
			fmt.Fprintf(&b, "    skipped after a required check: %s\n", strings.Join(a.Skipped, ", "))
		}
		if a.Error != "" {
			fmt.Fprintf(&b, "    subject error: %s\n", a.Error)
		}
		if a.Output != nil {
			fmt.Fprintf(&b, "    output: %s\n", excerpt(*a.Output))
		}
	}
	return b.String()
}

// writeVotes writes what each judge of a model-graded grade said.
func writeVotes(b *strings.Builder, g proctor.Grade) {
	ev, ok := g.Evidence.(*proctor.JudgeEvidence)
	if !ok || ev == nil {
		return
	}
	for _, v := range ev.Judges {
		fmt.Fprintf(b, "      judge %s: %s", v.Name, v.Verdict)
		if v.Error != "" {
			fmt.Fprintf(b, " (%s)", v.Error)
		}
		if v.Reasoning != "" {
			fmt.Fprintf(b, ": %s", excerpt(v.Reasoning))
		}
		b.WriteByte('\n')
	}
}

// excerpt quotes the first maxExcerpt runes of s.
func excerpt(s string) string {
	if n := utf8.RuneCountInString(s); n > maxExcerpt {
		cut := 0
		for i := range s {
			if cut == maxExcerpt {
				return strconv.Quote(s[:i]) + fmt.Sprintf(" … (%d more characters)", n-maxExcerpt)
			}
			cut++
		}
	}
	return strconv.Quote(s)
}
