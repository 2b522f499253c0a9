package proctor

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Judge asks a judge model one prompt and returns its reply text. The
// caller injects it: proctor never opens a connection on its own. A Judge
// should call its model at temperature 0, with a fixed seed where the
// endpoint takes one, must honour ctx's cancellation, and must be safe for
// concurrent use.
//
// Privacy: a prompt holds the case's input, output, expected answer and
// context as they are. Whatever the Judge calls receives them; if they
// hold personal data and the judge is a hosted model, that data leaves the
// machine. Redaction is off by default; see [WithRedactor] and
// [RedactBasic].
//
// Return an error wrapped in [TransientError] (or any error with a
// Temporary() bool method returning true) for failures worth retrying
// (rate limits, 5xx); other errors are not retried. A TransientError with
// StatusCode 429, 503 or 529, or a RetryAfter, also tells the pool the
// endpoint is overloaded: it lowers the judge's calls in flight until
// calls succeed again. Either way the judge is recorded as having abstained, with the
// error kept in [Grade.Err] when the check is not graded; a failed call
// never passes or fails a case.
//
// # The reply
//
// Return the model's reply text as it is: proctor reads it as a careful
// person reads it. The llm_* prompts ask for one JSON object with the keys
// criterion, violations, basis, then verdict (pass, fail or abstain),
// score or category, and confidence (high or low); score_model asks for a
// number alone on the last line or {"steps": [...], "result": N};
// label_model for the label alone or {"label": "..."}. A reply in the
// asked shape is read at the confidence it states.
//
// Also read, at low confidence (so that a pool convenes its panel rather
// than trust the first judge alone): verdict synonyms (yes/no, true/false,
// correct/incorrect, 1/0; as JSON strings, booleans or numbers, or on
// labelled lines); decorated verdicts ("PASS ✅", "**FAIL** — wrong
// year", "PASS (high confidence)"); "Verdict -", "Verdict —", a "##
// Verdict" heading followed by the word, <verdict>pass</verdict>, "Final
// answer:", "Result:", "Decision:" lines; a verdict word alone on the first
// or last line; scores as "Final score:", "Overall score:", MT-Bench's
// "Rating: [[8]]", Prometheus's "[RESULT] 4", "85%", "0.7 out of 1" and
// "N/M" when M is the scale's top; categories and labels as an exact label
// on the last line, "(B)", Inspect's "GRADE: C", {"choice": "Y"}, ignoring
// case, closing punctuation, and spaces, underscores and hyphens; pairwise
// [[A]], [[B]], [[C]] (a tie), arena-hard's [[A>>B]] … [[B>>A]] and
// [[A=B]], AlpacaEval's ranking and "[RESULT] A"; promptfoo's {"pass":
// true, "score": 1, "reason": ...} and {"criteria_met": true}; half points
// ([[8.5]]); a line labelled with the rubric's dimension ("Coherence:
// 2"); Inspect's "GRADE: C" on llm_judge; Python dicts, JSON with
// comments, a verdict object wrapped in another, a reply cut off after
// its verdict, Markdown tables.
//
// Not read: closed reasoning blocks (<think>, <thinking>, <reasoning>,
// <scratchpad>; read first, and kept as the vote's reasoning; an unclosed
// tag removes only the tag), blockquotes, inline code, quoted strings
// (but the judge's own claim it introduces, "rated as follows: "Rating:
// [[6]]""), JSON inside a sentence, fenced blocks standing between the
// judge's words, text between the prompt's nonce tags, and any {...} span
// that does not decode (skipped whole, never an object inside it). A label is never found inside another word, in a
// negation ("not factual"), as the article "a" or the pronoun "I".
//
// Unreadable, so the judge abstains with the reason: a reply with no
// verdict, score or category the grader can use; one whose claims
// disagree (JSON and labelled lines, a verdict key repeated with another
// value, "verdict" against "decision", a pass its own score or sign
// contradicts, a score off the scale). The same reply always reads the
// same. See docs/judge-replies.md for the full contract.
type Judge func(ctx context.Context, prompt string) (string, error)

