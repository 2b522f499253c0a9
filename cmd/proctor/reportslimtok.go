package main

import (
	"strings"
	"unicode/utf8"

	"github.com/ohler55/ojg/oj"
)

// Where a token sits in a case's JSON.
type slimCtx uint8

const (
	inOther    slimCtx = iota // a value nothing reads (evidence, unknown keys)
	inCase                    // the case object
	inAttempts                // its attempts list
	inAttempt                 // an attempt object
	inGrades                  // an attempt's grades list
	inGrade                   // a grade object
	inCaveats                 // a grade's caveats list
	inSkipped                 // an attempt's skipped list
	inTags                    // the case's tags list
)

// slimList returns the list t's key k holds (attempts, grades, skipped,
// caveats) and whether it holds one.
func slimList(t slimCtx, k string) (slimCtx, bool) {
	switch {
	case t == inCase && k == "attempts":
		return inAttempts, true
	case t == inCase && k == "tags":
		return inTags, true
	case t == inAttempt && k == "grades":
		return inGrades, true
	case t == inAttempt && k == "skipped":
		return inSkipped, true
	case t == inGrade && k == "caveats":
		return inCaveats, true
	}
	return inOther, false
}

// slimScalar returns the kind of value the whole decode takes in t's
// other field k: s a string, i an integer, f a number, * anything; false
// for a key it ignores.
func slimScalar(t slimCtx, k string) (byte, bool) {
	switch t {
	case inCase:
		switch k {
		case "id", "verdict", "severity", "split", "cluster", "group", "input", "expected":
			return 's', true
		case "min_pass", "attempts_saved":
			return 'i', true
		}
	case inAttempt:
		switch k {
		case "verdict", "error", "output":
			return 's', true
		}
	case inGrade:
		switch k {
		case "grader", "status", "reason":
			return 's', true
		case "score":
			return 'f', true
		case "evidence":
			return '*', true
		}
	}
	return 0, false
}

// slimFields are the keys of t the whole decode reads.
var slimFields = [...][]string{
	inCase:    {"id", "verdict", "severity", "split", "cluster", "group", "tags", "min_pass", "attempts_saved", "attempts", "input", "expected"},
	inAttempt: {"verdict", "grades", "skipped", "error", "output"},
	inGrade:   {"grader", "status", "score", "reason", "evidence", "caveats"},
	inCaveats: nil,
	inSkipped: nil,
	inTags:    nil,
}

// slimTokens fills a slimCase from ojg's tokens of one case's JSON, about
// five times faster than encoding/json. Anything it is not sure
// encoding/json would decode the same way (a wrong type, a key matching a
// field only case-blind, a string that is not UTF-8, a fraction where an
// integer is wanted) sets bad, and the caller decodes the case with
// encoding/json instead, for its result or its error.
type slimTokens struct {
	c     *slimCase
	ctx   []slimCtx // the open containers, innermost last
	key   string    // the key of the value coming, in an object
	bad   bool
	depth int // containers open inside an inOther value
}

func (h *slimTokens) top() slimCtx {
	if len(h.ctx) == 0 {
		return inOther
	}
	return h.ctx[len(h.ctx)-1]
}

func (h *slimTokens) attempt() *slimAttempt { return &h.c.Attempts[len(h.c.Attempts)-1] }

func (h *slimTokens) grade() *slimGrade {
	a := h.attempt()
	return &a.Grades[len(a.Grades)-1]
}

// Key records k, refusing one that matches a field only case-blind (as
// encoding/json would match it).
func (h *slimTokens) Key(k string) {
	h.key = k
	if h.depth > 0 {
		return
	}
	t := h.top()
	_, list := slimList(t, k)
	_, scalar := slimScalar(t, k)
	if list || scalar {
		return
	}
	for _, f := range slimFields[t] {
		h.bad = h.bad || strings.EqualFold(f, k)
	}
}

// scalar handles a value that is not a container; kind is as in
// slimScalar, or 'z' for null, 'b' for a boolean.
func (h *slimTokens) scalar(kind byte, s string, f float64) {
	if h.depth > 0 {
		return
	}
	if len(h.ctx) == 0 {
		h.bad = true // a case that is not an object
		return
	}
	switch t := h.top(); t {
	case inAttempts, inGrades:
		h.bad = true
	case inCaveats, inSkipped, inTags:
		h.bad = h.bad || kind != 's' || !utf8.ValidString(s)
		switch t {
		case inCaveats:
			g := h.grade()
			g.Caveats = append(g.Caveats, s)
		case inTags:
			h.c.Tags = append(h.c.Tags, s)
		}
	case inCase, inAttempt, inGrade:
		if kind == 'z' {
			// encoding/json leaves a scalar field as it is, but sets a
			// list to nil: left to it.
			_, list := slimList(t, h.key)
			h.bad = h.bad || list
			return
		}
		if _, list := slimList(t, h.key); list {
			h.bad = true
			return
		}
		want, ok := slimScalar(t, h.key)
		switch {
		case !ok || want == '*':
		case want != kind && !(want == 'f' && kind == 'i'):
			h.bad = true
		case kind == 's' && !utf8.ValidString(s):
			h.bad = true
		default:
			h.set(t, s, f)
		}
	}
}

