package proctor

import "sync"

// builtin is the read-only table of built-in spec types, built on first use
// (no work at import) from the root's documented types (rootSpecTypes).
var builtin struct {
	once sync.Once
	m    map[string]Builder
}

// builtinTypes returns the builder specs of each of the root package's own
// spec types use, by name ([SpecType.builder]).
func builtinTypes() map[string]Builder {
	builtin.once.Do(func() {
		types := rootSpecTypes()
		m := make(map[string]Builder, len(types))
		for _, t := range types {
			m[t.Name] = t.builder()
		}
		builtin.m = m
	})
	return builtin.m
}