// JudgeReply is a judge's reply with what it cost, for judges that can
// report usage (see [JudgeModel.CallWithUsage]).
type JudgeReply struct {
	// Text is the judge's reply, as [Judge] returns it.
	Text string
	// Tokens is the tokens the call used (prompt and completion); 0 when
	// unknown.
	Tokens int
	// CostUSD is what the call cost; 0 when unknown.
	CostUSD float64
	// Reasoning is thinking the endpoint returned apart from Text (a
	// reasoning model's reasoning_content or thinking blocks). It is
	// never read for the verdict; it becomes the vote's reasoning when
	// Text gives none.
	Reasoning string
	// Requests is the HTTP requests the call made, fallbacks after a
	// refused parameter and the client's own retries included; 0 means
	// 1. Every request but the last one failed, so [JudgeStats] counts
	// Requests calls and Requests-1 errors (all of them when the call
	// returned an error), and the budget's calls count them all.
	Requests int
	// VerdictProbability is the probability the model gave the token of
	// its verdict (from log probabilities), in (0, 1]; 0 when unknown.
	// When known, it decides the vote's confidence against
	// [JudgeModel.ConfidenceThreshold] instead of the confidence the
	// reply states.
	VerdictProbability float64
}

// ErrReplyTruncated is the error a judge returns (wrapped) for a reply cut
// off at its token limit: the verdict may be missing or half written, so
// the reply is not read. The judge abstains with the reason "reply cut
// off at the token limit"; the call is counted, with its tokens and cost.
var ErrReplyTruncated = errors.New("proctor: reply cut off at the token limit")

// DefaultConfidenceThreshold is the verdict probability below which a
// vote has low confidence when [JudgeModel.ConfidenceThreshold] is 0: a
// verdict the model would give the other way once in ten draws is not one
// to let stand without a panel.
const DefaultConfidenceThreshold = 0.9

// UsageJudge is a [Judge] that reports tokens and cost with its reply.
type UsageJudge func(ctx context.Context, prompt string) (JudgeReply, error)

// JudgeModel registers a judge with its model and family. The family decides
// panels (each panel judge comes from a family of its own) and same-family
// refusal (a judge of the subject model's family is skipped by default).
type JudgeModel struct {
	// Name identifies the judge in evidence and stats; unique in a pool.
	Name string
	// Family is the model family ("openai", "anthropic", "google"...),
	// compared case-insensitively. An empty family is treated as a family
	// of its own, named after the judge.
	Family string
	// Model is the model's name, shown in stats and part of the cache key.
	Model string
	// Call asks the judge. One of Call and CallWithUsage is required.
	Call Judge
	// CallWithUsage, when set, is used instead of Call and its usage is
	// counted in [JudgeStats].
	CallWithUsage UsageJudge
	// Prices are the model's prices, by which a [JudgeBudget]'s CostUSD
	// reserves a call's most before it is made, and a call that reported
	// no cost is told free from unknown. Nil means unknown: reports say
	// "cost unknown", and a cost budget with such a judge is an error
	// wrapping [ErrJudgeMisconfigured].
	Prices *JudgePrices
	// MaxTokens is the most completion tokens (reasoning included) one
	// call may use, the cap the judge sends; a budget reserves it before
	// each call. 0 means unknown, reserved as 4096.
	MaxTokens int
	// Concurrency caps the calls in flight to this judge. 0 means the
	// concurrency of the run that asks it: a [Runner]'s [WithConcurrency]
	// (4 by default), or 4 for a grader called outside a Runner. Either
	// way the limit shrinks while the endpoint answers 429, 503 or 529 and
	// grows back as calls succeed (see [TransientError]).
	Concurrency int
	// ConfidenceThreshold is the verdict probability (see
	// [JudgeReply.VerdictProbability]) below which the judge's vote has
	// low confidence, so that a pool convenes its panel; 0 means
	// [DefaultConfidenceThreshold]. Replies without a probability keep
	// the confidence they state.
	ConfidenceThreshold float64
	// Identity is what else shapes the judge's replies: its type, endpoint
	// and parameters (seed, max tokens, structured mode, canned replies).
	// It is part of the judge cache key, so a changed judge is asked
	// again rather than served an old verdict. config fills it.
	Identity string
	// Secrets are values (the API keys of the judges and the embedder) that
	// are removed from everything the judge sends back, its replies and its
	// errors, before they are cached, graded or shown, as is everything
	// the no_secrets detector finds there. config fills it with the value
	// of every api_key_env in the file.
	Secrets []string
}

