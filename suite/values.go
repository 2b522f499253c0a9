package suite

import (
	"encoding/json"
	"slices"
	"strings"
)

// checkKeys fails on a key not in allowed, or on a value that is not a map.
func (s *Suite) checkKeys(n *node, at string, allowed []string) error {
	if n.kind != kindMap {
		return s.errAt(n, at, "want an object, got %s", n.what())
	}
	for i, k := range n.keys {
		if !slices.Contains(allowed, k) {
			f := k
			if at != "" {
				f = at + "." + k
			}
			return &Error{File: s.Path, Line: n.keyLines[i], Field: f, Msg: "unknown key (known: " + strings.Join(allowed, ", ") + ")"}
		}
	}
	return nil
}

func (s *Suite) str(n *node, at string) (string, error) {
	if n.kind != kindScalar || n.raw[0] != '"' {
		return "", s.errAt(n, at, "want a string, got %s", n.what())
	}
	var v string
	_ = json.Unmarshal(n.raw, &v)
	return v, nil
}

func (s *Suite) positive(n *node, at string) (int, error) {
	var v int
	if n.what() != "a number" || json.Unmarshal(n.raw, &v) != nil || v < 1 || v > 1000 {
		return 0, s.errAt(n, at, "want an integer from 1 to 1000, got %s", strings.TrimSpace(string(n.JSON())))
	}
	return v, nil
}

func (s *Suite) nonNegFloat(n *node, at string) (float64, error) {
	var v float64
	if n.what() != "a number" || json.Unmarshal(n.raw, &v) != nil || v < 0 {
		return 0, s.errAt(n, at, "want a number >= 0, got %s", strings.TrimSpace(string(n.JSON())))
	}
	return v, nil
}
