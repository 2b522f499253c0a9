package proctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/proctorhq/proctor/internal/kit"

	"golang.org/x/sync/errgroup"
)

// Subject produces one attempt's output: it is given the case's sample
// (input, expected, item variables, model) and the attempt number from 0,
// and returns the sample with Output and whatever it measured (metrics,
// tool calls, HTTP status). An error makes the attempt not graded with the
// error as the reason; it never fails the case.
type Subject func(ctx context.Context, in Sample, attempt int) (Sample, error)

// Case is one test: a sample to grade, the checks to grade it with and how
// many attempts to make.
type Case struct {
	// ID identifies the case in reports; it also orders shards.
	ID string
	// Sample holds what every attempt shares: input, expected, references,
	// context, item variables, the subject model. Its Output is ignored
	// when Outputs is set or a subject runs.
	Sample Sample
	// Outputs are recorded attempts. Fields a recorded sample leaves empty
	// (input, expected, references, context, item, model) are taken from
	// Sample. With no outputs and no subject, Sample itself is the one
	// recorded attempt.
	Outputs []Sample
	// Attempts is how many attempts to make; 0 means one per recorded
	// output, or 1. With fewer recorded outputs than attempts, the attempts
	// are the outputs there are.
	Attempts int
	// Checks are the case's own checks. The runner adds its suite-level
	// checks and orders them all: deterministic, then network, then model.
	Checks []Check
	// Severity is how much a wrong verdict costs; high and critical make
	// judge verdicts go to a panel.
	Severity Severity
	// Split names the set the case belongs to ("dev", "holdout").
	Split string
	// MinPass, when above 0, is how many attempts must pass for the case
	// to pass the gate ([CaseResult.GatePassed]); 0 means all of them.
	// The verdict is unchanged: attempts that disagree stay flaky.
	MinPass int
	// StopEarly stops making attempts once the gate is decided: MinPass
	// attempts passed, or too many failed for MinPass to be reached (with
	// MinPass 0, at the first failure). The attempts not made are counted
	// in [CaseResult.AttemptsSaved].
	StopEarly bool
	// Cluster names the group of related cases this one belongs to (one
	// document, one conversation); cases sharing it are not independent,
	// and reports give their pass rates a cluster-robust standard error.
	Cluster string
	// Group is the case's value of the field reports break the run down
	// by (a suite's group_by), beside the split.
	Group string
	// Tags label the case (a topic, a product area, a known weakness); a
	// report grouped by tags counts the case under each of them.
	Tags []string
}

// CaseResult is the graded case: its verdict over attempts and each attempt.
type CaseResult struct {
	// ID is the case's id.
	ID string `json:"id"`
	// Verdict is [CaseVerdict] over the attempts: passed, failed, flaky or
	// not graded.
	Verdict Status `json:"verdict"`
	// Severity is the case's severity, when it has one.
	Severity Severity `json:"severity,omitempty"`
	// Split is the set the case belongs to, when it has one.
	Split string `json:"split,omitempty"`
	// Cluster is the value of the suite's cluster field for this case:
	// cases that share it are not independent, and intervals and
	// compare's difference account for that.
	Cluster string `json:"cluster,omitempty"`
	// Group is the case's value of the suite's group_by field, when set.
	Group string `json:"group,omitempty"`
	// Tags are the case's tags, when it has any.
	Tags []string `json:"tags,omitempty"`
	// MinPass is the case's min_pass, when set: the gate passes it when at
	// least that many attempts passed.
	MinPass int `json:"min_pass,omitempty"`
	// AttemptsSaved counts the attempts stop_early did not make.
	AttemptsSaved int `json:"attempts_saved,omitempty"`
	// Input and Expected are the case's input and expected answer, kept
	// only when the runner records outputs ([WithRecordOutputs]).
	Input    string  `json:"input,omitempty"`
	Expected *string `json:"expected,omitempty"`
	// Attempts are the graded attempts, in order.
	Attempts []AttemptResult `json:"attempts"`
}

