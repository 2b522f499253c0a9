// Package formula parses and evaluates the small arithmetic language of
// OpenAI's multi grader (calculate_output): numbers, the grader names as
// variables, + - * / ^ (power, right-associative), unary minus and plus,
// parentheses, and the functions min and max (one or more arguments), abs,
// floor, ceil, exp, sqrt and log (natural logarithm, one argument).
//
// Nothing else is accepted: no strings, no attribute access, no calls of
// other names, no comparison or boolean operators. A formula is parsed once
// into a tree whose variables are resolved to indexes, and evaluated many
// times without allocating.
package formula

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Limits that keep parsing cheap and the evaluator's recursion shallow.
const (
	// MaxLen is the longest formula accepted, in bytes.
	MaxLen = 4096
	// MaxDepth is the deepest nesting of parentheses, calls and unary
	// operators accepted.
	MaxDepth = 64
)

// ErrDivByZero is returned by [Expr.Eval] when a division's divisor is zero.
var ErrDivByZero = errors.New("division by zero")

// ErrDomain is returned by [Expr.Eval] when a function is called outside
// its domain (sqrt of a negative number, log of a number <= 0) or the
// result is not a finite number.
var ErrDomain = errors.New("result is not a finite number")

// SyntaxError is a formula that does not parse: Pos is the byte offset of
// the problem, Msg says what was expected.
type SyntaxError struct {
	Pos int
	Msg string
}

// Error reads "at offset N: MSG".
func (e *SyntaxError) Error() string { return fmt.Sprintf("at offset %d: %s", e.Pos, e.Msg) }

type op uint8

const (
	opNum op = iota
	opVar
	opNeg
	opPos
	opAdd
	opSub
	opMul
	opDiv
	opPow
	opCall
)

type fn uint8

const (
	fnMin fn = iota
	fnMax
	fnAbs
	fnFloor
	fnCeil
	fnExp
	fnSqrt
	fnLog
)

var fnNames = [...]string{"min", "max", "abs", "floor", "ceil", "exp", "sqrt", "log"}

// node is one tree node: a number, a variable (by index), a unary or binary
// operator, or a call.
type node struct {
	op   op
	num  float64
	idx  int // variable index
	fn   fn
	args []*node // operands or call arguments
}

// Expr is a parsed formula. It is immutable and safe for concurrent use.
type Expr struct {
	root *node
	vars []string
}

// Parse parses src. Names in src must be among vars; each is evaluated as
// the value at its index in the slice given to [Expr.Eval]. Any other name,
// character or construct is a *[SyntaxError].
func Parse(src string, vars []string) (*Expr, error) {
	if len(src) > MaxLen {
		return nil, &SyntaxError{Pos: MaxLen, Msg: fmt.Sprintf("formula longer than %d bytes", MaxLen)}
	}
	p := &parser{src: src, vars: vars}
	p.next()
	root, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if p.tok != tEOF {
		return nil, p.errorf("unexpected %s after the end of the formula", p.describe())
	}
	return &Expr{root: root, vars: vars}, nil
}

// Vars returns the variable names the formula was parsed with.
func (e *Expr) Vars() []string { return e.vars }

// Eval evaluates the formula with vals[i] as the value of the i-th
// variable. It returns [ErrDivByZero] for a division by zero and
// [ErrDomain] (wrapped with detail) for a function outside its domain or a
// result that is not finite. vals must be at least as long as the variable
// list given to [Parse].
func (e *Expr) Eval(vals []float64) (float64, error) {
	v, err := eval(e.root, vals)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%w: %v", ErrDomain, v)
	}
	return v, nil
}

func eval(n *node, vals []float64) (float64, error) {
	switch n.op {
	case opNum:
		return n.num, nil
	case opVar:
		return vals[n.idx], nil
	case opNeg, opPos:
		v, err := eval(n.args[0], vals)
		if n.op == opNeg {
			v = -v
		}
		return v, err
	case opCall:
		return call(n, vals)
	}
	a, err := eval(n.args[0], vals)
	if err != nil {
		return 0, err
	}
	b, err := eval(n.args[1], vals)
	if err != nil {
		return 0, err
	}
	switch n.op {
	case opAdd:
		return a + b, nil
	case opSub:
		return a - b, nil
	case opMul:
		return a * b, nil
	case opDiv:
		if b == 0 {
			return 0, ErrDivByZero
		}
		return a / b, nil
	default: // opPow
		return math.Pow(a, b), nil
	}
}

