package proctor

import "sync"

// builtin is the read-only table of built-in spec types, built on first use
// (no work at import). Each grader family contributes its entries from its
// own file through a func(map[string]Builder) listed in builtinFamilies.
var builtin struct {
	once sync.Once
	m    map[string]Builder
}

func builtinTypes() map[string]Builder {
	builtin.once.Do(func() {
		m := map[string]Builder{}
		for _, add := range builtinFamilies() {
			add(m)
		}
		builtin.m = m
	})
	return builtin.m
}

func builtinFamilies() []func(map[string]Builder) {
	return []func(map[string]Builder){
		textSpecs,
		combinatorSpecs,
		regexSpecs,
		jsonSpecs,
		jsonPathSpecs,
		answerSpecs,
		limitSpecs,
		thresholdSpecs,
		webhookSpecs,
		similaritySpecs,
		judgeSpecs,
		compatSpecs,
		stringMetricSpecs,
		chrfSpecs,
		jsonDiffSpecs,
		weightedSpecs,
		xmlSpecs,
		templateSpecs, // last: it wraps entries of the families above
	}
}
