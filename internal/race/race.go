//go:build race

package race

// Enabled reports whether the binary was built with -race, under which
// allocation counts and timings differ.
const Enabled = true
