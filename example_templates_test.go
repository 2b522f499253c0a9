package proctor_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
)

// A spec value that names the case's item: one spec grades every case
// against the answer the case brings. A case without the key is not graded.
func Example_valueTemplates() {
	ch, err := proctor.NewCompiler().Compile([]byte(`{"type": "contains", "value": "{{item.city}}"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range []*proctor.Sample{
		{Output: "The capital is Paris.", Item: map[string]any{"city": "Paris"}},
		{Output: "The capital is Paris.", Item: map[string]any{"city": "Rome"}},
		{Output: "The capital is Paris."},
	} {
		g := ch.Grade(context.Background(), s)
		fmt.Println(strings.TrimSpace(g.Status.String() + " " + g.Reason))
	}
	// Output:
	// passed
	// failed output does not contain "Rome"
	// not_graded value: proctor: template variable missing from the sample: {{item.city}}: the sample's item has no key "city"
}
