package proctor

// PassedAttempts returns how many of the case's attempts passed.
func (c CaseResult) PassedAttempts() int {
	n := 0
	for _, a := range c.Attempts {
		if a.Verdict == StatusPassed {
			n++
		}
	}
	return n
}

// GatePassed reports whether the case passes a CI gate: its verdict is
// passed, or it is flaky and at least [CaseResult.MinPass] (when set) of
// its attempts passed. A flaky case still counts as flaky in every total:
// the gate is a separate decision, never a pass folded into the counts.
func (c CaseResult) GatePassed() bool {
	switch c.Verdict {
	case StatusPassed:
		return true
	case StatusFlaky:
		return c.MinPass > 0 && c.PassedAttempts() >= c.MinPass
	}
	return false
}

// gateDecided reports whether more attempts could change the gate of a
// case of n attempts whose first ones gave verdicts: with k = minPass (n
// when 0), it is decided once k passed or once more than n-k did not pass.
func gateDecided(verdicts []Status, n, minPass int) bool {
	k := minPass
	if k <= 0 || k > n {
		k = n
	}
	pass := 0
	for _, v := range verdicts {
		if v == StatusPassed {
			pass++
		}
	}
	return pass >= k || len(verdicts)-pass > n-k
}
