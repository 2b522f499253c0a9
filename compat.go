package proctor

// compatSpecs registers the spec types context_f1, python and multi.
func compatSpecs(m map[string]Builder) {
	m["context_f1"] = contextF1Spec
	m["python"] = pythonSpec
	m["multi"] = multiSpec
}

// passThreshold reads OpenAI's pass_threshold option, or SPEC's threshold
// as its other spelling (not both), which must lie in [0, 1]; def when
// neither is given.
func passThreshold(o *SpecOptions, def float64) float64 {
	if o.Has("pass_threshold") && o.Has("threshold") {
		o.Errorf("threshold", "give pass_threshold or threshold, not both")
		return def
	}
	f, ok := o.OptFloat("pass_threshold")
	if !ok {
		return o.Threshold(def)
	}
	if f < 0 || f > 1 {
		o.Errorf("pass_threshold", "want a number in [0, 1], got %v", f)
		return def
	}
	return f
}
