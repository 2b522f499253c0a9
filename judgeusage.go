package proctor

import (
	"errors"
	"fmt"
	"math"
)

// Bounds on what one judge call may report using. A reply past them (or
// negative, or not a number) comes from a broken or hostile endpoint: it
// is refused as an error, so the judge abstains and the grade says why,
// rather than letting the figures slip past a [JudgeBudget] (negative
// tokens) or overflow its sums.
const (
	// maxCallTokens is more tokens than any model's context holds.
	maxCallTokens = 1 << 30
	// maxCallCostUSD is more than any single call costs.
	maxCallCostUSD = 10_000.0
	// maxCallRequests is more requests than a client's fallbacks and
	// retries make for one call.
	maxCallRequests = 1000
)

// ErrJudgeUsage is the cause of a judge call refused because the usage it
// reported is negative, not a number, or absurdly large.
var ErrJudgeUsage = errors.New("proctor: judge reported impossible usage")

// checkUsage returns an error wrapping [ErrJudgeUsage] when r's tokens or
// cost cannot be true.
func checkUsage(r JudgeReply) error {
	switch {
	case r.Tokens < 0 || r.Tokens > maxCallTokens:
		return fmt.Errorf("%w: %d tokens (want 0 to %d)", ErrJudgeUsage, r.Tokens, maxCallTokens)
	case math.IsNaN(r.CostUSD) || r.CostUSD < 0 || r.CostUSD > maxCallCostUSD:
		return fmt.Errorf("%w: cost $%g (want 0 to %g)", ErrJudgeUsage, r.CostUSD, maxCallCostUSD)
	case r.Requests < 0 || r.Requests > maxCallRequests:
		return fmt.Errorf("%w: %d requests (want 0 to %d)", ErrJudgeUsage, r.Requests, maxCallRequests)
	case !(r.VerdictProbability >= 0 && r.VerdictProbability <= 1):
		return fmt.Errorf("%w: verdict probability %g (want 0 to 1)", ErrJudgeUsage, r.VerdictProbability)
	}
	return nil
}

// addSat returns a + b for non-negative a and b, saturating at the
// largest int instead of wrapping around.
func addSat(a, b int) int {
	if b > 0 && a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}
