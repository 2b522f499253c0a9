package proctor

import (
	"io/fs"
)

// Option configures a [Runner] or a [Compiler]. Options are values, so one
// set can be built once and passed to both; see [WithOptions].
type Option interface {
	apply(*config)
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// config holds everything injected into a Runner or Compiler. Each field's
// zero value is the documented default.
type config struct {
	concurrency   int                           // cases graded at once; 0 means 4
	checks        []Check                       // suite-level checks applied to every case
	subject       Subject                       // produces outputs for cases without recorded ones
	files         fs.FS                         // where spec file options (schema_file) are read; nil: none allowed
	caveats       []string                      // caveats every report of the run carries
	finishers     []func(*Report)               // run when a Runner's report is complete (judge stats, caveats)
	suite         string                        // the suite's name, for the Runner's reports
	redactors     []func(CaseResult) CaseResult // rewrite each case result before it is returned
	recordOutputs bool                          // keep input, expected and outputs in case results
	specTypes     []SpecType                    // a Compiler's types from family packages (WithSpecTypes)

	// Each grader family keeps its injected dependencies in its own struct,
	// defined in its own file.
	judgeConfig
	embedConfig
	netConfig
}

func newConfig(opts []Option) *config {
	c := &config{}
	for _, o := range opts {
		if o != nil {
			o.apply(c)
		}
	}
	return c
}

// WithOptions bundles several options into one.
func WithOptions(opts ...Option) Option {
	return optionFunc(func(c *config) {
		for _, o := range opts {
			if o != nil {
				o.apply(c)
			}
		}
	})
}

// WithConcurrency sets how many cases a [Runner] grades at once. The default
// is 4; n < 1 means 1. It is also the default cap on each judge's calls in
// flight ([JudgeModel.Concurrency] overrides it): given to a Runner, for
// the checks it runs; given to a [Compiler] or grader constructor, for
// that grader called outside a Runner.
func WithConcurrency(n int) Option {
	return optionFunc(func(c *config) {
		c.concurrency = max(n, 1)
		c.runConcurrency = c.concurrency
	})
}

// WithChecks adds checks that a [Runner] applies to every case, after ordering
// them with the case's own checks (deterministic first).
func WithChecks(checks ...Check) Option {
	return optionFunc(func(c *config) { c.checks = append(c.checks, checks...) })
}

// WithSubject sets the function that produces an attempt's output for cases
// that carry no recorded outputs. Without a subject such cases are not graded.
func WithSubject(s Subject) Option {
	return optionFunc(func(c *config) { c.subject = s })
}

// WithFiles lets specs read the files they name (schema_file) from fsys,
// which confines them to it: use os.DirFS(suiteDir) or os.OpenRoot(dir).FS().
// Without it a spec that names a file is a spec error.
func WithFiles(fsys fs.FS) Option {
	return optionFunc(func(c *config) { c.files = fsys })
}
