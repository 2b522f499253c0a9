//go:build !race

// Package race tells tests whether the race detector is on, so that
// allocation tests can skip themselves under it.
package race

// Enabled reports whether the binary was built with -race, under which
// allocation counts and timings differ.
const Enabled = false
