package proctor_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

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

// CompileContext compiles under a deadline: a spec that reaches the
// compiler after its context has ended is not compiled. Depth limits bound
// what a compile can cost before any work starts.
func ExampleCompiler_CompileContext() {
	c := proctor.NewCompiler()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := c.CompileContext(ctx, "request", []byte(`{"type": "json_path", "path": "$.status", "equals": "ok"}`)); err == nil {
		fmt.Println("compiled")
	}
	deep := `{"type": "json_path", "exists": true, "path": "$` + strings.Repeat("[?@", 40) + strings.Repeat("]", 40) + `"}`
	_, err := c.CompileContext(ctx, "request", []byte(deep))
	fmt.Println(errors.Is(err, proctor.ErrPathTooDeep))
	cancel()
	_, err = c.CompileContext(ctx, "request", []byte(`{"type": "exact_match", "expected": "ok"}`))
	fmt.Println(errors.Is(err, context.Canceled))
	// Output:
	// compiled
	// true
	// true
}
