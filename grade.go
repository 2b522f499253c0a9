package proctor

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/proctorhq/proctor/internal/kit"

	"github.com/ohler55/ojg"
)

// Status is the outcome of grading. The zero value is [StatusNotGraded], so
// a Grade that nobody filled in never passes by accident.
type Status uint8

const (
	// StatusNotGraded means the grader could not do its job: no expected
	// value, no judge, a missing measurement, an unreadable judge reply, a
	// panic. It is never folded into pass or fail.
	StatusNotGraded Status = iota
	// StatusPassed means the output met the check.
	StatusPassed
	// StatusFailed means the output broke the check.
	StatusFailed
	// StatusFlaky is a case verdict only: over several attempts some passed
	// and some failed.
	StatusFlaky
)

var statusNames = [...]string{"not_graded", "passed", "failed", "flaky"}

// String returns the word results use for s ("passed", "failed", "not_graded",
// "flaky"), or "status_N" for a value outside the four.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "status_" + strconv.Itoa(int(s))
}

// MarshalText encodes s as its [Status.String] word.
func (s Status) MarshalText() ([]byte, error) {
	if int(s) >= len(statusNames) {
		return nil, fmt.Errorf("proctor: invalid status %d", uint8(s))
	}
	return []byte(statusNames[s]), nil
}

