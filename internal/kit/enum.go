package kit

import (
	"fmt"
	"strings"
)

// TextEnum is an enum of proctor's packages: a small integer whose String
// returns the spec vocabulary's word for each of its values, numbered from
// zero.
type TextEnum interface {
	~uint8
	String() string
}

// UnmarshalEnum sets *dst to the value, among the n values of its type,
// whose String is b, or returns an error starting with prefix (the
// package's, such as "proctor: ") naming what (the enum) and the words it
// accepts, leaving *dst unchanged.
func UnmarshalEnum[T TextEnum](dst *T, b []byte, n int, prefix, what string) error {
	words := make([]string, n)
	for i := range n {
		v := T(i)
		if v.String() == string(b) {
			*dst = v
			return nil
		}
		words[i] = v.String()
	}
	return fmt.Errorf("%sunknown %s %q (want %s)", prefix, what, b, strings.Join(words, ", "))
}
