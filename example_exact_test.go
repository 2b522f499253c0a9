package proctor_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
)

// ExactMatch ignores case and surrounding white space by default, compares
// a JSON expected value structurally, and is not graded when there is no
// expected value at all.
func ExampleNewExactMatch() {
	g := proctor.NewExactMatch(proctor.ExactMatchOptions{})
	ctx := context.Background()
	for _, s := range []proctor.Sample{
		{Output: " READY\n", Expected: proctor.Ptr("ready")},
		{Output: "```json\n{\"b\": [1, 2], \"a\": 1}\n```", Expected: proctor.Ptr(`{"a": 1, "b": [1, 2]}`), ExpectedJSON: true},
		{Output: "Rome", Expected: proctor.Ptr("Paris")},
		{Output: "hello"},
	} {
		r := g.Grade(ctx, &s)
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%-10s %s", r.Status, r.Reason)))
	}
	// Output:
	// passed
	// passed
	// failed     output "Rome" does not equal expected "Paris"
	// not_graded no expected value: set expected on the case or the spec
}
