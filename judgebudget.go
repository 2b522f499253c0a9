package proctor

import (
	"fmt"

	"github.com/proctorhq/proctor/internal/kit"
)

// JudgePrices are what a judge's model costs, in US dollars per million
// tokens. Zero prices are a free judge (a scripted one, a local model).
type JudgePrices struct {
	// InputPerMTok is the price of a million prompt tokens.
	InputPerMTok float64
	// OutputPerMTok is the price of a million completion tokens,
	// reasoning tokens included.
	OutputPerMTok float64
}

// Reservation bounds: what one call is taken to use at most before it is
// made, so that calls in flight together cannot pass a [JudgeBudget].
const (
	// promptOverhead is tokens a chat template adds around a prompt.
	promptOverhead = 64
	// defaultReserveOutput is the completion tokens reserved for a judge
	// whose [JudgeModel.MaxTokens] is not known.
	defaultReserveOutput = 4096
)

// reservation is what a call was taken to use at most, held against the
// budget while it is in flight.
type reservation struct {
	tokens int
	cost   float64
}

// estimate is the most a call to j with prompt can use: every byte of the
// prompt a token (no tokenizer makes more tokens than bytes), plus the
// template's overhead, plus the judge's completion cap; priced at the
// judge's prices.
func estimate(j JudgeModel, prompt string) reservation {
	in := addSat(len(prompt), promptOverhead)
	out := j.MaxTokens
	if out <= 0 {
		out = defaultReserveOutput
	}
	r := reservation{tokens: addSat(in, out)}
	if pr := j.Prices; pr != nil {
		r.cost = (float64(in)*pr.InputPerMTok + float64(out)*pr.OutputPerMTok) / 1e6
	}
	return r
}

// budgetErr returns the error of a cost budget that cannot hold: a judge
// of pool with no prices, whose calls could not be reserved or counted.
// Nil without a cost budget or when every judge is priced.
func (jc *judgeConfig) budgetErr(pool *JudgePool) error {
	if jc.budget.CostUSD <= 0 || pool == nil {
		return nil
	}
	for _, j := range pool.judges {
		if j.Prices == nil {
			return &JudgeConfigError{Judge: j.Name, Err: fmt.Errorf("judge_budget.cost_usd is $%g but the judge has no prices, so what its calls cost cannot be known or held to the budget: give it prices (zero for a free judge)", jc.budget.CostUSD)}
		}
	}
	return nil
}

// reserve checks the budget and holds a call's most against it: it
// refuses the call when what was spent, what calls in flight hold and this
// call's most together would pass a cap. [JudgePool.settle] or
// [JudgePool.unreserve] must follow.
func (p *JudgePool) reserve(jc *judgeConfig, i int, prompt string) (reservation, error) {
	if err := jc.budgetErr(p); err != nil {
		return reservation{}, err
	}
	b := jc.budget
	res := estimate(p.judges[i], prompt)
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case b.Calls > 0 && p.calls >= b.Calls:
		return reservation{}, fmt.Errorf("%w: %d calls", ErrJudgeBudget, b.Calls)
	case b.Tokens > 0 && addSat(p.tokens, addSat(p.resTokens, res.tokens)) > b.Tokens:
		return reservation{}, fmt.Errorf("%w: %d tokens (%d used, %d held by calls in flight, %d for the next call at most)",
			ErrJudgeBudget, b.Tokens, p.tokens, p.resTokens, res.tokens)
	case b.CostUSD > 0 && p.cost+p.resCost+res.cost > b.CostUSD:
		return reservation{}, fmt.Errorf("%w: $%g ($%.4f spent, $%.4f held by calls in flight, $%.4f for the next call at most)",
			ErrJudgeBudget, b.CostUSD, p.cost, p.resCost, res.cost)
	}
	if b.Tokens <= 0 {
		res.tokens = 0
	}
	if b.CostUSD <= 0 {
		res.cost = 0
	}
	p.calls++
	p.resTokens += res.tokens
	p.resCost += res.cost
	return res, nil
}

// unreserve gives back a reservation whose call was never made.
func (p *JudgePool) unreserve(res reservation) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls--
	p.release(res)
}