func (m JudgeModel) threshold() float64 {
	if m.ConfidenceThreshold > 0 {
		return m.ConfidenceThreshold
	}
	return DefaultConfidenceThreshold
}

func (m JudgeModel) family() string {
	if f := familyFold(m.Family); f != "" {
		return f
	}
	return "judge:" + m.Name
}

// call asks the judge, its reply and error scrubbed of secrets.
func (m JudgeModel) call(ctx context.Context, prompt string) (JudgeReply, error) {
	if m.CallWithUsage != nil {
		return m.scrub(m.CallWithUsage(ctx, prompt))
	}
	t, err := m.Call(ctx, prompt)
	return m.scrub(JudgeReply{Text: t}, err)
}

// TransientError marks a judge error as worth retrying (a rate limit, a
// 5xx, a dropped connection). Judges wrap errors in it; the pool retries
// them with exponential backoff and jitter.
type TransientError struct {
	// Err is the judge's error; [TransientError.Unwrap] returns it.
	Err error
	// RetryAfter is the wait the server asked for; 0 means use the backoff.
	// A judge that reports one is overloaded: the pool halves the judge's
	// in-flight limit and starts no call to it before the wait is over.
	RetryAfter time.Duration
	// StatusCode is the HTTP status of the reply that failed, when there
	// was one. 429, 503 and 529 (Anthropic's overloaded) mark the judge as
	// overloaded, as RetryAfter does; other statuses only make the call
	// worth retrying.
	StatusCode int
}

// Error returns the wrapped error's text.
func (e *TransientError) Error() string {
	if e.Err == nil {
		return "transient judge error"
	}
	return e.Err.Error()
}

// Unwrap returns the wrapped error.
func (e *TransientError) Unwrap() error { return e.Err }

// Temporary reports true: the error is worth retrying.
func (e *TransientError) Temporary() bool { return true }

// overloaded reports whether err says the judge is overloaded: a
// [TransientError] with status 429, 503 or 529, or with a Retry-After.
func overloaded(err error) (bool, time.Duration) {
	var te *TransientError
	if !errors.As(err, &te) {
		return false, 0
	}
	if te.StatusCode == 429 || te.StatusCode == 503 || te.StatusCode == 529 || te.RetryAfter > 0 {
		return true, te.RetryAfter
	}
	return false, 0
}

// IsTransient reports whether err, or an error it wraps, has a Temporary()
// method that returns true.
func IsTransient(err error) bool {
	var t interface{ Temporary() bool }
	return errors.As(err, &t) && t.Temporary()
}

// ErrJudgeBudget is the cause of grades left not graded because the run's
// judge budget ([JudgePolicy.Budget]) was spent.
var ErrJudgeBudget = errors.New("proctor: judge budget spent")

// ErrNoJudge is the cause of model-graded grades when no judge is
// configured, or none may grade the sample's model family.
var ErrNoJudge = errors.New("proctor: no judge")

