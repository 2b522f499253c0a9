package proctor_test

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
)

// Example_fromGo is the README's "From Go" snippet, kept compiling and
// correct here: a required JSON Schema check before a contains check, one
// case with one recorded output.
func Example_fromGo() {
	ctx := context.Background()
	schema := proctor.MustJSONSchema(`{"type":"object","required":["order_id"]}`, proctor.JSONSchemaOptions{})
	orderID, err := proctor.NewContains([]string{"A-17"}, proctor.ContainsOptions{})
	if err != nil {
		panic(err)
	}
	runner := proctor.NewRunner(proctor.WithConcurrency(8))
	report, err := runner.Run(ctx, []proctor.Case{{
		ID:      "ticket-1",
		Sample:  proctor.Sample{Input: "Open a ticket for order A-17", Expected: proctor.Ptr("A-17")},
		Outputs: []proctor.Sample{{Output: "```json\n{\"order_id\": \"A-17\"}\n```"}},
		Checks: []proctor.Check{
			{Grader: schema, Required: true},
			{Grader: orderID},
		},
	}})
	if err != nil {
		panic(err)
	}
	rate, denominator, ok := report.PassRate()
	fmt.Println(report.Cases[0].Verdict, rate, denominator, ok)
	// Output: passed 1 1 true
}
