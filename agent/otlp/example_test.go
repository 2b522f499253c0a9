package otlp_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/proctorhq/proctor/agent/otlp"
)

func ExampleReader() {
	// One line of the collector file exporter's OTLP JSON: an agent span
	// naming its case, and a tool call under it.
	in := `{"resourceSpans":[{"scopeSpans":[{"spans":[
	 {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0000000000000002","parentSpanId":"0000000000000001",
	  "startTimeUnixNano":"1000000","endTimeUnixNano":"2000000","status":{"code":2},
	  "attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},
	                {"key":"gen_ai.tool.name","value":{"stringValue":"charge"}}]},
	 {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0000000000000001",
	  "startTimeUnixNano":"0","endTimeUnixNano":"5000000",
	  "attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}},
	                {"key":"proctor.case_id","value":{"stringValue":"refund-1"}}]}]}]}]}`
	r := otlp.NewReader(strings.NewReader(strings.ReplaceAll(in, "\n", "")+"\n"), otlp.Options{})
	for {
		t, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			panic(err)
		}
		s := t.Sample
		fmt.Println(s.ID, s.ToolCalls[0].Name, s.ToolCalls[0].IsError, *s.Metrics.LatencyMS, "ms")
	}
	// Output: refund-1 charge true 5 ms
}
