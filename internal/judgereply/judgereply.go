// Package judgereply reads a judge model's reply as a careful person reads
// it: the verdict, score or category the judge gave, its confidence and
// the reasoning that came before it.
//
// Reading happens in two steps. [Parse] removes what the judge did not say
// in its own voice (text quoted between the prompt's nonce tags, closed
// <think> and <thinking> blocks, blockquotes, inline code, quoted strings,
// JSON that does not decode) and collects every claim the rest makes: JSON
// objects (alone, fenced, after prose; trailing commas tolerated),
// labelled lines ("Verdict: PASS", "**Final score:** 4", "Verdict — fail"),
// headings followed by the word ("## Verdict\nFAIL"), tags
// (<verdict>pass</verdict>), MT-Bench's [[8]] and [[A]], Prometheus's
// [RESULT] 4, and a verdict word alone on the first or last line. Claims
// of one kind that disagree make the reply unreadable. The grader then
// decides from the claims with what only it knows (its scale, its labels):
// see [Reply].
//
// A reply read from anything but the shape the prompt asks for (a JSON
// object with canonical words, or "Verdict:"/"Score:"/"Category:" lines)
// is marked [Reply.Loose] and its Confidence is "low", so that a pool
// convenes its panel rather than trust it alone.
//
// Reading is deterministic: JSON keys are read in the order written, never
// through a map.
package judgereply

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/proctorhq/proctor/internal/kit"
)

// MaxReply is how much of a reply is read; the rest is ignored.
const MaxReply = 64 << 10

// Verdict words, as the prompt asks for them.
const (
	Pass    = "pass"
	Fail    = "fail"
	Abstain = "abstain"
)

// Reply is what a judge wrote, as read.
type Reply struct {
	// Verdict is "pass", "fail" or "abstain" when the reply gave a verdict
	// in a labelled form (JSON key, labelled line, heading, tag), or "".
	Verdict string
	// Bare is "pass" or "fail" when a verdict word stood alone (with
	// decoration) on the reply's first or last line, or "". It never
	// disagrees with Verdict: that reply is unreadable.
	Bare string
	// Confidence is "high", "low", or "" when the reply did not say. It is
	// "low" whenever Loose is set.
	Confidence string
	// Loose is true when the reading rests on a form looser than the
	// prompt asks for (a synonym, a heading, a tag, another framework's
	// shape, a last-line answer).
	Loose bool
	// Criterion is what the judge said would satisfy the criterion.
	Criterion string
	// Violations is what the judge said violates it.
	Violations string
	// Basis is "answer" or "outside" (knowledge), as the judge said.
	Basis string
	// Reasoning is any free reasoning the judge added.
	Reasoning string
	// Score is the score the judge gave, when HasScore. ScoreOf is the
	// scale's top the judge wrote with it ("8/10", "0.7 out of 1"), or 0;
	// Percent is true when it was written "85%" (Score is then 85).
	Score    float64
	HasScore bool
	ScoreOf  float64
	Percent  bool
	// Category is the category or label the judge named under a category
	// key or label ("category", "label", "classification"), or "".
	Category string
	// Choice is the answer the judge gave in a generic form: "Final
	// answer: (B)", "GRADE: C", "[[A]]", "[RESULT] A", {"choice": "Y"},
	// "(B)" alone on a line; decoration and parentheses removed, or "".
	Choice string
	// Last is the reply's last line as read, decoration and any known
	// label removed: where a chain-of-thought classifier's answer sits.
	Last string
	// First is the reply's first line as read, decoration trimmed, when
	// the reply has more than one line and the first is not labelled:
	// where a classifier asked to answer first puts its answer.
	First string
	// Ranking is the order the judge put the answers in, as AlpacaEval's
	// judges write it ([{'model': 'model_1', 'rank': 1}, …]), in the
	// order written.
	Ranking []Ranked
	// Grade is Inspect's "GRADE: C" (correct), "I" (incorrect) or "P"
	// (partially correct), upper case, or "".
	Grade string
	// Dimensions are scores on lines labelled with a name the reader does
	// not know ("Coherence: 2", G-Eval's form), in the order written: a
	// grader whose rubric names the dimension reads them.
	Dimensions []Dimension
	// Text is the reply as read: nonce-quoted text, reasoning blocks,
	// blockquotes, inline code, quoted strings and JSON removed.
	Text string
}

// Ranked is one entry of a judge's ranking: an answer's name and its rank
// (1 is the best).
type Ranked struct {
	Name string
	Rank float64
}

// Dimension is a score on a line labelled with a name: "Coherence: 2".
type Dimension struct {
	Name  string // lower case
	Score float64
}

// Errors that mean a reply is unreadable. Parse returns ErrEmpty and
// ErrContradictory; ErrNoVerdict is for graders that find no verdict,
// score or label of theirs in a reply Parse read.
var (
	ErrEmpty         = errors.New("empty reply")
	ErrNoVerdict     = errors.New("reply has no verdict")
	ErrContradictory = errors.New("reply gives contradictory verdicts")
)

