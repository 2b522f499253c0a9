package proctortest_test

import (
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/proctortest"
	"github.com/proctorhq/proctor/similarity"
)

// TestTemplatedGraders runs the grader contract on the graders a spec
// builds when a value option holds template variables, which render per
// sample (and are not graded on the contract's samples, which have no item).
func TestTemplatedGraders(t *testing.T) {
	comp := proctor.NewCompiler(similarity.Types())
	for _, spec := range []string{
		`{"type":"exact_match","expected":"{{item.answer}}"}`,
		`{"type":"one_of","values":["{{item.answer}}","Lyon"]}`,
		`{"type":"contains","value":"{{output}}"}`,
		`{"type":"ends_with","value":"{{input}}"}`,
		`{"type":"regex","pattern":".*{{output}}.*"}`,
		`{"type":"not_regex","pattern":"(a+)+{{input}}$"}`,
		`{"type":"choice","expected":"{{item.letter}}"}`,
		`{"type":"numeric","expected":"{{expected}}"}`,
		`{"type":"rouge","expected":"{{input}}","references":["Paris"]}`,
		`{"type":"semantic_similarity","expected":"{{item.ref}}"}`,
	} {
		t.Run(spec, func(t *testing.T) {
			ch, err := comp.Compile([]byte(spec))
			if err != nil {
				t.Fatal(err)
			}
			if err := proctortest.TestGrader(ch.Grader); err != nil {
				t.Error(err)
			}
		})
	}
}