// set stores a value of the right kind in its slim field.
func (h *slimTokens) set(t slimCtx, s string, f float64) {
	var err error
	switch t {
	case inCase:
		c := h.c
		switch h.key {
		case "id":
			c.ID = s
		case "verdict":
			err = c.Verdict.Verdict.UnmarshalText([]byte(s))
		case "severity":
			err = c.Severity.UnmarshalText([]byte(s))
		case "split":
			c.Split = s
		case "cluster":
			c.Cluster = s
		case "group":
			c.Group = s
		case "min_pass":
			c.MinPass = int(f)
		case "attempts_saved":
			c.AttemptsSaved = int(f)
		}
	case inAttempt:
		if h.key == "verdict" {
			err = h.attempt().Verdict.UnmarshalText([]byte(s))
		}
	case inGrade:
		g := h.grade()
		switch h.key {
		case "grader":
			g.Grader = s
		case "status":
			err = g.Status.UnmarshalText([]byte(s))
		case "score":
			g.Score = &f
		}
	}
	h.bad = h.bad || err != nil
}

// open enters a container.
func (h *slimTokens) open(list bool) {
	if h.depth > 0 {
		h.depth++
		return
	}
	t := h.top()
	next := inOther
	switch {
	case len(h.ctx) == 0:
		next = inCase
		h.bad = h.bad || list
	case t == inAttempts || t == inGrades:
		next = inAttempt
		if t == inGrades {
			next = inGrade
		}
		h.bad = h.bad || list
		if t == inAttempts {
			h.c.Attempts = append(h.c.Attempts, slimAttempt{})
		} else {
			a := h.attempt()
			a.Grades = append(a.Grades, slimGrade{})
		}
	case t == inCaveats || t == inSkipped || t == inTags:
		h.bad = true
	default:
		if l, ok := slimList(t, h.key); ok {
			next = l
			// A list given twice is replaced by encoding/json, not
			// appended to: left to it.
			h.bad = h.bad || !list || h.filled(l)
		} else if k, ok := slimScalar(t, h.key); ok && k != '*' {
			h.bad = true
		}
	}
	if next == inOther {
		h.depth = 1
		return
	}
	h.ctx = append(h.ctx, next)
}

// filled reports whether the list l of the current object has elements.
func (h *slimTokens) filled(l slimCtx) bool {
	switch l {
	case inAttempts:
		return len(h.c.Attempts) > 0
	case inGrades:
		return len(h.attempt().Grades) > 0
	case inCaveats:
		return len(h.grade().Caveats) > 0
	case inTags:
		return len(h.c.Tags) > 0
	}
	return false
}

func (h *slimTokens) close() {
	if h.depth > 0 {
		h.depth--
		return
	}
	h.ctx = h.ctx[:len(h.ctx)-1]
}

func (h *slimTokens) ObjectStart()    { h.open(false) }
func (h *slimTokens) ArrayStart()     { h.open(true) }
func (h *slimTokens) ObjectEnd()      { h.close() }
func (h *slimTokens) ArrayEnd()       { h.close() }
func (h *slimTokens) String(s string) { h.scalar('s', s, 0) }
func (h *slimTokens) Int(n int64)     { h.scalar('i', "", float64(n)) }
func (h *slimTokens) Float(f float64) { h.scalar('f', "", f) }
func (h *slimTokens) Number(string)   { h.scalar('n', "", 0) }
func (h *slimTokens) Bool(bool)       { h.scalar('b', "", 0) }
func (h *slimTokens) Null()           { h.scalar('z', "", 0) }

// decodeSlim fills c from raw, reporting false when raw needs the whole
// decode (see [slimTokens]).
func decodeSlim(raw []byte, c *slimCase) bool {
	var stack [8]slimCtx
	h := slimTokens{c: c, ctx: stack[:0]}
	return oj.Tokenize(raw, &h) == nil && !h.bad
}
