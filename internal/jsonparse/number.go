package jsonparse

import (
	"encoding/json"
	"strconv"
	"strings"
)

// native converts n to int64 or float64 where that keeps its value.
func native(n json.Number) any {
	if !strings.ContainsAny(string(n), ".eE") {
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return i
		}
		return n
	}
	if sigDigits(string(n)) > 15 {
		return n // float64 would not keep every digit
	}
	if f, err := strconv.ParseFloat(string(n), 64); err == nil {
		return f
	}
	return n
}

// sigDigits counts the significant digits of a number's mantissa: every
// digit before the exponent but the leading zeros.
func sigDigits(n string) int {
	count, lead := 0, true
	for i := 0; i < len(n); i++ {
		switch c := n[i]; {
		case c == 'e' || c == 'E':
			return count
		case c == '0' && lead:
		case c >= '0' && c <= '9':
			lead = false
			count++
		}
	}
	return count
}

// number reads an RFC 8259 number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *Parser) number() (json.Number, error) {
	s, i := p.s, p.i
	start := i
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
	default:
		p.i = i
		return "", p.errf("invalid number: want a digit, got %s", p.what())
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			p.i = i
			return "", p.errf("invalid number: want a digit after '.', got %s", p.what())
		}
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			p.i = i
			return "", p.errf("invalid number: want a digit in the exponent, got %s", p.what())
		}
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
	}
	p.i = i
	return json.Number(s[start:i]), nil
}
