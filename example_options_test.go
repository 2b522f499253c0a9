package proctor_test

import (
	"fmt"

	"github.com/proctorhq/proctor"
)

// A Compiler lists the spec types it knows and the options each reads, for
// tools that write or check specs (the drift test of docs/spec.md uses it).
func ExampleCompiler_Options() {
	c := proctor.NewCompiler()
	opts, ok := c.Options("regex")
	fmt.Println(opts, ok)
	_, ok = c.Options("regexp")
	fmt.Println(ok)
	// Output:
	// [case_sensitive match pattern] true
	// false
}