// JudgeBudget caps what a run may spend on judges. Zero fields are
// unlimited. Once a cap is reached, the remaining model-graded checks are
// not graded with [ErrJudgeBudget] as the cause. Cached replies are free.
//
// The caps hold under concurrency: before each call the pool reserves the
// most the call can use (a token per prompt byte, no tokenizer makes
// more, plus the judge's [JudgeModel.MaxTokens], at its
// [JudgeModel.Prices]) and refuses the call when what was spent, what the
// calls in flight hold and this reservation together would pass a cap;
// once the call returns, the reservation is replaced by what the judge
// reported. A cap smaller than one call's most therefore makes no call. A
// CostUSD cap with a judge that has no prices is an error wrapping
// [ErrJudgeMisconfigured]: [Runner.Run] refuses to start.
type JudgeBudget struct {
	// Calls caps the judge calls made (retries included).
	Calls int
	// Tokens caps the tokens judges report through [UsageJudge].
	Tokens int
	// CostUSD caps the cost judges report through [UsageJudge].
	CostUSD float64
}

// JudgeRetry says how transient judge errors are retried.
type JudgeRetry struct {
	// Attempts is the number of calls including the first; 0 means 3, 1
	// means no retry.
	Attempts int
	// Base is the first backoff; 0 means 250ms. Each retry doubles it, up
	// to Max (0 means 5s), and waits a random duration up to it ("full
	// jitter").
	Base, Max time.Duration
}

// judgeConfig holds the judges and the policy for asking them. A grader
// keeps a copy of it, taken when the grader is built.
type judgeConfig struct {
	pool            *JudgePool
	allowSameFamily bool
	redact          func(string) string
	budget          JudgeBudget
	cacheDir        string
	cacheSecret     []byte        // WithJudgeCacheKey
	timeout         time.Duration // per call; 0 means 60s
	retry           JudgeRetry
	cacheMode       JudgeCacheMode
	panelParallel   bool
	runConcurrency  int // the asking Runner's concurrency; 0 outside a Runner
	fieldLimit      int // bytes of each quoted field; 0 default, < 0 none (judgebudget.go)
}

// runJudges is what a [Runner] tells the graders it runs, through their
// context: its judges and policy for graders built without judges, its
// concurrency for the judges' limits, and where to note the pools asked so
// that its report counts them.
type runJudges struct {
	jc          judgeConfig
	concurrency int

	mu    sync.Mutex
	pools []*JudgePool // pools other than jc.pool that checks asked
}

type runJudgesKey struct{}

// forRun returns the judge config a grader uses in ctx: its own when it
// has judges, else the Runner's; with the Runner's concurrency either way.
func (jc *judgeConfig) forRun(ctx context.Context) *judgeConfig {
	rj, _ := ctx.Value(runJudgesKey{}).(*runJudges)
	if rj == nil {
		return jc
	}
	var c judgeConfig
	if jc.pool != nil {
		c = *jc
		rj.note(jc.pool)
	} else {
		c = rj.jc
	}
	c.runConcurrency = rj.concurrency
	return &c
}

// runnerPool returns the judges of the Runner running in ctx, nil outside
// a Runner or when it has none.
func runnerPool(ctx context.Context) *JudgePool {
	if rj, _ := ctx.Value(runJudgesKey{}).(*runJudges); rj != nil {
		return rj.jc.pool
	}
	return nil
}

// note records that a check asked pool p.
func (rj *runJudges) note(p *JudgePool) {
	if p == rj.jc.pool {
		return
	}
	rj.mu.Lock()
	defer rj.mu.Unlock()
	if !slices.Contains(rj.pools, p) {
		rj.pools = append(rj.pools, p)
	}
}

// asked returns the pools noted, in the order first asked.
func (rj *runJudges) asked() []*JudgePool {
	rj.mu.Lock()
	defer rj.mu.Unlock()
	return slices.Clone(rj.pools)
}

// WithJudges configures the judges: primary is asked first, panel are the
// judges a panel is drawn from. It is shorthand for [NewJudgePool]; use
// that when you want [JudgePool.Stats]. A judge with no Call, or two
// judges that share a name, make the pool refuse to run: [Runner.Run]
// returns an error wrapping [ErrJudgeMisconfigured] (see [NewJudgePool]).
//
// Giving it to the [Runner] is enough: a model-graded check built without
// judges (by the [Compiler] or a constructor such as [NewLLMJudge]) asks
// the Runner's judges, under the Runner's judge policy (cache, budget,
// timeout, retries, redactor, panel mode). A check built with judges of
// its own keeps them and its own policy, whatever the Runner was given:
// the grader's judges win. The Runner's reports count the calls of every
// pool its checks asked, its own and the graders', once each.
func WithJudges(primary JudgeModel, panel ...JudgeModel) Option {
	return NewJudgePool(primary, panel...)
}