// UnmarshalText decodes one of the four status words. "not graded" with a
// space is accepted as a spelling of "not_graded".
func (s *Status) UnmarshalText(b []byte) error {
	t := string(b)
	if t == "not graded" {
		t = "not_graded"
	}
	for i, n := range statusNames {
		if n == t {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("proctor: unknown status %q (want passed, failed, not_graded or flaky)", b)
}

// Grade is what a [Grader] returns for one sample.
//
// Status decides; Score is advisory and never turns a fail into a pass.
// Reason is for people and may change between releases; programs read
// Status, Score and Evidence.
type Grade struct {
	// Status is passed, failed or not graded.
	Status Status `json:"status"`
	// Score is in [0, 1] when HasScore is true. Graders without a score
	// leave both zero.
	Score float64 `json:"-"`
	// HasScore says whether Score is set; JSON omits score without it.
	HasScore bool `json:"-"`
	// Reason says why, in a sentence: what failed, what could not be graded.
	Reason string `json:"reason"`
	// Grader is the name of the grader that produced the grade. [Check.Grade]
	// fills it in when a grader leaves it empty. The built-in graders leave
	// it empty when called directly (g.Grade(ctx, s)): a grader's name is
	// the check's business, and Check.Grade (Check{Grader: g}.Grade(ctx, s),
	// as the [Runner] calls it) fills it, refuses a flaky status and turns a
	// panic into a not-graded grade.
	Grader string `json:"grader"`
	// Evidence is grader-specific detail (judge verdicts, spans found, the
	// observed tool calls). It must encode as JSON.
	Evidence any `json:"evidence,omitempty"`
	// Caveats are things a reader of the report must know about how this
	// grade was reached (a same-family judge was allowed, a panel was
	// convened short). The report lists each distinct caveat once.
	Caveats []string `json:"caveats,omitempty"`
	// Err keeps the cause of a not-graded grade when there was one (a judge
	// call that failed, a cancelled context), so callers can ask errors.Is.
	// It is not encoded.
	Err error `json:"-"`
}

// String returns the grade for people: the grader (when named), the
// status, the score (when set) and the reason, as in
// "contains: failed (score 0.25): output lacks "Paris"".
func (g Grade) String() string {
	b := make([]byte, 0, 32+len(g.Grader)+len(g.Reason))
	if g.Grader != "" {
		b = append(b, g.Grader...)
		b = append(b, ": "...)
	}
	if g.Status == StatusNotGraded {
		b = append(b, "not graded"...)
	} else {
		b = append(b, g.Status.String()...)
	}
	if g.HasScore {
		b = append(b, " (score "...)
		b = strconv.AppendFloat(b, g.Score, 'g', 4, 64)
		b = append(b, ')')
	}
	if g.Reason != "" {
		b = append(b, ": "...)
		b = append(b, g.Reason...)
	}
	return string(b)
}

// Pass returns a passed Grade with no score.
func Pass(reason string) Grade { return Grade{Status: StatusPassed, Reason: reason} }

// Fail returns a failed Grade with no score.
func Fail(reason string) Grade { return Grade{Status: StatusFailed, Reason: reason} }

// Failf is [Fail] with a format.
func Failf(format string, args ...any) Grade { return Fail(fmt.Sprintf(format, args...)) }

// NotGraded returns a not-graded Grade with the reason the grader could not
// decide.
func NotGraded(reason string) Grade { return Grade{Status: StatusNotGraded, Reason: reason} }

// NotGradedf is [NotGraded] with a format.
func NotGradedf(format string, args ...any) Grade { return NotGraded(fmt.Sprintf(format, args...)) }

// ErrorGrade turns err into a not-graded Grade whose reason is prefix and
// the error's text, keeping err in [Grade.Err] for errors.Is.
func ErrorGrade(prefix string, err error) Grade {
	r := err.Error()
	if prefix != "" {
		r = prefix + ": " + r
	}
	return Grade{Status: StatusNotGraded, Reason: r, Err: err}
}

// Scored returns a Grade that passes when score >= threshold, with the score
// attached. A NaN score is not graded. Scores outside [0, 1] are clamped.
func Scored(score, threshold float64, reason string) Grade {
	if math.IsNaN(score) {
		return NotGraded("score is NaN")
	}
	score = min(max(score, 0), 1)
	st := StatusFailed
	if score >= threshold {
		st = StatusPassed
	}
	return Grade{Status: st, Score: score, HasScore: true, Reason: reason}
}

// WithScore returns g with score attached (clamped to [0, 1]).
func (g Grade) WithScore(score float64) Grade {
	if math.IsNaN(score) {
		return g
	}
	g.Score, g.HasScore = min(max(score, 0), 1), true
	return g
}

// WithEvidence returns g with ev attached as its evidence.
func (g Grade) WithEvidence(ev any) Grade { g.Evidence = ev; return g }

// Passed reports whether g passed.
func (g Grade) Passed() bool { return g.Status == StatusPassed }

// AttemptVerdict combines the grades of one attempt: any failed -> failed;
// else any not graded -> not graded; else passed. An attempt with no grades
// is not graded: nothing was measured.
func AttemptVerdict(grades []Grade) Status {
	if len(grades) == 0 {
		return StatusNotGraded
	}
	out := StatusPassed
	for _, g := range grades {
		switch g.Status {
		case StatusFailed:
			return StatusFailed
		case StatusPassed:
		default:
			out = StatusNotGraded
		}
	}
	return out
}

// CaseVerdict combines attempt verdicts: all measured attempts passed ->
// passed; all failed -> failed; both present -> flaky; no measured attempt
// (every one not graded, or none at all) -> not graded. Not-graded attempts
// are left out of the decision, never counted as pass or fail.
func CaseVerdict(attempts []Status) Status {
	var pass, fail bool
	for _, a := range attempts {
		switch a {
		case StatusPassed:
			pass = true
		case StatusFailed:
			fail = true
		case StatusFlaky:
			pass, fail = true, true
		}
	}
	switch {
	case pass && fail:
		return StatusFlaky
	case pass:
		return StatusPassed
	case fail:
		return StatusFailed
	}
	return StatusNotGraded
}

// gradeJSON is the wire form of a Grade, for decoding: score only when
// there is one.
type gradeJSON struct {
	Grader   string   `json:"grader"`
	Status   Status   `json:"status"`
	Score    *float64 `json:"score,omitempty"`
	Reason   string   `json:"reason"`
	Evidence any      `json:"evidence,omitempty"`
	Caveats  []string `json:"caveats,omitempty"`
}

// MarshalJSON encodes g as a result object (docs/formats.md): grader, status, score
// (omitted when the grader has none), reason, evidence and caveats (each
// omitted when empty). It fails for a status outside the four.
func (g Grade) MarshalJSON() ([]byte, error) { return g.AppendJSON(nil) }

// AppendJSON appends the JSON object [Grade.MarshalJSON] writes to b and
// returns the extended buffer. Without evidence it does not allocate beyond
// growing b, which makes it the cheap way to write many results.
func (g Grade) AppendJSON(b []byte) ([]byte, error) {
	if int(g.Status) >= len(statusNames) {
		return b, fmt.Errorf("proctor: invalid status %d", uint8(g.Status))
	}
	b = append(b, `{"grader":`...)
	b = ojg.AppendJSONString(b, g.Grader, false)
	b = append(b, `,"status":"`...)
	b = append(b, statusNames[g.Status]...)
	b = append(b, '"')
	if g.HasScore {
		b = append(b, `,"score":`...)
		b = appendScore(b, g.Score)
	}
	b = append(b, `,"reason":`...)
	b = ojg.AppendJSONString(b, g.Reason, false)
	if g.Evidence != nil {
		ev, err := kit.MarshalPlain(g.Evidence)
		if err != nil {
			return b, fmt.Errorf("proctor: grade evidence: %w", err)
		}
		if string(ev) != "null" {
			b = append(b, `,"evidence":`...)
			b = append(b, ev...)
		}
	}
	if len(g.Caveats) > 0 {
		b = append(b, `,"caveats":[`...)
		for i, c := range g.Caveats {
			if i > 0 {
				b = append(b, ',')
			}
			b = ojg.AppendJSONString(b, c, false)
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// appendScore writes a score as encoding/json writes a float64. Scores are
// in [0, 1]; anything that is not finite is written as 0 so the line stays
// JSON.
func appendScore(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, '0')
	}
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		return strconv.AppendFloat(b, f, 'g', -1, 64)
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}

// UnmarshalJSON decodes the form [Grade.MarshalJSON] writes. Evidence is
// kept as decoded JSON (maps, slices, numbers).
func (g *Grade) UnmarshalJSON(b []byte) error {
	var w gradeJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*g = Grade{Grader: w.Grader, Status: w.Status, Reason: w.Reason, Evidence: w.Evidence, Caveats: w.Caveats}
	if w.Score != nil {
		g.Score, g.HasScore = *w.Score, true
	}
	return nil
}
