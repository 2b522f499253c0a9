package fastschema

import (
	"encoding/json"
	"math/big"
	"strconv"
)

// equals is JSON equality with numbers compared by value.
func equals(a, b any) result {
	switch a := a.(type) {
	case nil:
		if b == nil {
			return valid
		}
		if !isJSON(b) {
			return unknown
		}
		return invalid
	case bool:
		if bb, ok := b.(bool); ok {
			return verdict(a == bb)
		}
	case string:
		if bs, ok := b.(string); ok {
			return verdict(a == bs)
		}
	case json.Number:
		if bn, ok := b.(json.Number); ok {
			return numEqual(a, bn)
		}
	case []any:
		if bs, ok := b.([]any); ok {
			if len(a) != len(bs) {
				return invalid
			}
			r := valid
			for i := range a {
				if r = worse(r, equals(a[i], bs[i])); r == invalid {
					return r
				}
			}
			return r
		}
	case map[string]any:
		if bm, ok := b.(map[string]any); ok {
			if len(a) != len(bm) {
				return invalid
			}
			r := valid
			for k, av := range a {
				bv, ok := bm[k]
				if !ok {
					return invalid
				}
				if r = worse(r, equals(av, bv)); r == invalid {
					return r
				}
			}
			return r
		}
	default:
		return unknown
	}
	if !isJSON(b) {
		return unknown
	}
	return invalid
}

func isJSON(v any) bool {
	switch v.(type) {
	case nil, bool, string, json.Number, []any, map[string]any:
		return true
	}
	return false
}

func verdict(ok bool) result {
	if ok {
		return valid
	}
	return invalid
}

func numEqual(a, b json.Number) result {
	if a == b {
		return valid
	}
	fa, ea := strconv.ParseFloat(string(a), 64)
	fb, eb := strconv.ParseFloat(string(b), 64)
	if (ea == nil || isRange(ea)) && (eb == nil || isRange(eb)) && fa != fb {
		return invalid
	}
	ra, ok1 := new(big.Rat).SetString(string(a))
	rb, ok2 := new(big.Rat).SetString(string(b))
	if !ok1 || !ok2 {
		return unknown
	}
	return verdict(ra.Cmp(rb) == 0)
}