// JudgePolicy is how the judges are asked: what the run may spend, how
// calls are retried and bounded, the disk cache, how a panel is asked and
// whether a judge may grade its own model family. Its zero value is the
// default in every field. Give it with [WithJudgePolicy].
type JudgePolicy struct {
	// Budget caps what the run spends on judges; see [JudgeBudget]. The
	// default is no cap.
	Budget JudgeBudget
	// Retry sets how transient judge errors are retried; the default is 3
	// attempts with backoff from 250ms.
	Retry JudgeRetry
	// Timeout bounds each judge call; the default is 60s. A call that runs
	// out of time is retried as a transient error.
	Timeout time.Duration
	// CacheDir keeps judge replies in this folder (created if missing), one
	// file per (judge model, prompt version, prompt), so a rerun of an
	// unchanged suite asks no judge. Replies are cached in memory for the
	// life of the pool either way. The default is no disk cache.
	CacheDir string
	// CacheMode says how the disk cache is used; see [JudgeCacheMode].
	// Replay without a CacheDir replays nothing: every model-graded check
	// is not graded.
	CacheMode JudgeCacheMode
	// PanelParallel asks a convened panel's judges all at once, for
	// latency. By default they are asked one at a time and the panel stops
	// as soon as its outcome is decided (two judges that took the same side
	// and that no remaining vote could outnumber), so an escalation the
	// first panel judge settles costs two calls, not three.
	PanelParallel bool
	// SameFamily lets a judge of the same family as the model under test
	// grade it. By default such judges are skipped (the next eligible judge
	// becomes the primary, and the grade's caveats say so) because a model
	// judging its own family measures self-agreement. When set, every
	// [Runner] report carries a caveat saying same-family judging was
	// allowed.
	SameFamily bool
}

// WithJudgePolicy sets how the judges are asked; see [JudgePolicy]. Given
// more than once (a config file's policy, then the caller's), each field
// that is set replaces the one before and a zero field keeps it, so
// WithJudgePolicy(JudgePolicy{PanelParallel: true}) after a config's
// budget keeps the budget.
func WithJudgePolicy(p JudgePolicy) Option {
	return optionFunc(func(c *config) {
		if p.Budget != (JudgeBudget{}) {
			c.budget = p.Budget
		}
		if p.Retry != (JudgeRetry{}) {
			c.retry = p.Retry
		}
		c.timeout = cmp.Or(p.Timeout, c.timeout)
		c.cacheDir = cmp.Or(p.CacheDir, c.cacheDir)
		c.cacheMode = cmp.Or(p.CacheMode, c.cacheMode)
		c.panelParallel = c.panelParallel || p.PanelParallel
		if p.SameFamily && !c.allowSameFamily {
			c.allowSameFamily = true
			c.caveats = append(c.caveats, caveatSameFamilyAllowed)
		}
	})
}

const caveatSameFamilyAllowed = "same-family judging was allowed: judges may share the model family of the model under test, so their verdicts may measure self-agreement"

// WithRedactor sets a function applied to every text sent to a judge (the
// rubric, input, output, expected, context and baseline) before the prompt is
// built. Off by default: without it judged text is sent as it is. See
// [RedactBasic] for a simple built-in one.
func WithRedactor(f func(string) string) Option {
	return optionFunc(func(c *config) { c.redact = f })
}

// JudgeCacheMode says how the disk judge cache ([JudgePolicy.CacheDir])
// is used. Its text form is "read_write", "replay" or "record".
type JudgeCacheMode uint8

