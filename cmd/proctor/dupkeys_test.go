package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// members counts the members of every object in v, decoded by
// encoding/json (where a key given twice makes one member).
func members(v any) int {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		n += len(x)
		for _, e := range x {
			n += members(e)
		}
	case []any:
		for _, e := range x {
			n += members(e)
		}
	}
	return n
}

// keyTokens counts the object keys written in b, as the token stream
// reads them.
func keyTokens(b []byte) int {
	dec := json.NewDecoder(bytes.NewReader(b))
	var stack []bool // per open container: is object, and next is a key
	var keyNext []bool
	n := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return n
		}
		top := len(stack) - 1
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				if top >= 0 && stack[top] {
					keyNext[top] = true
				}
				stack, keyNext = append(stack, d == '{'), append(keyNext, true)
			} else {
				stack, keyNext = stack[:top], keyNext[:top]
			}
			continue
		}
		if top >= 0 && stack[top] {
			if keyNext[top] {
				n++
			}
			keyNext[top] = !keyNext[top]
		}
	}
}

// FuzzCheckDuplicateKeys: on valid JSON, checkDuplicateKeys finds a
// duplicate exactly when encoding/json's decoded objects hold fewer
// members than the text writes keys.
func FuzzCheckDuplicateKeys(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":{"b":1},"c":{"b":2}}`, `[{"x":[{"y":1,"y":2}]}]`, `{"a\u0062":1,"ab":2}`, `{}`, `[]`, `"s"`, `{"a":[1,{"a":1}],"b":{"a":{}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v any
		if json.Unmarshal(b, &v) != nil {
			return
		}
		dup := checkDuplicateKeys(b) != nil
		if want := members(v) < keyTokens(b); dup != want {
			t.Fatalf("checkDuplicateKeys(%s) found a duplicate: %v, want %v", b, dup, want)
		}
	})
}
