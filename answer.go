package proctor

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/proctorhq/proctor/internal/kit"
	"github.com/proctorhq/proctor/internal/refusal"
)

// Numeric passes when the last number in the output is within tolerance of
// the expected number: |got-want| <= max(AbsTol, RelTol*|want|).
//
// Numbers are read with signs (including the Unicode minus), thousands
// separators (1,234,567), decimals, exponents (2.998e8), a leading currency
// symbol ($, €, £, ¥, ₹) and a trailing % (dropped: "12%" reads as 12). A
// number glued to a preceding letter ("RFC2616", "H2O") or hyphenated to
// one ("A-17", "GPT-4") is not read; "3-4" reads 3 then 4. A ","
// not followed by exactly three digits separates numbers ("1,2" is 1 then
// 2), so decimal commas are not understood.
//
// It fails when the output holds no number. With no expected number, or an
// expected value that is not a number, it is not graded. A Numeric is
// immutable and safe for concurrent use.
type Numeric struct {
	name string
	want *float64
	opts NumericOptions
}

// NumericOptions configure [NewNumeric]. The zero value requires an exact
// match with the sample's expected number.
type NumericOptions struct {
	// Expected is the right number; nil takes the sample's expected value,
	// read as a number.
	Expected *float64
	// AbsTol is the absolute tolerance (>= 0).
	AbsTol float64
	// RelTol is the tolerance relative to |expected| (>= 0).
	RelTol float64
	// Name is shown in results; default "numeric".
	Name string
}

var _ Grader = (*Numeric)(nil)

// NewNumeric returns a Numeric grader. It returns an error for a negative,
// NaN or infinite tolerance or expected value.
func NewNumeric(opts NumericOptions) (*Numeric, error) {
	for _, t := range []struct {
		name string
		v    float64
	}{{"abs_tol", opts.AbsTol}, {"rel_tol", opts.RelTol}} {
		if t.v < 0 || math.IsNaN(t.v) || math.IsInf(t.v, 0) {
			return nil, fmt.Errorf("proctor: numeric: %s must be a finite number >= 0, got %v", t.name, t.v)
		}
	}
	if opts.Expected != nil && (math.IsNaN(*opts.Expected) || math.IsInf(*opts.Expected, 0)) {
		return nil, fmt.Errorf("proctor: numeric: expected must be finite, got %v", *opts.Expected)
	}
	g := &Numeric{name: cmp.Or(opts.Name, "numeric"), opts: opts}
	if opts.Expected != nil {
		g.want = Ptr(*opts.Expected)
	}
	return g, nil
}

// Name returns the grader's name.
func (g *Numeric) Name() string { return g.name }

// Grade compares the last number in s.Output with the expected number.
func (g *Numeric) Grade(_ context.Context, s *Sample) Grade {
	var want float64
	if g.want != nil {
		want = *g.want
	} else {
		e, ok := s.ExpectedText()
		if !ok {
			return NotGraded("no expected number: set expected on the case or the spec")
		}
		w, text, ok := lastNumber(e)
		if !ok || strings.TrimSpace(e) != text {
			return NotGradedf("expected value %s is not a number", kit.Quote(e))
		}
		want = w
	}
	got, text, ok := lastNumber(s.Output)
	if !ok {
		return Fail("no number found in the output")
	}
	if math.IsInf(got, 0) {
		return Failf("the number %s in the output is out of range", kit.Quote(text))
	}
	diff := math.Abs(got - want)
	tol := max(g.opts.AbsTol, g.opts.RelTol*math.Abs(want))
	if diff <= tol {
		return Pass("")
	}
	return Failf("got %s (%g), expected %g within %g", kit.Quote(text), got, want, tol)
}

var currency = "$€£¥₹"

// lastNumber returns the value of the last number in s and its text as
// written (sign, currency symbol and % included).
func lastNumber(s string) (float64, string, bool) {
	var val float64
	var text string
	found := false
	var buf [64]byte
	for i := 0; i < len(s); {
		start, digits, end := scanNumber(s, i)
		if digits < 0 {
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
			continue
		}
		clean := buf[:0]
		for _, c := range []byte(s[digits:end]) {
			if c != ',' {
				clean = append(clean, c)
			}
		}
		neg := false
		for _, r := range s[start:digits] {
			if r == '-' || r == '−' {
				neg = true
			}
		}
		num := strings.TrimSuffix(string(clean), "%")
		v, err := strconv.ParseFloat(num, 64)
		if err != nil && !math.IsInf(v, 0) {
			i = end
			continue
		}
		if neg {
			v = -v
		}
		val, text, found = v, s[start:end], true
		i = end
	}
	return val, text, found
}