const (
	// JudgeCacheReadWrite, the default, serves recorded replies and
	// records the replies of the calls it makes.
	JudgeCacheReadWrite JudgeCacheMode = iota
	// JudgeCacheReplay serves recorded replies and never calls a judge: a
	// prompt with no recorded reply is not graded, with [ErrJudgeCacheMiss]
	// as the cause. For hermetic CI runs on recorded judgements.
	JudgeCacheReplay
	// JudgeCacheRecord calls the judges for every prompt, ignoring what is
	// recorded, and records their replies.
	JudgeCacheRecord
)

var judgeCacheModeNames = [...]string{"read_write", "replay", "record"}

// String returns "read_write", "replay" or "record" ("cache_mode_N" out
// of range).
func (m JudgeCacheMode) String() string {
	if int(m) < len(judgeCacheModeNames) {
		return judgeCacheModeNames[m]
	}
	return "cache_mode_" + strconv.Itoa(int(m))
}

// ErrJudgeCacheMiss is the cause of grades left not graded because the
// judge cache is in [JudgeCacheReplay] mode and held no reply.
var ErrJudgeCacheMiss = errors.New("proctor: no recorded judge reply (judge cache in replay mode)")

func (jc *judgeConfig) redacted(s string) string {
	if jc.redact == nil || s == "" {
		return s
	}
	return jc.redact(s)
}

func (jc *judgeConfig) callTimeout() time.Duration {
	if jc.timeout > 0 {
		return jc.timeout
	}
	return 60 * time.Second
}

func (r JudgeRetry) attempts() int {
	if r.Attempts > 0 {
		return r.Attempts
	}
	return 3
}

func (r JudgeRetry) backoff(retry int) time.Duration {
	base, most := r.Base, r.Max
	if base <= 0 {
		base = 250 * time.Millisecond
	}
	if most <= 0 {
		most = 5 * time.Second
	}
	d := base << min(retry, 20)
	if d <= 0 || d > most {
		d = most
	}
	return d
}