// AttemptResult is one graded attempt.
type AttemptResult struct {
	// Verdict is [AttemptVerdict] over the grades: passed, failed or not
	// graded.
	Verdict Status `json:"verdict"`
	// Grades holds one grade per check that ran, in the order they ran.
	// Checks after a required check that failed or was not graded did not
	// run and have no grade.
	Grades []Grade `json:"grades"`
	// Skipped names the checks a required check's failure kept from running.
	Skipped []string `json:"skipped,omitempty"`
	// Error is the subject's error, when it produced no output.
	Error string `json:"error,omitempty"`
	// Output is the graded output, kept only when the runner is asked to
	// with [WithRecordOutputs] (it can be large and sensitive).
	Output *string `json:"output,omitempty"`
}

// CheckInfo is what a grader can learn about the check it runs in, from the
// context a [Runner] passes it: the judge graders use it to decide whether a
// verdict needs a panel.
type CheckInfo struct {
	// CaseID is the case's id.
	CaseID string
	// Severity is the check's severity, or the case's when the check has
	// none.
	Severity Severity
	// Criterion is the check's criterion, if any.
	Criterion string
	// Prior are the grades of the checks that already ran in this attempt,
	// deterministic ones first, with their criteria.
	Prior []PriorGrade
}

// PriorGrade is a grade already given in the attempt, with its check's
// criterion and kind.
type PriorGrade struct {
	// Criterion is the check's criterion ("" when it has none).
	Criterion string
	// Kind is the check's grader kind.
	Kind Kind
	// Grade is what the check gave.
	Grade Grade
}

type checkInfoKey struct{}

// ContextWithCheckInfo returns a copy of ctx carrying info, for graders
// called outside a [Runner] that want the same behaviour.
func ContextWithCheckInfo(ctx context.Context, info *CheckInfo) context.Context {
	return context.WithValue(ctx, checkInfoKey{}, info)
}

// CheckInfoFrom returns the [CheckInfo] in ctx, or nil when the grader is
// called outside a [Runner].
func CheckInfoFrom(ctx context.Context) *CheckInfo {
	info, _ := ctx.Value(checkInfoKey{}).(*CheckInfo)
	return info
}

// Runner grades cases: checks in order (deterministic first), attempts,
// verdicts and a report. A Runner is safe for concurrent use.
type Runner struct {
	cfg    *config
	judges *runJudges
}

// NewRunner returns a Runner configured by opts: [WithConcurrency],
// [WithChecks], [WithSubject], and the judges and embedders the checks use.
// Model-graded checks built without judges ask the Runner's judges (see
// [WithJudges]); each judge's calls in flight are capped by the Runner's
// concurrency unless its [JudgeModel.Concurrency] says otherwise.
func NewRunner(opts ...RunnerOption) *Runner {
	cfg := newRunnerConfig(opts)
	return &Runner{cfg: cfg, judges: &runJudges{jc: cfg.judgeConfig, concurrency: cmp.Or(cfg.concurrency, 4)}}
}

// judgeContext passes the Runner's judges to the graders it runs.
func (r *Runner) judgeContext(ctx context.Context) context.Context {
	return context.WithValue(ctx, runJudgesKey{}, r.judges)
}

// ErrCaseID is returned by [Runner.Run] for a case with no id or an id
// another case has: results, reports and comparisons pair cases by id.
var ErrCaseID = errors.New("proctor: case ids must be set and unique")

// WithSuiteName names the suite a [Runner]'s reports are of:
// [Runner.Run] and [Runner.Finish] set [Report.Suite] to it (Finish when
// the report has no name).
func WithSuiteName(name string) RunnerOption {
	return runnerOption(func(c *config) { c.suite = name })
}

// WithRecordOutputs has a [Runner] keep each case's input and expected
// answer and each attempt's graded output in its results, so a report can
// show what was graded (the HTML report's case view does). Off by default:
// outputs can be large and sensitive. Redactors ([WithResultRedactor]) run
// after, so a held-out split's outputs can still be kept out.
func WithRecordOutputs() RunnerOption {
	return runnerOption(func(c *config) { c.recordOutputs = true })
}

type recordOutputsKey struct{}