func call(n *node, vals []float64) (float64, error) {
	first, err := eval(n.args[0], vals)
	if err != nil {
		return 0, err
	}
	switch n.fn {
	case fnMin, fnMax:
		out := first
		for _, a := range n.args[1:] {
			v, err := eval(a, vals)
			if err != nil {
				return 0, err
			}
			if n.fn == fnMin {
				out = math.Min(out, v)
			} else {
				out = math.Max(out, v)
			}
		}
		return out, nil
	case fnAbs:
		return math.Abs(first), nil
	case fnFloor:
		return math.Floor(first), nil
	case fnCeil:
		return math.Ceil(first), nil
	case fnExp:
		return math.Exp(first), nil
	case fnSqrt:
		if first < 0 {
			return 0, fmt.Errorf("%w: sqrt(%v)", ErrDomain, first)
		}
		return math.Sqrt(first), nil
	default: // fnLog
		if first <= 0 {
			return 0, fmt.Errorf("%w: log(%v)", ErrDomain, first)
		}
		return math.Log(first), nil
	}
}

// String prints the formula fully parenthesised, so that parsing the
// result with the same variables gives the same tree.
func (e *Expr) String() string {
	var b strings.Builder
	e.print(&b, e.root, precLowest)
	return b.String()
}

// Printing precedences, from the grammar: sums, then products, then unary
// signs, then powers, then atoms (numbers, variables, calls, parentheses).
const (
	precLowest = iota
	precSum
	precProduct
	precUnary
	precPower
	precAtom
)

func prec(n *node) int {
	switch n.op {
	case opAdd, opSub:
		return precSum
	case opMul, opDiv:
		return precProduct
	case opNeg, opPos:
		return precUnary
	case opPow:
		return precPower
	}
	return precAtom
}

// print writes n with the fewest parentheses that parse back to the same
// tree, so the printed form is never nested deeper than the source.
func (e *Expr) print(b *strings.Builder, n *node, min int) {
	p := prec(n)
	if p < min {
		b.WriteString("(")
		defer b.WriteString(")")
	}
	switch n.op {
	case opNum:
		b.WriteString(strconv.FormatFloat(n.num, 'g', -1, 64))
	case opVar:
		b.WriteString(e.vars[n.idx])
	case opNeg, opPos:
		if n.op == opNeg {
			b.WriteString("-")
		} else {
			b.WriteString("+")
		}
		e.print(b, n.args[0], precUnary)
	case opCall:
		b.WriteString(fnNames[n.fn])
		b.WriteString("(")
		for i, a := range n.args {
			if i > 0 {
				b.WriteString(", ")
			}
			e.print(b, a, precLowest)
		}
		b.WriteString(")")
	case opPow:
		// power := primary '^' unary: the base is an atom, the exponent
		// may carry a sign or be a power itself (right-associative).
		e.print(b, n.args[0], precAtom)
		b.WriteString(" ^ ")
		e.print(b, n.args[1], precUnary)
	default:
		// Sums and products are left-associative: the right operand
		// needs parentheses at the same precedence.
		e.print(b, n.args[0], p)
		b.WriteString(" " + binOps[n.op] + " ")
		e.print(b, n.args[1], p+1)
	}
}

var binOps = map[op]string{opAdd: "+", opSub: "-", opMul: "*", opDiv: "/", opPow: "^"}

// Equal reports whether e and f have the same tree (numbers compared by
// value, variables by name).
func (e *Expr) Equal(f *Expr) bool { return equal(e, e.root, f, f.root) }

func equal(e *Expr, a *node, f *Expr, b *node) bool {
	if a.op != b.op || len(a.args) != len(b.args) {
		return false
	}
	switch a.op {
	case opNum:
		return a.num == b.num
	case opVar:
		return e.vars[a.idx] == f.vars[b.idx]
	case opCall:
		if a.fn != b.fn {
			return false
		}
	}
	for i := range a.args {
		if !equal(e, a.args[i], f, b.args[i]) {
			return false
		}
	}
	return true
}

type token uint8

const (
	tEOF token = iota
	tNum
	tName
	tOp     // + - * / ^
	tLParen // (
	tRParen // )
	tComma
	tBad
)

type parser struct {
	src  string
	vars []string
	pos  int // start of the current token
	end  int // end of the current token
	tok  token
	text string
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Pos: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) describe() string {
	switch p.tok {
	case tEOF:
		return "end of formula"
	case tBad:
		return fmt.Sprintf("character %q", p.text)
	}
	return fmt.Sprintf("%q", p.text)
}

