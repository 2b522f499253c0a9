package proctor_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/proctorhq/proctor"
)

// Specs compile into checks; anything the compiler does not understand is
// a *SpecError naming the spec, the option and what was expected.
func ExampleCompiler_Compile() {
	c := proctor.NewCompiler()
	check, err := c.Compile([]byte(`{"type": "contains", "values": ["refund", "exchange"], "mode": "any", "required": true}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	g := check.Grade(context.Background(), &proctor.Sample{Output: "We can offer an exchange."})
	fmt.Println(check.Name(), check.Required, g.Status)

	_, err = c.Compile([]byte(`{"type": "contains", "value": "x", "case_sensitiv": false}`))
	var se *proctor.SpecError
	if errors.As(err, &se) {
		fmt.Println("option:", se.Option)
		fmt.Println(err)
	}
	// Output:
	// contains true passed
	// option: case_sensitiv
	// proctor: spec #0 (type contains): option "case_sensitiv": unknown option; did you mean "case_sensitive"? (type contains takes case_sensitive, mode, value, values, and name, required, criterion, severity)
}