// scanNumber looks for a number starting at s[i]: an optional sign and
// currency symbol, digits with thousands groups, a fraction, an exponent
// and a %. It returns where the number (with sign) starts, where its digits
// start and where it ends; digits < 0 when there is none at i.
func scanNumber(s string, i int) (start, digits, end int) {
	start = i
	// Nothing glued to a letter or digit before ("RFC2616"; the "-" of
	// "3-4" is a hyphen, so that reads 3 then 4).
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	if i > 0 && (unicode.IsLetter(prev) || unicode.IsDigit(prev) || prev == '.' || prev == '_') {
		return 0, -1, 0
	}
	// Nor to a hyphen after a letter: "A-17", "GPT-4" are names.
	if prev == '-' {
		if p2, _ := utf8.DecodeLastRuneInString(s[:i-1]); unicode.IsLetter(p2) {
			return 0, -1, 0
		}
	}
	j := i
	// Sign: only where it cannot be a hyphen between numbers ("3-4").
	if r, n := utf8.DecodeRuneInString(s[j:]); r == '-' || r == '+' || r == '−' {
		j += n
	}
	if r, n := utf8.DecodeRuneInString(s[j:]); strings.ContainsRune(currency, r) && r != utf8.RuneError {
		j += n
		if r2, n2 := utf8.DecodeRuneInString(s[j:]); j == i+n && (r2 == '-' || r2 == '−') {
			j += n2 // $-5
		}
	}
	digits = j
	k := j
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	intDigits := k - j
	if intDigits > 0 && intDigits <= 3 {
		// Thousands groups: ",ddd" not followed by another digit.
		for k+4 <= len(s) && s[k] == ',' && isDigit(s[k+1]) && isDigit(s[k+2]) && isDigit(s[k+3]) && (k+4 == len(s) || !isDigit(s[k+4])) {
			k += 4
		}
	}
	if k < len(s)-1 && s[k] == '.' && isDigit(s[k+1]) {
		k++
		for k < len(s) && isDigit(s[k]) {
			k++
		}
	} else if intDigits == 0 {
		return 0, -1, 0
	}
	if k == j {
		return 0, -1, 0
	}
	if k < len(s) && (s[k] == 'e' || s[k] == 'E') {
		e := k + 1
		if e < len(s) && (s[e] == '+' || s[e] == '-') {
			e++
		}
		if e < len(s) && isDigit(s[e]) {
			for e < len(s) && isDigit(s[e]) {
				e++
			}
			if e == len(s) || !unicode.IsLetter(rune(s[e])) {
				k = e
			}
		}
	}
	if k < len(s) && s[k] == '%' {
		k++
	}
	return start, digits, k
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Refused passes when the output declines the request; [NewNotRefused]
// builds its opposite. Refusals are recognised as the internal refusal
// detector describes: English first-person refusal sentences ("I can't help
// with that", "I'm sorry, but I cannot assist", "As an AI, I won't",
// "I am unable to", "I must decline"), read after removing what the output
// quotes (double quotes, code, block quotes), so an answer that quotes or
// discusses a refusal (`The model replied "I can't help with that"`) is not
// one.
//
// Limits: English only; a refusal without a first person or an apology
// ("No.", "That is prohibited.") is missed; a refusal written entirely
// inside quotation marks reads as a quotation. It never returns not graded.
// Safe for concurrent use.
type Refused struct {
	name   string
	negate bool
}

// RefusedOptions configure [NewRefused] and [NewNotRefused].
type RefusedOptions struct {
	// Name is shown in results; default "refused" or "not_refused".
	Name string
}

var (
	_ Grader = (*Refused)(nil)
)

// NewRefused returns a grader that passes when the output is a refusal.
func NewRefused(opts RefusedOptions) *Refused {
	return &Refused{name: cmp.Or(opts.Name, "refused")}
}

// NewNotRefused returns a grader that passes when the output is not a
// refusal.
func NewNotRefused(opts RefusedOptions) *Refused {
	return &Refused{name: cmp.Or(opts.Name, "not_refused"), negate: true}
}

// Name returns the grader's name.
func (g *Refused) Name() string { return g.name }

// Grade decides whether s.Output declines the request.
func (g *Refused) Grade(_ context.Context, s *Sample) Grade {
	ok, sentence := refusal.Detect(s.Output)
	switch {
	case ok && g.negate:
		return Failf("the output declines: %s", kit.Quote(sentence))
	case ok:
		return Passf("declines: %s", kit.Quote(sentence))
	case g.negate:
		return Pass("")
	}
	return Fail("the output does not decline the request")
}

// choiceSpec builds a choice grader from its spec.
func choiceSpec(o *SpecOptions) (Grader, error) {
	opts := ChoiceOptions{Choices: o.String("choices", ""), Name: o.Name()}
	if r, ok := o.Raw("expected"); ok && !isNull(r) {
		opts.Expected = o.String("expected", "")
	}
	if _, ok := o.Raw("choices"); ok && opts.Choices == "" && o.Err() == nil {
		o.Errorf("choices", "must not be empty")
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewChoice(opts)
	if err != nil {
		key := "choices"
		if opts.Expected != "" && strings.Contains(err.Error(), "expected") {
			key = "expected"
		}
		o.Wrap(key, "invalid", err)
		return nil, o.Err()
	}
	return g, nil
}

// numericSpec builds a numeric grader from its spec.
func numericSpec(o *SpecOptions) (Grader, error) {
	opts := NumericOptions{Name: o.Name()}
	if r, ok := o.Raw("expected"); ok && !isNull(r) {
		if kit.JSONKind(r) == "a string" {
			e := o.String("expected", "")
			v, text, ok := lastNumber(e)
			if !ok || strings.TrimSpace(e) != text || math.IsInf(v, 0) {
				o.Errorf("expected", "want a number, got %q", e)
			}
			opts.Expected = &v
		} else if v, ok := o.OptFloat("expected"); ok {
			opts.Expected = &v
		}
	}
	opts.AbsTol = nonNegative(o, "abs_tol")
	opts.RelTol = nonNegative(o, "rel_tol")
	if err := o.Err(); err != nil {
		return nil, err
	}
	return NewNumeric(opts)
}

// nonNegative reads an optional number option that must be >= 0 (0 when
// absent).
func nonNegative(o *SpecOptions, key string) float64 {
	v, ok := o.OptFloat(key)
	if ok && v < 0 {
		o.Errorf(key, "want a number >= 0, got %v", v)
		return 0
	}
	return v
}

// refusedSpec is the builder of refused, or of not_refused when neg is set.
func refusedSpec(neg bool) Builder {
	return func(o *SpecOptions) (Grader, error) {
		if neg {
			return NewNotRefused(RefusedOptions{Name: o.Name()}), nil
		}
		return NewRefused(RefusedOptions{Name: o.Name()}), nil
	}
}

// answerSpecTypes documents the answers family's spec types choice, numeric,
// refused and not_refused, for [Compiler.SpecTypes], with their builders.
func answerSpecTypes() []SpecType {
	return []SpecType{
		{Name: "choice", ExpectedTemplate: true, Build: choiceSpec, Family: "answers", Summary: "the multiple-choice letter in the output is the right one",
			About: "Reads forms like B, (B), B., Answer: B, **B** and The answer is B. No letter, or several different ones, fails.",
			Options: []SpecOptionDoc{
				{"expected", "string", "the sample's expected", "The right letter. " + docValueTemplate},
				{"choices", "string", "ABCDE", "The letters (or digits) offered, in order, any case."},
			},
			Example: `{"type": "choice", "expected": "C", "choices": "ABCD"}`},
		{Name: "numeric", ExpectedTemplate: true, Build: numericSpec, Family: "answers", Summary: "the last number in the output equals the expected one, within tolerance",
			About: "Passes when |got - want| <= max(abs_tol, rel_tol * |want|). Thousands separators, signs, decimals and exponents are read; a trailing % is dropped (12% reads as 12).",
			Options: []SpecOptionDoc{
				{"expected", "number or numeric string", "the sample's expected", "The right number. " + docValueTemplate},
				{"abs_tol", "number >= 0", "0", "Absolute tolerance."},
				{"rel_tol", "number >= 0", "0", "Tolerance relative to |expected|."},
			},
			Example: `{"type": "numeric", "expected": 42, "rel_tol": 0.01}`},
		{Name: "refused", Build: refusedSpec(false), Family: "answers", Summary: "the output declines the request",
			Example: `{"type": "refused"}`},
		{Name: "not_refused", Build: refusedSpec(true), Family: "answers", Summary: "the output does not decline the request",
			Example: `{"type": "not_refused"}`},
	}
}