// ContextWithRecordOutputs returns a copy of ctx under which a [Runner]
// keeps each case's input, expected answer and graded outputs in the
// results it returns, as [WithRecordOutputs] does, for the calls made with
// it alone: a test helper can then show what a failed case was graded on.
// Redactors ([WithResultRedactor]) still run after, so a held-out split's
// outputs stay out.
func ContextWithRecordOutputs(ctx context.Context) context.Context {
	return context.WithValue(ctx, recordOutputsKey{}, true)
}

// records reports whether results graded under ctx keep their outputs.
func (r *Runner) records(ctx context.Context) bool {
	return r.cfg.recordOutputs || ctx.Value(recordOutputsKey{}) != nil
}

// Concurrency returns how many cases [Runner.Run] grades at once: the
// [WithConcurrency] value, 4 by default.
func (r *Runner) Concurrency() int { return cmp.Or(r.cfg.concurrency, 4) }

// WithResultRedactor has a [Runner] pass every case result through f
// before returning it (from [Runner.Run] and [Runner.RunCase]): to keep
// the outputs of a held-out split out of every report, say. Several are
// applied in the order given.
func WithResultRedactor(f func(CaseResult) CaseResult) RunnerOption {
	return runnerOption(func(c *config) {
		if f != nil {
			c.redactors = append(c.redactors, f)
		}
	})
}

// checkIDs refuses a case without an id and two cases with the same id.
func checkIDs(cases []Case) error {
	seen := make(map[string]int, len(cases))
	for i, c := range cases {
		if c.ID == "" {
			return fmt.Errorf("case #%d has no id: %w", i+1, ErrCaseID)
		}
		if j, dup := seen[c.ID]; dup {
			return fmt.Errorf("cases #%d and #%d have the same id %q: %w", j+1, i+1, c.ID, ErrCaseID)
		}
		seen[c.ID] = i
	}
	return nil
}

