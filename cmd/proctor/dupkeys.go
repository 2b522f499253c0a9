package main

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// duplicateKeyError is a JSON object that gives a key twice. Decoders
// disagree on which value wins (encoding/json keeps the last), so input
// lines and request bodies with one are refused, as specs are.
type duplicateKeyError struct{ key string }

func (e *duplicateKeyError) Error() string { return fmt.Sprintf("key %q given twice", e.key) }

// checkDuplicateKeys returns a *duplicateKeyError for the first object in
// the JSON text b, in reading order, that gives a key twice; nil when
// there is none or b is not JSON (the decoder then says why).
func checkDuplicateKeys(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	// One frame per open object or array: the keys seen (nil for an
	// array), and whether the next string token is a key.
	type frame struct {
		keys map[string]struct{}
		key  bool
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // the end, or not JSON: the decoder says why
		}
		top := len(stack) - 1
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				if top >= 0 {
					stack[top].key = true // in an object, a key comes after this value
				}
				var f frame
				if d == '{' {
					f = frame{keys: map[string]struct{}{}, key: true}
				}
				stack = append(stack, f)
			default:
				stack = stack[:top]
			}
			continue
		}
		if top < 0 || stack[top].keys == nil {
			continue
		}
		if stack[top].key {
			k, _ := tok.(string)
			if _, dup := stack[top].keys[k]; dup {
				return &duplicateKeyError{key: k}
			}
			stack[top].keys[k] = struct{}{}
			stack[top].key = false
		} else {
			stack[top].key = true
		}
	}
}
