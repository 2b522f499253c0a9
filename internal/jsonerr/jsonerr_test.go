package jsonerr

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestUser(t *testing.T) {
	type inner struct {
		N int `json:"n"`
	}
	type wire struct {
		S     string         `json:"s"`
		F     float64        `json:"f"`
		B     bool           `json:"b"`
		L     []string       `json:"l"`
		O     *inner         `json:"o"`
		Inner []inner        `json:"inner"`
		M     map[string]int `json:"m"`
	}
	for _, tt := range []struct{ in, want string }{
		{`{"s": 1}`, `line 1: field "s": want a string, got a number`},
		{"{\n\"f\": \"x\"}", `line 2: field "f": want a number, got a string`},
		{`{"b": []}`, `line 1: field "b": want true or false, got a list`},
		{`{"l": {}}`, `line 1: field "l": want a list, got an object`},
		{`{"o": true}`, `line 1: field "o": want an object, got true or false`},
		{`{"inner": [{"n": 1.5}]}`, `line 1: field "inner.n": want a whole number, got the number 1.5`},
		{`{"m": {"a": "x"}}`, `line 1: field "m": want a whole number, got a string`},
		{`{"s": }`, `line 1: not valid JSON: invalid character '}' looking for beginning of value`},
		{`{"s": "x"`, `line 1: not valid JSON: it ends too soon`},
	} {
		var w wire
		err := json.Unmarshal([]byte(tt.in), &w)
		if got := User([]byte(tt.in), err); got == nil || got.Error() != tt.want {
			t.Errorf("%s: %v, want %q", tt.in, got, tt.want)
		}
	}
	dec := json.NewDecoder(strings.NewReader(`{"x": 1}`))
	dec.DisallowUnknownFields()
	var w wire
	if got := User(nil, dec.Decode(&w)); got.Error() != `unknown field "x"` {
		t.Errorf("unknown field: %v", got)
	}
	other := errors.New("other")
	if User(nil, other) != other {
		t.Error("an error that is not encoding/json's must come back as it is")
	}
}