// Run grades cases, at most the configured concurrency at a time (see
// [WithConcurrency]), and returns the report with results in the order of
// cases, whatever order they finished in. A case without an id, or with
// the id of another, is refused before any is graded: Run returns a nil
// report and an error wrapping [ErrCaseID]. Within a case, checks run
// deterministic first, then network, then model-graded, whatever order
// they were given in; see [Runner.RunCase].
//
// When ctx is cancelled, Run stops starting cases, waits for the cases
// already started (graders are expected to honour ctx), and returns the
// report of the cases graded to completion, with a caveat saying how many
// were not, together with ctx.Err(). A judge found misconfigured (its
// endpoint refused the key or does not know the model, see
// [ErrJudgeMisconfigured]) stops the run the same way, at once: no call is
// made after it, calls in flight end, and Run returns the report so far
// with the error; a pool built wrong is refused before any case is graded,
// with a nil report. Callers should use the partial report,
// as they use the n > 0 bytes an io.Reader returns with an error: its
// totals count only cases that were graded in full. No goroutine started by
// Run is left running when it returns.
func (r *Runner) Run(ctx context.Context, cases []Case) (*Report, error) {
	if err := checkIDs(cases); err != nil {
		return nil, err
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	results := make([]*CaseResult, len(cases))
	ctx = r.judgeContext(ctx)
	var g errgroup.Group
	g.SetLimit(r.Concurrency())
	for i := range cases {
		if ctx.Err() != nil || r.Err() != nil {
			break
		}
		g.Go(func() error {
			if ctx.Err() != nil || r.Err() != nil {
				return nil
			}
			if res, complete := r.runCase(ctx, &cases[i]); complete {
				results[i] = &res
			}
			return nil
		})
	}
	_ = g.Wait()
	rep := NewReport(r.cfg.suite)
	done := 0
	for _, res := range results {
		if res != nil {
			rep.Add(*res)
			done++
		}
	}
	r.Finish(rep)
	if err := r.Err(); err != nil {
		rep.AddCaveat(fmt.Sprintf("run stopped: %d of %d case%s graded: %v", done, len(cases), kit.Plural(len(cases)), err))
		return rep, err
	}
	if err := ctx.Err(); err != nil && done < len(cases) {
		rep.AddCaveat(fmt.Sprintf("run cancelled: %d of %d case%s graded (%v)", done, len(cases), kit.Plural(len(cases)), err))
		return rep, err
	}
	return rep, nil
}

// Finish completes a report of cases graded with [Runner.RunCase]: it adds
// what the run as a whole knows, the judges' calls, cache hits, tokens,
// cost and agreement since the previous Finish (of the Runner's judges and
// of any judges its checks were built with), and the run's caveats (a same-family
// judge allowed, say). [Runner.Run] calls it; callers that drive RunCase
// themselves (streaming, go test subtests) call it once at the end.
func (r *Runner) Finish(rep *Report) {
	if rep.Suite == "" {
		rep.Suite = r.cfg.suite
	}
	for _, c := range r.cfg.caveats {
		rep.AddCaveat(c)
	}
	for _, f := range r.cfg.finishers {
		f(rep)
	}
	for _, p := range r.judges.asked() {
		p.finish(rep)
	}
}

// RunCase grades one case: every attempt, then the verdict over attempts
// ([CaseVerdict]: all passed, all failed, flaky, or not graded). The
// attempts are the case's recorded outputs (at most [Case.Attempts] of
// them), else [Case.Attempts] calls of the subject (default 1), else the
// case's sample as its one attempt. Each attempt runs the runner's and the
// case's checks ordered by kind, stopping at the first required check that
// fails or is not graded. A cancelled ctx ends the case early: the attempts
// not made are left out and the checks not run are not graded. RunCase
// sees one case at a time and grades it whatever its id: checking that
// ids are set and unique is the caller's, as [Runner.Run] does.
func (r *Runner) RunCase(ctx context.Context, c *Case) CaseResult {
	res, _ := r.runCase(r.judgeContext(ctx), c)
	return res
}

// runCase is RunCase that also says whether the case was graded in full:
// every attempt made and no check cut short by the cancellation of ctx.
// The result has passed through the runner's redactors.
func (r *Runner) runCase(ctx context.Context, c *Case) (CaseResult, bool) {
	res, complete := r.gradeCase(ctx, c)
	for _, f := range r.cfg.redactors {
		res = f(res)
	}
	return res, complete
}

func (r *Runner) gradeCase(ctx context.Context, c *Case) (CaseResult, bool) {
	res := CaseResult{ID: c.ID, Severity: c.Severity, Split: c.Split, Cluster: c.Cluster, Group: c.Group, Tags: slices.Clone(c.Tags), MinPass: c.MinPass}
	if r.records(ctx) {
		res.Input, res.Expected = c.Sample.Input, c.Sample.Expected
	}
	checks := orderChecks(r.cfg.checks, c.Checks)
	n := c.Attempts
	switch {
	case len(c.Outputs) > 0:
		if n <= 0 || n > len(c.Outputs) {
			n = len(c.Outputs)
		}
	case r.cfg.subject == nil:
		n = 1
	case n <= 0:
		n = 1
	}
	var vbuf [8]Status
	verdicts := vbuf[:0]
	res.Attempts = make([]AttemptResult, 0, n)
	complete := true
	for a := range n {
		if ctx.Err() != nil {
			complete = false
			break
		}
		ar, cut := r.attempt(ctx, c, a, checks)
		complete = complete && !cut
		res.Attempts = append(res.Attempts, ar)
		verdicts = append(verdicts, ar.Verdict)
		if c.StopEarly && a+1 < n && gateDecided(verdicts, n, c.MinPass) {
			res.AttemptsSaved = n - a - 1
			break
		}
	}
	res.Verdict = CaseVerdict(verdicts)
	return res, complete || ctx.Err() == nil
}

// attempt produces (or takes) one output and grades it. cut reports that
// ctx was cancelled before the attempt was graded in full.
func (r *Runner) attempt(ctx context.Context, c *Case, a int, checks []Check) (ar AttemptResult, cut bool) {
	var s Sample
	switch {
	case len(c.Outputs) > 0:
		s = merged(c.Sample, c.Outputs[a])
	case r.cfg.subject != nil:
		out, err := callSubject(ctx, r.cfg.subject, c.Sample, a)
		if err != nil {
			g := ErrorGrade("subject failed", err)
			g.Grader = "subject"
			return AttemptResult{Verdict: StatusNotGraded, Error: err.Error(), Grades: []Grade{g}}, ctx.Err() != nil
		}
		s = merged(c.Sample, out)
	default:
		s = c.Sample
	}
	if s.ID == "" {
		s.ID = c.ID
	}
	ar, cut = gradeAttempt(ctx, &s, checks, c.ID, c.Severity)
	if r.records(ctx) {
		out := s.Output
		ar.Output = &out
	}
	return ar, cut
}

// callSubject calls the subject, turning a panic into an error.
func callSubject(ctx context.Context, subj Subject, in Sample, a int) (out Sample, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("subject panicked: %v", v)
		}
	}()
	return subj(ctx, in, a)
}

