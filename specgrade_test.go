package proctor

import (
	"errors"
	"testing"
)

// specCase is one row of a spec table: the spec compiles and grades output
// with status want.
type specCase struct {
	name, spec, output string
	want               Status
}

func runSpecCases(t *testing.T, c *Compiler, cases []specCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			ch, err := c.Compile([]byte(tt.spec))
			if err != nil {
				t.Fatal(err)
			}
			if got := gradeOutput(ch.Grader, tt.output); got.Status != tt.want {
				t.Errorf("got %v (%s), want %v", got.Status, got.Reason, tt.want)
			}
		})
	}
}

// specErrCase is one row of a spec-error table: compiling spec with c is a
// *SpecError naming option, and is(err) holds for the sentinel the row
// expects (nil: none).
type specErrCase struct {
	name   string
	c      *Compiler
	spec   string
	option string
	is     error
}

func runSpecErrors(t *testing.T, cases []specErrCase, sentinels ...error) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.c
			if c == nil {
				c = NewCompiler()
			}
			_, err := c.Compile([]byte(tt.spec))
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SpecError", err)
			}
			if se.Option != tt.option {
				t.Errorf("got option %q, want %q (%v)", se.Option, tt.option, err)
			}
			for _, s := range sentinels {
				if got, want := errors.Is(err, s), s == tt.is; got != want {
					t.Errorf("errors.Is(err, %v) = %v, want %v", s, got, want)
				}
			}
		})
	}
}
