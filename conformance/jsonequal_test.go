package conformance_test

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
)

// jsonEqual compares decoded JSON values as the json_path grader compares
// a node list with its expected values: objects member by member in any
// order, arrays in order, numbers by value whatever their Go type (the
// parser gives int64 for an integer, float64 otherwise).
func jsonEqual(a, b any) bool {
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
			if !ok || !jsonEqual(av, bv) {
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
			if !jsonEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	ra, ok := toRat(a)
	if !ok {
		return false
	}
	rb, ok := toRat(b)
	return ok && ra.Cmp(rb) == 0
}

// toRat reads a decoded JSON number exactly: a float64 as the shortest
// decimal that reads back as it (0.1 is 1/10, as written).
func toRat(v any) (*big.Rat, bool) {
	switch v := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(v), true
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, false
		}
		return new(big.Rat).SetString(strconv.FormatFloat(v, 'g', -1, 64))
	case json.Number:
		return new(big.Rat).SetString(string(v))
	}
	return nil, false
}