// GradeAttempt grades one sample with checks in the order given, stopping
// at the first required check that fails or is not graded (the checks after
// it are listed in Skipped), and returns the attempt's verdict
// ([AttemptVerdict]) and grades. Checks are not reordered here; a [Runner]
// orders them first. caseID and severity are passed to non-deterministic
// graders through [CheckInfo]. A panicking grader is not graded with the
// panic message and the attempt goes on. Once ctx is cancelled, the checks
// not yet run are not graded with ctx.Err() as their cause.
func GradeAttempt(ctx context.Context, s *Sample, checks []Check, caseID string, severity Severity) AttemptResult {
	ar, _ := gradeAttempt(ctx, s, checks, caseID, severity)
	return ar
}

func gradeAttempt(ctx context.Context, s *Sample, checks []Check, caseID string, severity Severity) (ar AttemptResult, cut bool) {
	ar.Grades = make([]Grade, 0, len(checks))
	// Earlier grades are kept for the graders that read them (judges).
	needPrior := slices.ContainsFunc(checks, func(c Check) bool { return kindOrNil(c.Grader) != KindDeterministic })
	var prior []PriorGrade
	for i, ch := range checks {
		cut = cut || ctx.Err() != nil
		gctx := ctx
		kind := kindOrNil(ch.Grader)
		if kind != KindDeterministic {
			gctx = ContextWithCheckInfo(ctx, &CheckInfo{
				CaseID:    caseID,
				Severity:  cmp.Or(ch.Severity, severity),
				Criterion: ch.Criterion,
				Prior:     slices.Clone(prior),
			})
		}
		g := ch.Grade(gctx, s)
		ar.Grades = append(ar.Grades, g)
		if needPrior {
			prior = append(prior, PriorGrade{Criterion: ch.Criterion, Kind: kind, Grade: g})
		}
		if ch.Required && g.Status != StatusPassed {
			for _, rest := range checks[i+1:] {
				ar.Skipped = append(ar.Skipped, rest.Name())
			}
			break
		}
	}
	ar.Verdict = AttemptVerdict(ar.Grades)
	return ar, cut || ctx.Err() != nil
}

// orderChecks joins suite and case checks and orders them stably by kind:
// deterministic, network, model.
func orderChecks(suite, own []Check) []Check {
	if len(suite) == 0 && slices.IsSortedFunc(own, byKind) {
		return own // already in order: graded as given, never modified
	}
	all := make([]Check, 0, len(suite)+len(own))
	all = append(all, suite...)
	all = append(all, own...)
	slices.SortStableFunc(all, byKind)
	return all
}

func byKind(a, b Check) int { return cmp.Compare(kindOrNil(a.Grader), kindOrNil(b.Grader)) }

func kindOrNil(g Grader) Kind {
	if g == nil {
		return KindDeterministic
	}
	return KindOf(g)
}

// merged fills the fields a recorded output leaves empty from the case.
func merged(base, out Sample) Sample {
	if out.ID == "" {
		out.ID = base.ID
	}
	if out.Input == "" {
		out.Input = base.Input
	}
	if out.Expected == nil {
		out.Expected, out.ExpectedJSON = base.Expected, base.ExpectedJSON
	}
	if out.References == nil {
		out.References = base.References
	}
	if out.ReferenceIDs == nil {
		out.ReferenceIDs = base.ReferenceIDs
	}
	if out.Context == nil {
		out.Context = base.Context
	}
	if out.ContextIDs == nil {
		out.ContextIDs = base.ContextIDs
	}
	if out.Item == nil {
		out.Item = base.Item
	}
	if out.Model == (Model{}) {
		out.Model = base.Model
	}
	return out
}
