package jsonpatheval

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
)

// Equal compares decoded JSON values as the json_path grader compares a
// node list with its expected values: objects member by member in any
// order, arrays in order, numbers by value whatever their Go type (int64,
// int, float64 or json.Number).
func Equal(a, b any) bool {
	switch a := a.(type) {
	case string:
		b, ok := b.(string)
		return ok && a == b
	case bool:
		b, ok := b.(bool)
		return ok && a == b
	case nil:
		return b == nil
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !Equal(av, bv) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !Equal(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	return numEqual(a, b)
}

// numEqual compares two JSON numbers (int64, float64, json.Number, or any
// Go number) by value; false when either is not a number.
func numEqual(a, b any) bool {
	switch a := a.(type) {
	case int64:
		if b, ok := b.(int64); ok {
			return a == b
		}
	case float64:
		if b, ok := b.(float64); ok {
			return a == b
		}
	}
	ra, ok := toRat(a)
	if !ok {
		return false
	}
	rb, ok := toRat(b)
	return ok && ra.Cmp(rb) == 0
}

func toRat(v any) (*big.Rat, bool) {
	switch v := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(v), true
	case int:
		return new(big.Rat).SetInt64(int64(v)), true
	case float64:
		// The shortest decimal that reads back as v: the number as written
		// (0.1 is 1/10, not the binary fraction nearest to it).
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, false
		}
		return new(big.Rat).SetString(strconv.FormatFloat(v, 'g', -1, 64))
	case json.Number:
		return new(big.Rat).SetString(string(v))
	}
	return nil, false
}
