package proctor

import (
	"io/fs"
)

// A RunnerOption configures a [Runner]: [NewRunner] takes these. Every
// [Option] is one; [WithChecks], [WithSubject], [WithSuiteName],
// [WithRecordOutputs] and [WithResultRedactor] are Runner options only, so
// giving one to a [Compiler] or a grader constructor does not compile.
type RunnerOption interface {
	applyRunner(*config)
}

// A CompilerOption configures a [Compiler] and the graders built outside
// one: [NewCompiler], [NewJudging] and constructors such as [NewLLMJudge]
// take these. Every [Option] is one; [WithFiles], [WithSpecTypes],
// [WithEmbedder] and the network options are Compiler options only.
type CompilerOption interface {
	applyCompiler(*config)
}

// An Option configures both a [Runner] and a [Compiler]: the judges and
// their policy, and the concurrency. Options are values, so one set can be
// built once and passed to both; see [WithOptions].
type Option interface {
	RunnerOption
	CompilerOption
}

// optionFunc is an Option: it applies to Runners and Compilers alike.
type optionFunc func(*config)

func (f optionFunc) applyRunner(c *config)   { f(c) }
func (f optionFunc) applyCompiler(c *config) { f(c) }

// runnerOption applies to Runners only.
type runnerOption func(*config)

func (f runnerOption) applyRunner(c *config) { f(c) }

// compilerOption applies to Compilers (and grader constructors) only.
type compilerOption func(*config)

func (f compilerOption) applyCompiler(c *config) { f(c) }

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

// newRunnerConfig builds a Runner's config from its options.
func newRunnerConfig(opts []RunnerOption) *config {
	c := &config{}
	for _, o := range opts {
		if o != nil {
			o.applyRunner(c)
		}
	}
	return c
}

// newCompilerConfig builds a Compiler's (or a grader's) config from its
// options.
func newCompilerConfig(opts []CompilerOption) *config {
	c := &config{}
	for _, o := range opts {
		if o != nil {
			o.applyCompiler(c)
		}
	}
	return c
}

// WithOptions bundles several options into one, which a [Runner] and a
// [Compiler] both take: a []Option from a config loader goes to
// [NewRunner] as one value, beside Runner options.
func WithOptions(opts ...Option) Option { return options(opts) }

// options is the Option WithOptions returns: it applies each of its
// options in the same role.
type options []Option

func (os options) applyRunner(c *config) {
	for _, o := range os {
		if o != nil {
			o.applyRunner(c)
		}
	}
}

func (os options) applyCompiler(c *config) {
	for _, o := range os {
		if o != nil {
			o.applyCompiler(c)
		}
	}
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
func WithChecks(checks ...Check) RunnerOption {
	return runnerOption(func(c *config) { c.checks = append(c.checks, checks...) })
}

// WithSubject sets the function that produces an attempt's output for cases
// that carry no recorded outputs. Without a subject such cases are not graded.
func WithSubject(s Subject) RunnerOption {
	return runnerOption(func(c *config) { c.subject = s })
}

// WithFiles lets specs read the files they name (schema_file) from fsys,
// which confines them to it: use os.DirFS(suiteDir) or os.OpenRoot(dir).FS().
// Without it a spec that names a file is a spec error.
func WithFiles(fsys fs.FS) CompilerOption {
	return compilerOption(func(c *config) { c.files = fsys })
}
