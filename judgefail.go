package proctor

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
)

// ErrJudgeMisconfigured is wrapped by the error of a judge that can never
// answer as configured: its endpoint refused the key (401, 403), does not
// know the model or the path (404, "model not found"), or the pool was
// built wrong (two judges with one name, a judge with no Call). Runs stop
// at the first such error rather than make one failing call per case:
// [Runner.Run] returns it, and the command line exits 2. Find the judge
// with errors.As and a *[JudgeConfigError].
var ErrJudgeMisconfigured = errors.New("proctor: judge misconfigured")

// JudgeConfigError says which judge is misconfigured and how. It wraps
// [ErrJudgeMisconfigured] and the judge's own error.
type JudgeConfigError struct {
	// Judge is the judge's name ("" when the pool as a whole is wrong).
	Judge string
	// Status is the HTTP status of the reply that showed it; 0 when there
	// was none.
	Status int
	// Err is the cause: the judge's error, or what is wrong with the pool.
	Err error
}

// Error names the judge, the status and the cause.
func (e *JudgeConfigError) Error() string {
	who := "judge pool"
	if e.Judge != "" {
		who = "judge " + e.Judge
	}
	if e.Status != 0 {
		return fmt.Sprintf("%s is misconfigured (HTTP %d): %v", who, e.Status, e.Err)
	}
	return fmt.Sprintf("%s is misconfigured: %v", who, e.Err)
}

// Unwrap returns [ErrJudgeMisconfigured] and the cause, so that errors.Is
// finds either.
func (e *JudgeConfigError) Unwrap() []error { return []error{ErrJudgeMisconfigured, e.Err} }

// HTTPStatusError is what a judge's error may implement to tell the pool
// the HTTP status of the reply that failed. The pool reads it to stop the
// run on a status no retry can fix (401, 403, 404); judges/openai's
// StatusError implements it.
type HTTPStatusError interface {
	error
	HTTPStatus() int
}

// modelNotFound matches the texts endpoints use for an unknown model
// ("model_not_found", "model 'x' not found", "The model `x` does not
// exist").
var modelNotFound = regexp.MustCompile(`(?i)model_not_found|\bmodel\b[^\n]{0,200}?\b(not found|does not exist|not exist)\b`)

// misconfigured returns the error that stops the run when err, from judge
// name, says the judge cannot answer as configured; nil otherwise. A
// transient error (429, 5xx, a timeout) never does.
func misconfigured(name string, err error) error {
	if err == nil || IsTransient(err) || isContextErr(err) || errors.Is(err, ErrJudgeBudget) ||
		errors.Is(err, ErrJudgeUsage) || errors.Is(err, ErrJudgeCacheMiss) {
		return nil
	}
	if errors.Is(err, ErrJudgeMisconfigured) {
		return err
	}
	status := 0
	if hs, ok := errors.AsType[HTTPStatusError](err); ok {
		status = hs.HTTPStatus()
	}
	switch {
	case status == 401, status == 403, status == 404:
	case status == 400 && modelNotFound.MatchString(err.Error()):
		// Some servers answer an unknown model with 400, saying so.
	default:
		return nil
	}
	return &JudgeConfigError{Judge: name, Status: status, Err: err}
}

// halt stops the pool: every call in flight ends and no call is made
// again; [JudgePool.Err] returns err from now on. The first error stands.
func (p *JudgePool) halt(err error) {
	p.mu.Lock()
	if p.fatal == nil {
		p.fatal = err
	}
	p.mu.Unlock()
	p.stop(err)
}

// Err returns the error that stopped the pool, wrapping
// [ErrJudgeMisconfigured]: a judge whose endpoint refused its key or does
// not know its model (a pool stays stopped once it is: no call is made to
// any of its judges after that), or a pool built wrong (two judges with one
// name, a judge without Call). Nil while the judges can answer.
func (p *JudgePool) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fatal
}

// haltable returns a copy of ctx that ends when the pool halts, and its
// cancel function (which must be called).
func (p *JudgePool) haltable(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(p.halted, cancel)
	return ctx, func() { stop(); cancel() }
}

// Err returns the error that stopped the Runner's judges, or that keeps
// them from starting (a cost budget with an unpriced judge), wrapping
// [ErrJudgeMisconfigured] (see [JudgePool.Err]); nil when there is none. Once it is set the
// Runner calls no judge again: [Runner.Run] returns it without grading,
// and a case given to [Runner.RunCase] has its model-graded checks not
// graded with it as the cause (callers that drive RunCase, as suite.Run
// does, check Err to stop).
func (r *Runner) Err() error {
	if p := r.judges.jc.pool; p != nil {
		if err := p.Err(); err != nil {
			return err
		}
		if err := r.judges.jc.budgetErr(p); err != nil {
			return err
		}
	}
	for _, p := range r.judges.asked() {
		if err := p.Err(); err != nil {
			return err
		}
	}
	return nil
}

// seatCaveats returns the caveat of a pool whose panel can never be seated
// in full: with more than one judge (a panel is meant), fewer than
// [panelSize] judges come from families other than the primary's and each
// other's, so every doubtful verdict would stand with "panel convened
// short". None for a single judge, which means no panel.
func (p *JudgePool) seatCaveats() []string {
	if len(p.judges) < 2 {
		return nil
	}
	order := make([]int, len(p.judges))
	for i := range order {
		order[i] = i
	}
	n := len(p.panel(order, panelSize))
	if n >= panelSize {
		return nil
	}
	pr := p.judges[0]
	return []string{fmt.Sprintf("judge panel cannot be seated: besides the primary %s (family %s), the judges come from %d other model famil%s, and a panel needs %d; doubtful verdicts stand on fewer judges",
		pr.Name, pr.family(), n, pluralIES(n), panelSize)}
}

// pluralIES is "y" for one, "ies" otherwise.
func pluralIES(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
}

// Caveats returns what every report of the pool's judges says about how
// they are configured: a panel that can never be seated in full, say. A
// program can print them as warnings before it runs.
func (p *JudgePool) Caveats() []string { return slices.Clone(p.caveats) }

// Caveats returns the caveats every report of the Runner carries, known
// before any case is graded (a judge panel that cannot be seated,
// same-family judging allowed), for a program to warn with at start.
func (r *Runner) Caveats() []string { return slices.Clone(r.cfg.caveats) }
