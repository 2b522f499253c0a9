package proctortest_test

import (
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/proctortest"
)

// TestRegexDialectGraders runs the grader contract on regex patterns that
// RE2 refuses and the backtracking engine runs (docs/regex.md).
func TestRegexDialectGraders(t *testing.T) {
	for _, spec := range []string{
		`{"type":"regex","pattern":"(?P<q>['\"]).*(?P=q)"}`,
		`{"type":"regex","pattern":"(<)?\\w+(?(1)>)","case_sensitive":false}`,
		`{"type":"not_regex","pattern":"a++b"}`,
		`{"type":"not_regex","pattern":"(?<=\\$)\\d+","match":"full"}`,
	} {
		ch, err := proctor.NewCompiler().Compile([]byte(spec))
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if err := proctortest.TestGrader(ch.Grader); err != nil {
			t.Errorf("%s: %v", spec, err)
		}
	}
}