// next scans the token after the current one.
func (p *parser) next() {
	i := p.end
	for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\t' || p.src[i] == '\n' || p.src[i] == '\r') {
		i++
	}
	p.pos = i
	if i >= len(p.src) {
		p.tok, p.text, p.end = tEOF, "", i
		return
	}
	c := p.src[i]
	j := i + 1
	switch {
	case c >= '0' && c <= '9' || c == '.':
		j = i
		for j < len(p.src) && (isDigit(p.src[j]) || p.src[j] == '.') {
			j++
		}
		if j < len(p.src) && (p.src[j] == 'e' || p.src[j] == 'E') {
			k := j + 1
			if k < len(p.src) && (p.src[k] == '+' || p.src[k] == '-') {
				k++
			}
			if k < len(p.src) && isDigit(p.src[k]) {
				for k < len(p.src) && isDigit(p.src[k]) {
					k++
				}
				j = k
			}
		}
		p.tok = tNum
	case isLetter(c):
		for j < len(p.src) && (isLetter(p.src[j]) || isDigit(p.src[j])) {
			j++
		}
		p.tok = tName
	case c == '+' || c == '-' || c == '*' || c == '/' || c == '^':
		p.tok = tOp
		if c == '*' && j < len(p.src) && p.src[j] == '*' {
			p.tok = tBad // Python's ** is not part of the language; ^ is power
			j++
		}
	case c == '(':
		p.tok = tLParen
	case c == ')':
		p.tok = tRParen
	case c == ',':
		p.tok = tComma
	default:
		p.tok = tBad
		// Report the whole UTF-8 sequence, not a lone byte.
		for j < len(p.src) && p.src[j]&0xC0 == 0x80 {
			j++
		}
	}
	p.end = j
	p.text = p.src[i:j]
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// expr := term (('+' | '-') term)*
func (p *parser) expr(depth int) (*node, error) {
	if depth > MaxDepth {
		return nil, p.errorf("nested deeper than %d levels", MaxDepth)
	}
	left, err := p.term(depth)
	if err != nil {
		return nil, err
	}
	for p.tok == tOp && (p.text == "+" || p.text == "-") {
		o := opAdd
		if p.text == "-" {
			o = opSub
		}
		p.next()
		right, err := p.term(depth)
		if err != nil {
			return nil, err
		}
		left = &node{op: o, args: []*node{left, right}}
	}
	return left, nil
}

// term := unary (('*' | '/') unary)*
func (p *parser) term(depth int) (*node, error) {
	left, err := p.unary(depth)
	if err != nil {
		return nil, err
	}
	for p.tok == tOp && (p.text == "*" || p.text == "/") {
		o := opMul
		if p.text == "/" {
			o = opDiv
		}
		p.next()
		right, err := p.unary(depth)
		if err != nil {
			return nil, err
		}
		left = &node{op: o, args: []*node{left, right}}
	}
	return left, nil
}

// unary := ('-' | '+') unary | power
func (p *parser) unary(depth int) (*node, error) {
	if depth > MaxDepth {
		return nil, p.errorf("nested deeper than %d levels", MaxDepth)
	}
	if p.tok == tOp && (p.text == "-" || p.text == "+") {
		o := opNeg
		if p.text == "+" {
			o = opPos
		}
		p.next()
		x, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return &node{op: o, args: []*node{x}}, nil
	}
	return p.power(depth)
}

// power := primary ('^' unary)?   (right-associative; -2^2 is -(2^2))
func (p *parser) power(depth int) (*node, error) {
	base, err := p.primary(depth)
	if err != nil {
		return nil, err
	}
	if p.tok == tOp && p.text == "^" {
		p.next()
		exp, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return &node{op: opPow, args: []*node{base, exp}}, nil
	}
	return base, nil
}

// primary := number | name | name '(' expr (',' expr)* ')' | '(' expr ')'
func (p *parser) primary(depth int) (*node, error) {
	switch p.tok {
	case tNum:
		v, err := strconv.ParseFloat(p.text, 64)
		if err != nil || math.IsInf(v, 0) {
			return nil, p.errorf("bad number %q", p.text)
		}
		p.next()
		return &node{op: opNum, num: v}, nil
	case tName:
		name, at := p.text, p.pos
		p.next()
		if p.tok == tLParen {
			return p.call(name, at, depth)
		}
		for i, v := range p.vars {
			if v == name {
				return &node{op: opVar, idx: i}, nil
			}
		}
		return nil, &SyntaxError{Pos: at, Msg: fmt.Sprintf("unknown name %q (known: %s)", name, strings.Join(p.vars, ", "))}
	case tLParen:
		p.next()
		x, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.tok != tRParen {
			return nil, p.errorf("want ')', got %s", p.describe())
		}
		p.next()
		return x, nil
	}
	if p.tok == tBad && p.text == "**" {
		return nil, p.errorf("'**' is not an operator here; write ^ for a power")
	}
	return nil, p.errorf("want a number, a name or '(', got %s", p.describe())
}

func (p *parser) call(name string, at, depth int) (*node, error) {
	f := -1
	for i, n := range fnNames {
		if n == name {
			f = i
		}
	}
	if f < 0 {
		return nil, &SyntaxError{Pos: at, Msg: fmt.Sprintf("unknown function %q (known: %s)", name, strings.Join(fnNames[:], ", "))}
	}
	p.next() // (
	n := &node{op: opCall, fn: fn(f)}
	for {
		a, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		n.args = append(n.args, a)
		if p.tok == tComma {
			p.next()
			continue
		}
		if p.tok != tRParen {
			return nil, p.errorf("want ',' or ')' in the call of %s, got %s", name, p.describe())
		}
		p.next()
		break
	}
	if n.fn != fnMin && n.fn != fnMax && len(n.args) != 1 {
		return nil, &SyntaxError{Pos: at, Msg: fmt.Sprintf("%s takes one argument, got %d", name, len(n.args))}
	}
	return n, nil
}
