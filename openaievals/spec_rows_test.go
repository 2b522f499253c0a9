package openaievals

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/proctorhq/proctor"
)

// TestSpecs runs spec types of this family through a Compiler on a
// sample, as `proctor grade` does.
func TestSpecs(t *testing.T) {
	tests := []struct {
		spec, sample string
		want         proctor.Status
	}{
		{`{"type":"string_check","operation":"ilike","reference":"%paris%"}`, `{"output":"The capital is Paris."}`, proctor.StatusPassed},
		{`{"type":"string_check","operation":"eq","reference":"{{item.answer}}"}`, `{"output":"42"}`, proctor.StatusNotGraded},
	}
	c := proctor.NewCompiler(Types())
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			ch, err := c.Compile([]byte(tt.spec))
			if err != nil {
				t.Fatal(err)
			}
			var s proctor.Sample
			if err := json.Unmarshal([]byte(tt.sample), &s); err != nil {
				t.Fatal(err)
			}
			if got := ch.Grade(context.Background(), &s); got.Status != tt.want {
				t.Errorf("got %v (%s), want %v", got.Status, got.Reason, tt.want)
			}
		})
	}
}

// TestSpecErrors checks that loading is fail-closed: each bad spec is a
// *SpecError naming the option at fault.
func TestSpecErrors(t *testing.T) {
	tests := []struct {
		spec, option string
	}{
		{`{"type":"string_check","operation":"eq","input":"{{item.nope","reference":"x"}`, "input"},
		{`{"type":"string_check","operation":"contains","reference":"x"}`, "operation"},
		{`{"type":"string_check","reference":"x"}`, "operation"},
		{`{"type":"string_check","operation":"eq"}`, "reference"},
		{`{"type":"string_check","operation":"eq","reference":"{{nope}}"}`, "reference"},
		{`{"type":"text_similarity","reference":"x","evaluation_metric":"jaccard","pass_threshold":0.5}`, "evaluation_metric"},
		{`{"type":"text_similarity","reference":"x","evaluation_metric":"bleu"}`, "pass_threshold"},
		{`{"type":"text_similarity","reference":"x","evaluation_metric":"bleu","pass_threshold":2}`, "pass_threshold"},
		{`{"type":"score_model","model":"gpt-4.1"}`, "input"},
	}
	c := proctor.NewCompiler(Types())
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			_, err := c.Compile([]byte(tt.spec))
			var se *proctor.SpecError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SpecError", err)
			}
			if se.Option != tt.option {
				t.Errorf("error %q names option %q, want %q", err, se.Option, tt.option)
			}
		})
	}
}
