package openaievals

import (
	"testing"

	"github.com/proctorhq/proctor/internal/spectest"

	"github.com/proctorhq/proctor"
)

// TestSpecs runs spec types of this family through a Compiler on a
// sample, as `proctor grade` does.
func TestSpecs(t *testing.T) {
	spectest.Grade(t, proctor.NewCompiler(Types()), []spectest.Graded{
		{Spec: `{"type":"string_check","operation":"ilike","reference":"%paris%"}`, Sample: `{"output":"The capital is Paris."}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"string_check","operation":"eq","reference":"{{item.answer}}"}`, Sample: `{"output":"42"}`, Want: proctor.StatusNotGraded},
	})
}

// TestSpecErrors checks that loading is fail-closed: each bad spec is a
// *SpecError naming the option at fault.
func TestSpecErrors(t *testing.T) {
	spectest.Refuse(t, proctor.NewCompiler(Types()), []spectest.Refused{
		{Spec: `{"type":"string_check","operation":"eq","input":"{{item.nope","reference":"x"}`, Option: "input"},
		{Spec: `{"type":"string_check","operation":"contains","reference":"x"}`, Option: "operation"},
		{Spec: `{"type":"string_check","reference":"x"}`, Option: "operation"},
		{Spec: `{"type":"string_check","operation":"eq"}`, Option: "reference"},
		{Spec: `{"type":"string_check","operation":"eq","reference":"{{nope}}"}`, Option: "reference"},
		{Spec: `{"type":"text_similarity","reference":"x","evaluation_metric":"jaccard","pass_threshold":0.5}`, Option: "evaluation_metric"},
		{Spec: `{"type":"text_similarity","reference":"x","evaluation_metric":"bleu"}`, Option: "pass_threshold"},
		{Spec: `{"type":"text_similarity","reference":"x","evaluation_metric":"bleu","pass_threshold":2}`, Option: "pass_threshold"},
		{Spec: `{"type":"score_model","model":"gpt-4.1"}`, Option: "input"},
	})
}
