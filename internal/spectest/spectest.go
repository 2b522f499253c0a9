// Package spectest holds the table helpers that the spec tests of the
// root package and of the family packages share: compile a spec with a
// Compiler and check the status it grades a sample with, or the option its
// load error names.
package spectest

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/proctorhq/proctor"
)

// Graded is one spec graded on a sample given as JSON.
type Graded struct {
	Spec, Sample string
	Want         proctor.Status
}

// Grade compiles each row's spec with c and checks the status it grades
// the row's sample with, as proctor grade does.
func Grade(t *testing.T, c *proctor.Compiler, rows []Graded) {
	t.Helper()
	for _, tt := range rows {
		t.Run(tt.Spec, func(t *testing.T) {
			ch, err := c.Compile([]byte(tt.Spec))
			if err != nil {
				t.Fatal(err)
			}
			var s proctor.Sample
			if err := json.Unmarshal([]byte(tt.Sample), &s); err != nil {
				t.Fatal(err)
			}
			if got := ch.Grade(context.Background(), &s); got.Status != tt.Want {
				t.Errorf("got %v (%s), want %v", got.Status, got.Reason, tt.Want)
			}
		})
	}
}

// Refused is a spec that must not load, and the option its error names.
type Refused struct {
	Spec, Option string
}

// Refuse checks that loading is fail-closed: each row's spec is a
// *proctor.SpecError naming the row's option.
func Refuse(t *testing.T, c *proctor.Compiler, rows []Refused) {
	t.Helper()
	for _, tt := range rows {
		t.Run(tt.Spec, func(t *testing.T) {
			_, err := c.Compile([]byte(tt.Spec))
			var se *proctor.SpecError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SpecError", err)
			}
			if se.Option != tt.Option {
				t.Errorf("error %q names option %q, want %q", err, se.Option, tt.Option)
			}
		})
	}
}

// Row is one spec graded on a shared sample: it either fails to compile
// (WantErr) or grades the sample with status Want.
type Row struct {
	Spec    string
	Want    proctor.Status
	WantErr bool
}

// Rows compiles each row's spec with c and grades s with it.
func Rows(t *testing.T, c *proctor.Compiler, s *proctor.Sample, rows []Row) {
	t.Helper()
	for _, tt := range rows {
		t.Run(tt.Spec, func(t *testing.T) {
			ch, err := c.Compile([]byte(tt.Spec))
			if tt.WantErr {
				if err == nil {
					t.Fatal("Compile = nil error, want a spec error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := ch.Grade(context.Background(), s); got.Status != tt.Want {
				t.Errorf("got %v, want %v", got, tt.Want)
			}
		})
	}
}
