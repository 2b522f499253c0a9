package proctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/internal/judgereply"
)

// Verdict is one judge's verdict. The zero value is [VerdictAbstain]: a
// judge that said nothing readable took no side.
type Verdict uint8

const (
	// VerdictAbstain: the judge could not decide, its reply was unreadable,
	// or its call failed.
	VerdictAbstain Verdict = iota
	// VerdictPass: the answer meets the criterion.
	VerdictPass
	// VerdictFail: the answer does not.
	VerdictFail
)

var verdictNames = [...]string{"abstain", "pass", "fail"}

// String returns "pass", "fail" or "abstain" ("verdict_N" out of range).
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "verdict_" + strconv.Itoa(int(v))
}

// MarshalText encodes v as its [Verdict.String] word.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText decodes "pass", "fail" or "abstain".
func (v *Verdict) UnmarshalText(b []byte) error {
	for i, n := range verdictNames {
		if n == string(b) {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("proctor: unknown verdict %q (want pass, fail or abstain)", b)
}

// Confidence is how sure a judge said it was. The zero value is
// [ConfidenceLow]: a reply that states no confidence counts as low.
type Confidence uint8

const (
	// ConfidenceLow is a judge unsure of its verdict, or silent about it;
	// it sends the verdict to a panel.
	ConfidenceLow Confidence = iota
	// ConfidenceHigh is a judge sure of its verdict.
	ConfidenceHigh
)

// String returns "low" or "high".
func (c Confidence) String() string {
	if c == ConfidenceHigh {
		return "high"
	}
	return "low"
}

// MarshalText encodes c as "low" or "high".
func (c Confidence) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText decodes "low" or "high".
func (c *Confidence) UnmarshalText(b []byte) error {
	switch string(b) {
	case "low":
		*c = ConfidenceLow
	case "high":
		*c = ConfidenceHigh
	default:
		return fmt.Errorf("proctor: unknown confidence %q (want low or high)", b)
	}
	return nil
}

// JudgeVote is one judge's part in a grade, as the grade's evidence lists
// it.
type JudgeVote struct {
	// Name, Family and Model identify the judge, as its [JudgeModel] does.
	Name   string `json:"name"`
	Family string `json:"family"`
	Model  string `json:"model,omitempty"`
	// Verdict is the judge's verdict: pass, fail or abstain.
	Verdict Verdict `json:"verdict"`
	// Confidence is how sure the judge said it was, or, when the endpoint
	// gave a VerdictProbability, how sure that probability says it was.
	Confidence Confidence `json:"confidence"`
	// Reasoning is what the judge wrote before its verdict: what would
	// satisfy the criterion and what violates it; when the reply wrote
	// none, the thinking its endpoint returned apart from it
	// ([JudgeReply.Reasoning]), clipped.
	Reasoning string `json:"reasoning"`
	// VerdictProbability is the probability the model gave its verdict's
	// token, the lowest of the vote's replies (pairwise asks twice); nil
	// when the endpoint gave none. When set it decided Confidence, against
	// the judge's [JudgeModel.ConfidenceThreshold].
	VerdictProbability *float64 `json:"verdict_probability,omitempty"`
	// Basis is "answer" or "outside" (knowledge), as the judge said.
	Basis string `json:"basis,omitempty"`
	// Score is the judge's score on the grader's scale (llm_score).
	Score *float64 `json:"score,omitempty"`
	// Category is the judge's category (llm_category).
	Category string `json:"category,omitempty"`
	// Cached is true when no call was made: the reply came from the cache
	// or an identical call in flight.
	Cached bool `json:"cached,omitempty"`
	// Error says why the judge abstained without choosing to: its call
	// failed or its reply was unreadable.
	Error string `json:"error,omitempty"`

	err        error
	score      float64 // normalised to [0, 1] when Score is set
	violations string
	threshold  float64 // the judge's confidence threshold, with VerdictProbability
}

// JudgeEvidence is the [Grade.Evidence] of a model-graded check: every
// judge asked, whether a panel was convened and why, and the tally.
type JudgeEvidence struct {
	// Judges are the votes of every judge asked, the first judge first.
	Judges []JudgeVote `json:"judges"`
	// Panel is true when the first verdict was in doubt and a panel was
	// convened.
	Panel bool `json:"panel"`
	// PanelReasons say why the panel was convened: low confidence, a
	// deterministic check that disagreed, high or critical severity, an
	// abstention.
	PanelReasons []string `json:"panel_reasons,omitempty"`
	// PanelTally counts the verdicts when a panel was convened: the first
	// judge's and those of the panel judges asked. Judges asked one at a
	// time stop once the outcome is settled, so a judge not asked is not
	// counted.
	PanelTally *PanelTally `json:"tally,omitempty"`
	// Skipped names the judges not asked because they share the subject
	// model's family.
	Skipped []string `json:"skipped,omitempty"`
	// PromptVersion is the [PromptVersion] of the prompts the judges read.
	PromptVersion string `json:"prompt_version"`
	// Cut names the fields the prompts quoted only in part, and how much
	// of each (see [WithJudgeFieldLimit]).
	Cut []string `json:"cut,omitempty"`
}

// PanelTally counts a panel's verdicts.
type PanelTally struct {
	// Pass, Fail and Abstain count the panel's votes of each verdict.
	Pass    int `json:"pass"`
	Fail    int `json:"fail"`
	Abstain int `json:"abstain"`
}

// panelSize is how many judges a panel adds to the first.
const panelSize = 2

// judgeRun is one model-graded check being decided.
type judgeRun struct {
	jc      *judgeConfig
	task    *judgeTask
	prompts []builtPrompt
}

// decide asks the first eligible judge, convenes a panel where its verdict
// is in doubt, and turns the votes into a Grade with evidence.
func (jc *judgeConfig) decide(ctx context.Context, s *Sample, t *judgeTask, severity Severity) Grade {
	jc = jc.forRun(ctx)
	if jc.pool == nil {
		return Grade{Status: StatusNotGraded, Err: ErrNoJudge,
			Reason: "no judge configured: model-graded checks need a judge (WithJudges on the grader or the Runner, or judges in --config)"}
	}
	run, order, ev, caveats, g, ok := jc.seat(s, t)
	if !ok {
		return g
	}
	p := jc.pool
	first := run.vote(ctx, p, order[0])
	ev.Judges = append(ev.Judges, first)
	if g, stop := stopped(ctx, first, ev, caveats); stop {
		return g
	}
	reasons := panelReasons(ctx, first, max(severity, severityFrom(ctx)))
	if len(reasons) == 0 {
		// Confident, undisputed, not critical: the first verdict stands.
		g := verdictGrade(first.Verdict, fmt.Sprintf("judge %s: %s, %s confidence%s", first.Name, first.Verdict, first.Confidence, because(first)))
		g = finish(g, []JudgeVote{first}, ev, caveats)
		p.record(ev.Judges, g.Status, false)
		return g
	}
	ev.Panel, ev.PanelReasons = true, reasons
	more := p.panel(order, panelSize)
	if len(more) < panelSize {
		caveats = append(caveats, fmt.Sprintf("panel convened short: %d of %d further judges from distinct model families were available", len(more), panelSize))
	}
	if len(more) == 0 {
		// No other judge may sit: there is no panel whose rule could
		// apply, and the doubtful verdict stands with the caveat above.
		g := verdictGrade(first.Verdict, fmt.Sprintf("judge %s: %s, %s confidence, no panel judge available (%s)%s",
			first.Name, first.Verdict, first.Confidence, strings.Join(reasons, "; "), because(first)))
		if g.Status == StatusNotGraded {
			g.Err = voteErrors(ev.Judges)
		}
		g = finish(g, ev.Judges, ev, caveats)
		p.record(ev.Judges, g.Status, true)
		return g
	}
	if g, stop := run.askPanel(ctx, more, ev, caveats); stop {
		return g
	}
	all := ev.Judges
	n := tallyOf(all)
	ev.PanelTally = &n
	why := strings.Join(reasons, "; ")
	g = panelGrade(n, fmt.Sprintf("%d of %d panel judges asked (%s): %d pass, %d fail, %d abstain",
		len(all), 1+len(more), why, n.Pass, n.Fail, n.Abstain))
	if g.Status == StatusNotGraded {
		g.Err = voteErrors(all)
	}
	g = finish(g, all, ev, caveats)
	p.record(all, g.Status, true)
	return g
}

// askPanel asks the panel judges more, all at once with
// JudgePolicy.PanelParallel, else one at a time until the votes still to come
// cannot change the outcome, adding their votes to ev. stop is true, with
// the grade to give, when the context ended or the budget is spent.
func (r *judgeRun) askPanel(ctx context.Context, more []int, ev *JudgeEvidence, caveats []string) (g Grade, stop bool) {
	p := r.jc.pool
	if r.jc.panelParallel {
		votes := make([]JudgeVote, len(more))
		var wg sync.WaitGroup
		for k, i := range more {
			wg.Go(func() { votes[k] = r.vote(ctx, p, i) })
		}
		wg.Wait()
		ev.Judges = append(ev.Judges, votes...)
		for _, v := range votes {
			if g, stop := stopped(ctx, v, ev, caveats); stop {
				return g, true
			}
		}
		return Grade{}, false
	}
	for k, i := range more {
		if settled(tallyOf(ev.Judges), len(more)-k) {
			break
		}
		v := r.vote(ctx, p, i)
		ev.Judges = append(ev.Judges, v)
		if g, stop := stopped(ctx, v, ev, caveats); stop {
			return g, true
		}
	}
	return Grade{}, false
}

// seat writes the prompts and picks the judges that may grade s, in the
// order to ask them, with the evidence and caveats so far; ok is false,
// with the grade to give, when none may or the prompts cannot be written.
func (jc *judgeConfig) seat(s *Sample, t *judgeTask) (run judgeRun, order []int, ev *JudgeEvidence, caveats []string, g Grade, ok bool) {
	quoted, cut := capSample(s, jc.fieldCap())
	prompts, why := t.build(quoted, jc)
	if why != "" {
		return run, nil, nil, nil, NotGraded(why), false
	}
	run = judgeRun{jc: jc, task: t, prompts: prompts}
	p := jc.pool
	order, skipped := p.eligible(s.Model.Family, jc.allowSameFamily)
	if t.firstName != "" {
		if i := p.index(t.firstName); i >= 0 {
			order = askFirst(order, i)
		}
	}
	ev = &JudgeEvidence{PromptVersion: PromptVersion, Cut: cut}
	if len(cut) > 0 {
		caveats = append(caveats, fmt.Sprintf("judges read fields cut to %d bytes (the grade's evidence says which)", jc.fieldCap()))
	}
	for _, j := range skipped {
		ev.Skipped = append(ev.Skipped, j.Name)
	}
	if len(skipped) > 0 && len(order) > 0 {
		caveats = append(caveats, fmt.Sprintf("judge %s skipped: same family (%s) as the model under test; %s judged instead",
			strings.Join(ev.Skipped, ", "), s.Model.Family, p.judges[order[0]].Name))
	}
	if len(order) == 0 {
		return run, nil, ev, caveats, Grade{Status: StatusNotGraded, Err: ErrNoJudge, Evidence: ev,
			Reason: fmt.Sprintf("no judge may grade a model of family %q: every judge shares it (allow with JudgePolicy.SameFamily)", s.Model.Family)}, false
	}
	if jc.allowSameFamily && sameFamily(p, order, s.Model) {
		caveats = append(caveats, caveatSameFamilyAllowed)
	}
	return run, order, ev, caveats, Grade{}, true
}

// tallyOf counts the votes of each verdict.
func tallyOf(votes []JudgeVote) PanelTally {
	var n PanelTally
	for _, v := range votes {
		switch v.Verdict {
		case VerdictPass:
			n.Pass++
		case VerdictFail:
			n.Fail++
		default:
			n.Abstain++
		}
	}
	return n
}

// panelOutcome is the panel rule: a verdict needs at least two votes that
// took a side and a strict majority of them; otherwise it is not graded.
func panelOutcome(n PanelTally) Status {
	sides := n.Pass + n.Fail
	switch {
	case sides < 2:
		return StatusNotGraded
	case 2*n.Pass > sides:
		return StatusPassed
	case 2*n.Fail > sides:
		return StatusFailed
	}
	return StatusNotGraded
}

// settled reports whether no remaining votes (of any verdicts) could change
// the outcome of tally n.
func settled(n PanelTally, remaining int) bool {
	want := panelOutcome(n)
	for pass := 0; pass <= remaining; pass++ {
		for fail := 0; pass+fail <= remaining; fail++ {
			m := PanelTally{Pass: n.Pass + pass, Fail: n.Fail + fail, Abstain: n.Abstain + remaining - pass - fail}
			if panelOutcome(m) != want {
				return false
			}
		}
	}
	return true
}

// panelGrade turns a panel's tally into a grade whose reason ends with
// detail.
func panelGrade(n PanelTally, detail string) Grade {
	switch panelOutcome(n) {
	case StatusPassed:
		return Pass("panel majority passed: " + detail)
	case StatusFailed:
		return Fail("panel majority failed: " + detail)
	}
	switch {
	case n.Pass+n.Fail == 0:
		return NotGraded("no judge took a side: " + detail)
	case n.Pass+n.Fail < 2:
		return NotGraded("panel undecided: a panel verdict needs at least two judges that took a side: " + detail)
	}
	return NotGraded("panel split evenly, which the rubric does not decide: " + detail)
}

// voteErrors joins the errors of the votes that abstained without choosing
// to (a failed call, an unreadable reply); nil when there were none.
func voteErrors(votes []JudgeVote) error {
	var errs []error
	for _, v := range votes {
		if v.err != nil {
			errs = append(errs, v.err)
		}
	}
	return errors.Join(errs...)
}

// stopped ends the decision when the context ended or the budget is spent:
// no verdict can be trusted to stand for the panel that was not asked.
func stopped(ctx context.Context, v JudgeVote, ev *JudgeEvidence, caveats []string) (Grade, bool) {
	var err error
	switch {
	case ctx.Err() != nil:
		err = ctx.Err()
	case errors.Is(v.err, ErrJudgeBudget), errors.Is(v.err, ErrJudgeCacheMiss), errors.Is(v.err, ErrJudgeMisconfigured):
		err = v.err
	default:
		return Grade{}, false
	}
	g := ErrorGrade("judge not asked", err)
	g.Evidence, g.Caveats = ev, caveats
	return g, true
}

func finish(g Grade, votes []JudgeVote, ev *JudgeEvidence, caveats []string) Grade {
	var sum float64
	var n int
	for _, v := range votes {
		if v.Score != nil {
			sum += v.score
			n++
		}
	}
	if n > 0 {
		g = g.WithScore(sum / float64(n))
	}
	g.Evidence, g.Caveats = ev, caveats
	return g
}

func verdictGrade(v Verdict, reason string) Grade {
	switch v {
	case VerdictPass:
		return Pass(reason)
	case VerdictFail:
		return Fail(reason)
	}
	return NotGraded(reason)
}

func because(v JudgeVote) string {
	if v.Verdict == VerdictFail && v.violations != "" {
		return ": " + kit.ClipRunes(v.violations, 200)
	}
	return ""
}

func sameFamily(p *JudgePool, order []int, m Model) bool {
	f := familyFold(m.Family)
	if f == "" {
		return false
	}
	for _, i := range order {
		if p.judges[i].family() == f {
			return true
		}
	}
	return false
}

func severityFrom(ctx context.Context) Severity {
	if info := CheckInfoFrom(ctx); info != nil {
		return info.Severity
	}
	return SeverityUnset
}

// panelReasons says why the first verdict is in doubt, if it is: it
// abstained (or its reply was unreadable, or its call failed), its
// confidence was low, the check is high or critical severity, or a
// deterministic check disagrees.
func panelReasons(ctx context.Context, first JudgeVote, sev Severity) []string {
	var out []string
	switch {
	case first.Verdict == VerdictAbstain && first.Error != "":
		out = append(out, "the first judge abstained: "+first.Error)
	case first.Verdict == VerdictAbstain:
		out = append(out, "the first judge abstained")
	case first.Confidence == ConfidenceLow && first.VerdictProbability != nil:
		out = append(out, fmt.Sprintf("the first judge's verdict probability %.3f was below %g", *first.VerdictProbability, first.threshold))
	case first.Confidence == ConfidenceLow:
		out = append(out, "the first judge's confidence was low")
	}
	if sev >= SeverityHigh {
		out = append(out, "the check is "+sev.String()+" severity")
	}
	if d := disagreement(CheckInfoFrom(ctx), first.Verdict); d != "" {
		out = append(out, d)
	}
	return out
}

// disagreement reports the deterministic checks that disagree with
// verdict, naming them: only checks that share the judge's criterion count
// (a failed one against a pass, a passed one against a fail). A judge
// check without a criterion is disputed by none: a check of some other
// property (no_pii beside a correctness judge) says nothing about the
// judge's verdict.
func disagreement(info *CheckInfo, v Verdict) string {
	if info == nil || v == VerdictAbstain || info.Criterion == "" {
		return ""
	}
	var passed, failed []string
	for _, pg := range info.Prior {
		if pg.Kind != KindDeterministic || pg.Criterion != info.Criterion {
			continue
		}
		switch pg.Grade.Status {
		case StatusPassed:
			passed = append(passed, pg.Grade.Grader)
		case StatusFailed:
			failed = append(failed, pg.Grade.Grader)
		}
	}
	switch {
	case v == VerdictPass && len(failed) > 0:
		return fmt.Sprintf("deterministic check %s on criterion %q failed where the judge passed", strings.Join(failed, ", "), info.Criterion)
	case v == VerdictFail && len(passed) > 0:
		return fmt.Sprintf("deterministic check %s on criterion %q passed where the judge failed", strings.Join(passed, ", "), info.Criterion)
	}
	return ""
}

// maxVoteReasoning caps, in runes, the thinking kept as a vote's reasoning.
const maxVoteReasoning = 2000

// vote asks judge i every prompt of the run and reads its verdict. A call
// that fails or a reply that cannot be read is an abstention with the
// error; a pairwise verdict that flips with the order is an abstention.
func (r *judgeRun) vote(ctx context.Context, p *JudgePool, i int) JudgeVote {
	j := p.judges[i]
	v := JudgeVote{Name: j.Name, Family: j.Family, Model: j.Model, Confidence: ConfidenceHigh, Cached: true}
	verdicts := make([]Verdict, 0, len(r.prompts))
	var reasoning, violations []string
	for k, pr := range r.prompts {
		reply, cached, err := p.ask(ctx, r.jc, i, pr.text)
		v.Cached = v.Cached && cached
		if err != nil {
			v.err, v.Error = err, callFailed(err)
			return abstained(v)
		}
		v.noteProbability(reply.VerdictProbability)
		rep, read, err := parseAndRead(r.task, reply.Text, pr.nonce)
		if err != nil {
			v.err = err
			v.Error = "unreadable reply: " + err.Error()
			return abstained(v)
		}
		if read.hasScore {
			sc := read.score
			v.Score, v.score = &sc, read.norm
		}
		if read.category != "" {
			v.Category = read.category
		} else if rep.Category != "" {
			v.Category = rep.Category
		}
		vd := read.verdict
		if k == 1 { // pairwise, answers swapped
			vd = swap(vd)
		}
		verdicts = append(verdicts, vd)
		if rep.Confidence != "high" || read.loose {
			v.Confidence = ConfidenceLow
		}
		if rep.Basis != "" {
			v.Basis = rep.Basis
		}
		reasoning = append(reasoning, cmp.Or(reasoningOf(rep), kit.ClipRunes(reply.Reasoning, maxVoteReasoning)))
		if rep.Violations != "" {
			violations = append(violations, rep.Violations)
		}
	}
	v.Reasoning = strings.Join(reasoning, " | ")
	v.violations = strings.Join(violations, " | ")
	v.Verdict = verdicts[0]
	v.confidenceFromProbability(j.threshold())
	for _, x := range verdicts[1:] {
		if x != v.Verdict {
			v.Verdict, v.Confidence = VerdictAbstain, ConfidenceLow
			v.Error = "verdict flipped when the answers were swapped"
		}
	}
	return v
}

// callFailed is a vote's error for a call that failed.
func callFailed(err error) string {
	if errors.Is(err, ErrReplyTruncated) {
		return "reply cut off at the token limit"
	}
	return "judge call failed: " + err.Error()
}

// noteProbability keeps the lowest verdict probability the vote's replies
// gave (0, or out of range, is none).
func (v *JudgeVote) noteProbability(p float64) {
	if p > 0 && p <= 1 && (v.VerdictProbability == nil || p < *v.VerdictProbability) {
		v.VerdictProbability = &p
	}
}

// confidenceFromProbability lets the model's own odds, when it gave them,
// decide the vote's confidence rather than the confidence it wrote.
func (v *JudgeVote) confidenceFromProbability(threshold float64) {
	if v.VerdictProbability == nil {
		return
	}
	v.threshold = threshold
	v.Confidence = ConfidenceHigh
	if *v.VerdictProbability < threshold {
		v.Confidence = ConfidenceLow
	}
}

// parseAndRead parses a reply and turns it into the task's verdict.
func parseAndRead(t *judgeTask, text, nonce string) (judgereply.Reply, readVerdict, error) {
	if t.kind == taskCustom {
		return readCustom(t, text)
	}
	rep, err := judgereply.Parse(text, nonce)
	if err != nil {
		return rep, readVerdict{}, err
	}
	read, err := t.read(rep)
	return rep, read, err
}

func abstained(v JudgeVote) JudgeVote {
	v.Verdict, v.Confidence = VerdictAbstain, ConfidenceLow
	return v
}

func swap(v Verdict) Verdict {
	switch v {
	case VerdictPass:
		return VerdictFail
	case VerdictFail:
		return VerdictPass
	}
	return v
}

func reasoningOf(r judgereply.Reply) string {
	var parts []string
	if r.Criterion != "" {
		parts = append(parts, "Criterion: "+r.Criterion)
	}
	if r.Violations != "" {
		parts = append(parts, "Violations: "+r.Violations)
	}
	if r.Reasoning != "" {
		parts = append(parts, r.Reasoning)
	}
	return strings.Join(parts, " ")
}
