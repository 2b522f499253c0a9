package formula

import (
	"errors"
	"math"
	"strings"
	"testing"
)

var vars = []string{"a", "b", "min_score", "x1"}

func TestEval(t *testing.T) {
	vals := []float64{0.5, 0.25, 2, -3}
	tests := []struct {
		name, src string
		want      float64
		why       string
	}{
		{"average", "(a + b) / 2", 0.375, "the multi grader's usual formula"},
		{"precedence", "a + b * 2", 1, "* binds tighter than +"},
		{"left assoc minus", "1 - 2 - 3", -4, "- is left-associative"},
		{"left assoc div", "8 / 4 / 2", 1, "/ is left-associative"},
		{"power right assoc", "2 ^ 3 ^ 2", 512, "^ is right-associative: 2^(3^2)"},
		{"unary minus below power", "-2 ^ 2", -4, "-2^2 is -(2^2), as in mathematics and Python's **"},
		{"negative exponent", "2 ^ -1", 0.5, "a unary minus may follow ^"},
		{"double unary", "--a", 0.5, "unary minus applies repeatedly"},
		{"unary plus", "+a", 0.5, "unary plus is accepted"},
		{"min variadic", "min(a, b, 1)", 0.25, "min takes several arguments"},
		{"max single", "max(a)", 0.5, "max of one argument is that argument"},
		{"abs", "abs(x1)", 3, "abs of a negative variable"},
		{"floor ceil", "floor(2.7) + ceil(0.2)", 3, "floor and ceil"},
		{"exp log", "log(exp(1))", 1, "log is the natural logarithm"},
		{"sqrt", "sqrt(min_score * 8)", 4, "sqrt"},
		{"exponent literal", "1e-1 * 10", 1, "numbers take exponents"},
		{"leading dot", ".5 + a", 1, "a number may start with a dot"},
		{"name like function used as var", "min_score", 2, "a variable whose name starts like a function"},
		{"whitespace", " \t( a\n+b )", 0.75, "white space is ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse(tt.src, vars)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.src, err)
			}
			got, err := e.Eval(vals)
			if err != nil {
				t.Fatalf("Eval: %v", err)
			}
			if math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("%s = %v, want %v (%s)", tt.src, got, tt.want, tt.why)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, src, why string }{
		{"empty", "", "nothing to evaluate"},
		{"unknown name", "a + c", "c is not a grader"},
		{"import", "__import__('os')", "no calls of other names, no strings"},
		{"attribute", "a.real", "no attribute access"},
		{"string", "'a'", "no strings"},
		{"python power", "a ** 2", "** is Python's, ^ is the power here"},
		{"unknown function", "round(a)", "only the documented functions"},
		{"abs arity", "abs(a, b)", "abs takes one argument"},
		{"empty call", "min()", "min needs an argument"},
		{"unclosed", "(a + b", "parenthesis not closed"},
		{"trailing", "a b", "two operands without an operator"},
		{"comparison", "a > b", "no comparison operators"},
		{"trailing op", "a +", "operand missing"},
		{"bad number", "1.2.3", "not a number"},
		{"lambda", "lambda: 1", "no Python"},
		{"too deep", strings.Repeat("(", 100) + "a" + strings.Repeat(")", 100), "nesting is bounded"},
		{"too long", "a" + strings.Repeat("+a", MaxLen), "length is bounded"},
		{"unicode", "a × b", "only ASCII operators"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.src, vars)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("Parse(%q) error = %v, want a *SyntaxError (%s)", tt.src, err, tt.why)
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      error
	}{
		{"div by zero", "a / (b - b)", ErrDivByZero},
		{"sqrt negative", "sqrt(x1)", ErrDomain},
		{"log zero", "log(0)", ErrDomain},
		{"overflow", "exp(1000)", ErrDomain},
		{"zero to negative power", "0 ^ -1", ErrDomain},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse(tt.src, vars)
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.Eval([]float64{1, 1, 1, -1})
			if !errors.Is(err, tt.want) {
				t.Errorf("Eval(%q) error = %v, want %v", tt.src, err, tt.want)
			}
		})
	}
}

func TestStringRoundTrip(t *testing.T) {
	for _, src := range []string{"(a + b) / 2", "-2 ^ -a ^ b", "min(a, max(b, 1e21), 3) - -x1", "+a*.5"} {
		e, err := Parse(src, vars)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(e.String(), vars)
		if err != nil {
			t.Fatalf("Parse(String()=%q): %v", e.String(), err)
		}
		if !e.Equal(f) {
			t.Errorf("round trip of %q through %q changed the tree (%q)", src, e.String(), f.String())
		}
	}
}

func TestEvalAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	e, _ := Parse("min(a, b) + max(a, b, 1) / 2 ^ x1", vars)
	vals := []float64{1, 2, 3, 4}
	if n := testing.AllocsPerRun(100, func() { _, _ = e.Eval(vals) }); n != 0 {
		t.Errorf("Eval allocates %v times, want 0", n)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"(a + b) / 2", "min(a, b, 1)", "-2^-x1", "__import__('os')", "1e308*10", "((((a))))", "a**b", "sqrt(log(a))", ".e5", "1e", "max(,)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := Parse(src, vars)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) returned %T, want *SyntaxError", src, err)
			}
			return
		}
		v, err := e.Eval([]float64{0.5, 0, 1, -1})
		if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
			t.Fatalf("Eval(%q) = %v with no error", src, v)
		}
		f2, err := Parse(e.String(), vars)
		if err != nil {
			t.Fatalf("Parse(String()=%q) of %q: %v", e.String(), src, err)
		}
		if !e.Equal(f2) {
			t.Fatalf("round trip of %q through %q changed the tree", src, e.String())
		}
	})
}

func BenchmarkEval(b *testing.B) {
	e, _ := Parse("(a + b) / 2", vars)
	vals := []float64{1, 0.5, 0, 0}
	for b.Loop() {
		_, _ = e.Eval(vals)
	}
}

func BenchmarkEvalBare(b *testing.B) {
	vals := []float64{1, 0.5, 0, 0}
	var sink float64
	for b.Loop() {
		sink = (vals[0] + vals[1]) / 2
	}
	_ = sink
}
