package kit

import (
	"encoding/json"
	"strings"
)

// MustFailed is what every MustX constructor panics with when the text it
// compiles is refused: an error reading
//
//	proctor: MustX("<text, quoted and cut at 80 runes>"): <err>
//
// that wraps err, so a recovering caller can still match its sentinel. call
// is the constructor's name as a caller writes it ("MustRegex",
// "agent.MustToolArgumentAssertion"); text is the text it compiles: a
// string, []byte or json.RawMessage as it is, any other value as its JSON.
// A leading "proctor: " on err, or the prefix of call's package ("agent: "
// for "agent.MustX"), is dropped from the message, so the package is not
// named twice.
func MustFailed(call string, text any, err error) error {
	var s string
	switch v := text.(type) {
	case string:
		s = v
	case []byte:
		s = string(v)
	case json.RawMessage:
		s = string(v)
	default:
		s = Stringify(v)
	}
	why := strings.TrimPrefix(err.Error(), "proctor: ")
	if pkg, _, ok := strings.Cut(call, "."); ok {
		why = strings.TrimPrefix(why, pkg+": ")
	}
	return &mustError{msg: "proctor: " + call + "(" + Quote(s) + "): " + why, err: err}
}

// mustError is MustFailed's error.
type mustError struct {
	msg string
	err error
}

func (e *mustError) Error() string { return e.msg }
func (e *mustError) Unwrap() error { return e.err }
