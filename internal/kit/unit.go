package kit

import "fmt"

// InUnit reports whether f lies in [0, 1]; NaN does not.
func InUnit(f float64) bool { return f >= 0 && f <= 1 }

// UnitThreshold returns *t, or def when t is nil, and an error reading
// "threshold 1.5: want 0 to 1" when *t is NaN or outside [0, 1]. A grader's
// constructor prefixes it with its package and type, so that a threshold
// no score can reach, or one every score reaches, is refused when the
// grader is built instead of failing or passing every output.
func UnitThreshold(t *float64, def float64) (float64, error) {
	if t == nil {
		return def, nil
	}
	if !InUnit(*t) {
		return 0, fmt.Errorf("threshold %v: want 0 to 1", *t)
	}
	return *t, nil
}