// Parse reads reply. nonce is the prompt's tag nonce ("" when the prompt
// quoted nothing); quoted regions carrying it are removed first. Parse
// returns an error wrapping [ErrEmpty] when nothing is left to read, or
// [ErrContradictory] when claims of one kind disagree. A reply with no
// claim at all is returned without error (its Text and Last may still
// decide for a grader that knows its labels); [Reply.Decided] says
// whether it carried any.
func Parse(reply, nonce string) (Reply, error) {
	if len(reply) > MaxReply {
		reply = reply[:MaxReply]
	}
	// Reasoning blocks go first: a block that names the output's tag
	// ("the text inside <output-NONCE> says …") must not open a quotation
	// that swallows the judge's verdict after the block.
	reply, thought := stripThink(reply)
	if nonce != "" {
		reply = StripQuoted(reply, nonce)
	}
	if strings.TrimSpace(reply) == "" {
		return Reply{}, ErrEmpty
	}
	var c claims
	prose := c.scan(reply)
	c.readLines(prose)
	if len(c.reasoning) == 0 {
		// Reasoning written as prose, or in a reasoning block, is kept.
		c.reasoning = thought
		if len(c.prose) > 0 {
			c.reasoning = append(c.reasoning, strings.Join(c.prose, "\n"))
		}
	}
	return c.reply()
}

// Decided reports whether r carries a verdict, score, category or choice.
func (r Reply) Decided() bool {
	return r.Verdict != "" || r.Bare != "" || r.HasScore || r.Category != "" || r.Choice != "" || len(r.Ranking) > 0 || r.Grade != "" || len(r.Dimensions) > 0
}

// claims collects what a reply says, in the order written.
type claims struct {
	verdicts      []string
	finalVerdicts []string // "Final verdict:" lines
	bare          []string
	scores        []score
	finalScores   []score
	categories    []string
	choices       []string
	loose         bool
	confidence    string
	criterion     string
	violations    string
	basis         string
	reasoning     []string
	prose         []string // the judge's own lines that claim nothing
	grades        []string // Inspect's GRADE: C, I or P
	dims          []Dimension
	ranks         []Ranked
	last          string
	first         string
	asked         bool // the judge wrote a question of its own
	text          string
	err           error
}

// score is one score claim.
type score struct {
	v, of float64
	pct   bool
}

func (c *claims) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("%w: "+format, append([]any{ErrContradictory}, args...)...)
	}
}

// reply checks the claims agree and returns the reading.
func (c *claims) reply() (Reply, error) {
	if c.err != nil {
		return Reply{}, c.err
	}
	r := Reply{
		Criterion: c.criterion, Violations: c.violations, Basis: c.basis,
		Reasoning: strings.Join(c.reasoning, " | "), Last: c.last, First: c.first, Text: c.text,
		Confidence: c.confidence, Loose: c.loose, Ranking: c.ranks, Dimensions: c.dims,
	}
	var err error
	verdicts := c.verdicts
	if len(c.finalVerdicts) > 0 {
		verdicts = c.finalVerdicts
		r.Loose = r.Loose || slices.ContainsFunc(c.verdicts, func(v string) bool { return v != c.finalVerdicts[0] })
	}
	if r.Verdict, err = agree("verdicts", verdicts, same); err != nil {
		return Reply{}, err
	}
	if r.Bare, err = agree("verdicts", c.bare, same); err != nil {
		return Reply{}, err
	}
	if r.Verdict != "" && r.Bare != "" && r.Verdict != r.Bare {
		return Reply{}, fmt.Errorf("%w: %q and %q", ErrContradictory, r.Verdict, r.Bare)
	}
	if r.Category, err = agree("categories", c.categories, SameLabel); err != nil {
		return Reply{}, err
	}
	if r.Choice, err = agree("answers", c.choices, SameLabel); err != nil {
		return Reply{}, err
	}
	if r.Grade, err = agree("grades", c.grades, same); err != nil {
		return Reply{}, err
	}
	scores := c.scores
	if len(c.finalScores) > 0 {
		// "Final score:" and "Overall score:" decide over scores the
		// reasoning gave along the way.
		scores = c.finalScores
	}
	for i, s := range scores {
		if s.v != scores[0].v || s.pct != scores[0].pct || (s.of != 0 && scores[0].of != 0 && s.of != scores[0].of) {
			return Reply{}, fmt.Errorf("%w: scores %v and %v", ErrContradictory, scores[0].v, s.v)
		}
		if i == 0 || s.of != 0 {
			r.Score, r.HasScore, r.Percent = s.v, true, s.pct
			r.ScoreOf = max(r.ScoreOf, s.of)
		}
	}
	if !r.Decided() {
		// Whatever a grader makes of the text is a looser reading.
		r.Loose = true
	}
	if r.Loose {
		r.Confidence = "low"
	}
	return r, nil
}

func same(a, b string) bool { return a == b }

// agree returns the first of xs when all are the same by eq, or an error.
func agree(what string, xs []string, eq func(a, b string) bool) (string, error) {
	if len(xs) == 0 {
		return "", nil
	}
	for _, x := range xs[1:] {
		if !eq(x, xs[0]) {
			return "", fmt.Errorf("%w: %s %q and %q", ErrContradictory, what, clip(xs[0]), clip(x))
		}
	}
	return xs[0], nil
}

// clip shortens s to at most 60 bytes for an error message, cutting at
// the start of a rune so that no character is split.
func clip(s string) string {
	if c, cut := kit.CutBytes(s, 60); cut {
		return c + "…"
	}
	return s
}
