package fastschema

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
)

func (n *node) number(x json.Number) result {
	r := valid
	check := func(b *bound, ok func(c int) bool) {
		if b == nil || r == invalid {
			return
		}
		c, known := compare(x, b)
		switch {
		case !known:
			r = unknown
		case !ok(c):
			r = invalid
		}
	}
	check(n.min, func(c int) bool { return c >= 0 })
	check(n.max, func(c int) bool { return c <= 0 })
	check(n.exMin, func(c int) bool { return c > 0 })
	check(n.exMax, func(c int) bool { return c < 0 })
	if n.multiple != nil && r != invalid {
		r = worse(r, n.multipleOf(x))
	}
	return r
}

// plainInt reports whether a JSON number is written as an integer that
// fits an int64 without overflow checks.
func plainInt(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	i, err := strconv.ParseInt(s, 10, 64)
	return i, err == nil
}

func (n *node) multipleOf(x json.Number) result {
	r, _ := n.multipleOfRat(x)
	return r
}

// multipleOfRat is multipleOf that also returns x as an exact rational
// when it built one (nil otherwise), for a reason to quote.
func (n *node) multipleOfRat(x json.Number) (result, *big.Rat) {
	if n.mulInt != 0 {
		if i, ok := plainInt(string(x)); ok {
			return verdict(i%n.mulInt == 0), nil
		}
	}
	r, ok := new(big.Rat).SetString(string(x))
	if !ok {
		return unknown, nil
	}
	// x/m is an integer when x's numerator times m's denominator is a
	// multiple of x's denominator times m's numerator: a remainder, where
	// the quotient as a rational would be reduced by a GCD of numbers as
	// long as x's digits (1e308 has 309).
	num := new(big.Int).Mul(r.Num(), n.multiple.Denom())
	den := new(big.Int).Mul(r.Denom(), n.multiple.Num())
	return verdict(num.Rem(num, den).Sign() == 0), r
}

// compare compares a JSON number with a bound by exact value. The float64
// comparison decides when the two floats differ (rounding keeps order);
// equal floats are compared as rationals.
func compare(x json.Number, b *bound) (int, bool) {
	f, err := strconv.ParseFloat(string(x), 64)
	if err == nil || isRange(err) {
		switch {
		case f < b.f:
			return -1, true
		case f > b.f:
			return 1, true
		}
	}
	r, ok := new(big.Rat).SetString(string(x))
	if !ok {
		return 0, false
	}
	return r.Cmp(b.r), true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// isInteger reports whether a JSON number has an integer value (1.0 and
// 1e2 do), as the validator decides it.
// isInteger reports whether a JSON number's value is an integer: whether
// every digit its exponent moves past the decimal point is 0 ("1.50e1"
// is, "1.25e1" is not). An exponent too large for an int is left to
// exact arithmetic.
func isInteger(x json.Number) bool {
	s := string(x)
	mant, exp, hasExp := s, 0, false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 1<<40 || e < -1<<40 {
			r, ok := new(big.Rat).SetString(s)
			return ok && r.IsInt()
		}
		mant, exp, hasExp = s[:i], e, true
	}
	whole, frac, hasFrac := strings.Cut(strings.TrimPrefix(mant, "-"), ".")
	if !hasExp && !hasFrac {
		return true
	}
	// The digits are whole then frac; the point sits after len(whole)+exp
	// of them.
	for k := max(len(whole)+exp, 0); k < len(whole)+len(frac); k++ {
		d := byte('0')
		if k < len(whole) {
			d = whole[k]
		} else {
			d = frac[k-len(whole)]
		}
		if d != '0' {
			return false
		}
	}
	return true
}
