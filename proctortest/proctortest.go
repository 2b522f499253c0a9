// Package proctortest runs proctor cases as Go subtests and checks that a
// grader keeps the grader contract, as testing/slogtest checks a
// slog.Handler.
//
// [Run] turns each case into a subtest: a failed case fails it with the
// reasons, a not graded case skips it with the reason, and a flaky case
// fails it unless the caller passes [AllowFlaky]. [TestGrader] returns every
// violation of the contract a [proctor.Grader] promises, joined into one
// error, and [RunGrader] runs the same rules as subtests.
package proctortest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

// Option configures [Run].
type Option interface{ apply(*runConfig) }

type runConfig struct {
	allowFlaky bool
	ctx        context.Context
}

type optionFunc func(*runConfig)

func (f optionFunc) apply(c *runConfig) { f(c) }

// AllowFlaky makes a flaky case pass its subtest, logging its attempts,
// instead of failing it.
func AllowFlaky() Option { return optionFunc(func(c *runConfig) { c.allowFlaky = true }) }

// WithContext grades the cases with ctx (default: the test's context,
// cancelled when the test ends).
func WithContext(ctx context.Context) Option {
	return optionFunc(func(c *runConfig) { c.ctx = ctx })
}

// Run grades each case with r in a subtest named by the case's id and
// returns the report of the run. A failed case fails its subtest with each
// failed check's reason; a not graded case skips it with the reason, since
// nothing was measured; a flaky case fails it unless [AllowFlaky] is given.
// A passed case passes. Cases run one after another, in order. The report
// carries the run's judge statistics and caveats ([proctor.Runner.Finish]).
func Run(t *testing.T, r *proctor.Runner, cases []proctor.Case, opts ...Option) *proctor.Report {
	t.Helper()
	cfg := runConfig{}
	for _, o := range opts {
		if o != nil {
			o.apply(&cfg)
		}
	}
	rep := proctor.NewReport(t.Name())
	for i := range cases {
		c := &cases[i]
		name := c.ID
		if name == "" {
			name = fmt.Sprintf("case%d", i)
		}
		t.Run(name, func(t *testing.T) {
			t.Helper()
			ctx := cfg.ctx
			if ctx == nil {
				ctx = t.Context()
			}
			res := r.RunCase(ctx, c)
			rep.Add(res)
			switch res.Verdict {
			case proctor.StatusPassed:
			case proctor.StatusFailed:
				t.Errorf("case %s failed:\n%s", name, reasons(res))
			case proctor.StatusFlaky:
				if cfg.allowFlaky {
					t.Logf("case %s is flaky (allowed):\n%s", name, reasons(res))
				} else {
					t.Errorf("case %s is flaky: some attempts passed, some failed:\n%s", name, reasons(res))
				}
			default:
				t.Skipf("case %s not graded: %s", name, reportfmt.CaseReason(res))
			}
		})
	}
	r.Finish(rep)
	return rep
}

// reasons lists each attempt's checks that did not pass.
func reasons(res proctor.CaseResult) string {
	var b strings.Builder
	for i, a := range res.Attempts {
		fmt.Fprintf(&b, "  attempt %d: %s\n", i+1, a.Verdict)
		for _, g := range a.Grades {
			if g.Status == proctor.StatusPassed {
				continue
			}
			fmt.Fprintf(&b, "    %s: %s: %s\n", g.Grader, g.Status, g.Reason)
		}
		if len(a.Skipped) > 0 {
			fmt.Fprintf(&b, "    skipped after a required check: %s\n", strings.Join(a.Skipped, ", "))
		}
	}
	return b.String()
}
