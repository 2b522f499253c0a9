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