// familyFold is the form model families are compared in.
func familyFold(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// llmJudgeSpec builds a llm_judge grader from its spec.
func llmJudgeSpec(o *SpecOptions) (Grader, error) {
	rubric := o.RequireString("rubric")
	jo, with := judgeSpecOptions(o)
	g, err := NewLLMJudge(rubric, jo, with...)
	return specGrader(o, "rubric", g, err)
}

// llmAnswerMatchSpec builds a llm_answer_match grader from its spec.
func llmAnswerMatchSpec(o *SpecOptions) (Grader, error) {
	jo, with := judgeSpecOptions(o)
	opts := LLMAnswerMatchOptions{JudgeOptions: jo}
	if e, ok := o.OptString("expected"); ok {
		opts.Expected = &e
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	return NewLLMAnswerMatch(opts, with...), nil
}

// builtinJudgeSpec is the builder of a built-in judge type that takes only
// the judge options, mk its constructor.
func builtinJudgeSpec(mk func(JudgeOptions, ...CompilerOption) *LLMJudge) Builder {
	return func(o *SpecOptions) (Grader, error) {
		jo, with := judgeSpecOptions(o)
		return mk(jo, with...), nil
	}
}

// judgeSpecTypes documents the judges family's spec types llm_judge,
// llm_score, llm_category, llm_pairwise, llm_answer_match, faithfulness,
// relevance, hallucination and toxicity, for [Compiler.SpecTypes], with
// their builders.
func judgeSpecTypes() []SpecType {
	return []SpecType{
		{Name: "llm_judge", Build: llmJudgeSpec, Family: "judges", Summary: "a judge gives a pass or fail verdict on a rubric",
			About:   "The judge reasons first and may abstain; an abstention is not graded.",
			Options: []SpecOptionDoc{docJudgeRubric()},
			Example: `{"type": "llm_judge", "rubric": "The reply apologises and offers a refund."}`},
		{Name: "llm_score", Build: llmScoreSpec, Family: "judges", Summary: "a judge scores the output on a scale",
			About: "Give scale with pass_at, or range [0, 1] with threshold.",
			Options: []SpecOptionDoc{
				{"rubric", "string", "(required without prompt)", "What the judge checks, in plain words. " + docTemplates},
				{"prompt", "string", "none", "Your own judge prompt, sent in place of proctor's (an MT-Bench prompt, say), with the template variables `{{input}}`, `{{output}}`, `{{expected}}`, `{{item.KEY}}`. The reply is read in the shape the prompt asks for (`Rating: [[8]]`, `[RESULT] 4`, ...) on `scale`. It carries no nonce tags, so it has none of the defence proctor's prompts have against an output that imitates a verdict."},
				{"scale", "two integers [low, high]", "[1, 4]", "The scale the judge scores on."},
				{"pass_at", "integer", "3 on [1, 4]; else two thirds up the scale", "The lowest passing score."},
				{"range", "[0, 1]", "none", "Score on [0, 1] instead of a scale."},
				{"threshold", "number in [0, 1]", "(required with range)", "The lowest passing score on range."},
				{"whole_scores", "boolean", "false", "Refuse half points on the scale: a reply scoring 3.5 is then unreadable. By default a half point (MT-Bench's `[[8.5]]`) is read as written."},
			},
			Example: `{"type": "llm_score", "rubric": "How complete is the answer?", "scale": [1, 5], "pass_at": 4}`},
		{Name: "llm_category", Build: llmCategorySpec, Family: "judges", Summary: "a judge puts the output in a category",
			Options: []SpecOptionDoc{
				{"categories", "string array", "(required)", "The categories the judge chooses from."},
				{"pass", "string array", "(required)", "The categories that pass."},
				{"rubric", "string", "none", "What the categories mean. " + docTemplates},
			},
			Example: `{"type": "llm_category", "categories": ["resolved", "escalated", "ignored"], "pass": ["resolved"]}`},
		{Name: "llm_pairwise", Build: llmPairwiseSpec, Family: "judges", Summary: "a judge compares the output with a baseline",
			About: "Judged in both orders; a verdict that flips with the order is an abstention.",
			Options: []SpecOptionDoc{
				{"baseline", "string", "(required)", "The answer to beat. " + docTemplates},
				{"rubric", "string", "none", "What better means. " + docTemplates},
				{"prompt", "string", "none", "Your own judge prompt, sent in place of proctor's (an arena-hard or MT-Bench pairwise prompt, say), in both orders. `{{answer_a}}` and `{{answer_b}}` place the two answers (both required); `{{input}}`, `{{expected}}` and `{{item.KEY}}` are the sample's. The reply is read in the shape the prompt asks for: `[[A>>B]]` … `[[B>>A]]`, `[[A=B]]`, `[[A]]`, `[[B]]`, `[[C]]`, a ranking. It carries no nonce tags."},
			},
			Example: `{"type": "llm_pairwise", "baseline": "{{item.previous_answer}}"}`},
		{Name: "llm_answer_match", ExpectedTemplate: true, Build: llmAnswerMatchSpec, Family: "judges", Summary: "a judge decides whether the output means the same as the expected answer",
			Options: []SpecOptionDoc{{"expected", "string", "the sample's expected", "The answer to match. " + docValueTemplate}},
			Example: `{"type": "llm_answer_match"}`},
		{Name: "faithfulness", Build: builtinJudgeSpec(NewFaithfulness), Family: "judges", Summary: "a judge checks that the output claims nothing the context does not support",
			Example: `{"type": "faithfulness"}`},
		{Name: "relevance", Build: builtinJudgeSpec(NewRelevance), Family: "judges", Summary: "a judge checks that the output answers the input",
			Example: `{"type": "relevance"}`},
		{Name: "hallucination", Build: builtinJudgeSpec(NewHallucination), Family: "judges", Summary: "a judge checks the output for invented facts",
			Example: `{"type": "hallucination"}`},
		{Name: "toxicity", Build: builtinJudgeSpec(NewToxicity), Family: "judges", Summary: "a judge checks the output for abusive or hateful content",
			Example: `{"type": "toxicity"}`},
	}
}
