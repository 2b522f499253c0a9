package proctor_test

import (
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// TestSpecDidYouMean: a misspelled option, required or optional, is named
// with the option it most likely meant.
func TestSpecDidYouMean(t *testing.T) {
	comp := proctor.NewCompiler()
	for _, tt := range []struct{ spec, want string }{
		{`{"type":"contains","vaule":"x"}`, `option "vaule": unknown option; did you mean "value"?`},
		{`{"type":"regex","Pattern":"x"}`, `option "Pattern": unknown option; did you mean "pattern"?`},
		{`{"type":"contains","value":"x","case_sensitve":false}`, `option "case_sensitve": unknown option; did you mean "case_sensitive"?`},
		{`{"type":"contains","value":"x","zzz":1}`, `option "zzz": unknown option for type contains (it takes`},
		{`{"type":"contains","zzz":"x"}`, `option "value": missing`},
		// A type with no options of its own lists only the common ones.
		{`{"type":"refused","zzz":1}`, `(it takes name, required, criterion, severity)`},
	} {
		_, err := comp.Compile([]byte(tt.spec))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.spec, err, tt.want)
		}
	}
}

// TestSpecTypeDidYouMean: a misspelled type is named with the type it most
// likely meant, and the list of every type is left out; a type too far from
// any gets the list.
func TestSpecTypeDidYouMean(t *testing.T) {
	comp := proctor.NewCompiler()
	for _, tt := range []struct{ spec, want, not string }{
		{`{"type":"regx","pattern":"a"}`, `unknown type "regx"; did you mean "regex"?`, "known:"},
		{`{"type":"exact_mach","expected":"a"}`, `did you mean "exact_match"?`, "known:"},
		{`{"type":"Contains","value":"a"}`, `did you mean "contains"?`, "known:"},
		{`{"type":"zzzzzzzz"}`, `unknown type "zzzzzzzz" (known: all, any,`, "did you mean"},
	} {
		_, err := comp.Compile([]byte(tt.spec))
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), tt.not) {
			t.Errorf("%s: %v, want %q and not %q", tt.spec, err, tt.want, tt.not)
		}
	}
}