func (p *JudgePool) release(res reservation) {
	p.resTokens -= res.tokens
	p.resCost = max(p.resCost-res.cost, 0)
}

// settle replaces a call's reservation with what it reported using, and
// counts the call: its tokens, its cost, an error, a cost not known, and
// r.Requests calls, every request but the last an error (a client's
// fallbacks after a refused parameter and its own retries).
func (p *JudgePool) settle(i int, res reservation, r JudgeReply, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.release(res)
	reqs := max(r.Requests, 1)
	s := &p.stats[i]
	s.Calls += reqs
	s.Errors += reqs - 1
	p.calls += reqs - 1 // reserve counted the first
	s.Tokens = addSat(s.Tokens, r.Tokens)
	s.CostUSD += r.CostUSD
	p.tokens = addSat(p.tokens, r.Tokens)
	p.cost += r.CostUSD
	if err != nil {
		s.Errors++
	}
	if !costKnown(p.judges[i], r, err) {
		s.UnpricedCalls++
	}
}

// costKnown reports whether the cost of a call is known: the judge
// reported one, or it is priced and free, or priced and reported its
// tokens. A call that failed is taken to cost nothing.
func costKnown(j JudgeModel, r JudgeReply, err error) bool {
	switch {
	case r.CostUSD > 0, err != nil:
		return true
	case j.Prices == nil:
		return false
	}
	return r.Tokens > 0 || (j.Prices.InputPerMTok == 0 && j.Prices.OutputPerMTok == 0)
}

// DefaultJudgeFieldLimit is how many bytes of each quoted field (input,
// output, expected answer, context) a judge prompt holds unless
// [WithJudgeFieldLimit] says otherwise: 32 KiB.
const DefaultJudgeFieldLimit = 32 << 10

// WithJudgeFieldLimit caps each field a judge prompt quotes (the input,
// the output, the expected answer, the context passages together) at n
// bytes, so that a huge output cannot cost a huge call. A field cut short
// ends with a line saying how much of it is shown, and the grade's
// evidence lists it. 0 means [DefaultJudgeFieldLimit]; n < 0 quotes every
// field whole.
func WithJudgeFieldLimit(n int) Option {
	return optionFunc(func(c *config) { c.fieldLimit = n })
}

func (jc *judgeConfig) fieldCap() int {
	switch {
	case jc.fieldLimit == 0:
		return DefaultJudgeFieldLimit
	case jc.fieldLimit < 0:
		return -1
	}
	return jc.fieldLimit
}

// capSample returns s with each quoted field cut to limit bytes (the
// context's passages share one limit), and a note for each field cut; s
// itself when nothing is.
func capSample(s *Sample, limit int) (*Sample, []string) {
	if limit < 0 {
		return s, nil
	}
	var notes []string
	c := *s
	clip := func(name string, text *string) {
		if t, ok := kit.CutBytes(*text, limit); ok {
			notes = append(notes, fmt.Sprintf("%s cut to %d of %d bytes in the judge prompt", name, len(t), len(*text)))
			*text = t + cutLine(len(t), len(*text))
		}
	}
	clip("input", &c.Input)
	clip("output", &c.Output)
	if c.Expected != nil {
		e := *c.Expected
		clip("expected", &e)
		c.Expected = &e
	}
	total := 0
	for _, p := range c.Context {
		total += len(p)
	}
	if total > limit {
		left := limit
		ctx := make([]string, 0, len(c.Context))
		for _, p := range c.Context {
			t, _ := kit.CutBytes(p, left)
			if t == "" {
				break
			}
			left -= len(t)
			ctx = append(ctx, t)
		}
		shown := limit - left
		notes = append(notes, fmt.Sprintf("context cut to %d of %d bytes in the judge prompt", shown, total))
		if len(ctx) == 0 {
			ctx = append(ctx, "")
		}
		ctx[len(ctx)-1] += cutLine(shown, total)
		c.Context = ctx
	}
	if len(notes) == 0 {
		return s, nil
	}
	return &c, notes
}

// cutLine is the line that ends a field cut short, in the prompt.
func cutLine(shown, total int) string {
	return fmt.Sprintf("\n[cut by proctor: the first %d of %d bytes are shown]", shown, total)
}
