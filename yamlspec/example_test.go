package yamlspec_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/yamlspec"
)

// A grader spec written in YAML is converted to JSON and compiled.
func ExampleToJSON() {
	src := []byte(`
type: contains
values: [refund, exchange]
mode: any
required: true
`)
	spec, err := yamlspec.ToJSON(src)
	if err != nil {
		fmt.Println(err)
		return
	}
	check, err := proctor.NewCompiler().Compile(spec)
	if err != nil {
		fmt.Println(err)
		return
	}
	g := check.Grade(context.Background(), &proctor.Sample{Output: "We can offer an exchange."})
	fmt.Println(string(spec))
	fmt.Println(check.Required, g.Status)
	// Output:
	// {"type":"contains","values":["refund","exchange"],"mode":"any","required":true}
	// true passed
}

// An error in the JSON can be pointed back at its YAML line.
func ExampleToJSONLines() {
	src := []byte("name: support\ngraders:\n  - type: contains\n    value: x\n  - type: nope\n")
	_, lines, err := yamlspec.ToJSONLines(src)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("graders[1] is on line", lines.Line("/graders/1/type"))
	// Output: graders[1] is on line 5
}
