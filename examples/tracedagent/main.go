// Command tracedagent is an agent service instrumented with the
// OpenTelemetry Go SDK, whose traces proctor grades. It answers weather
// questions by calling two tools (get_weather, convert_temperature), traces
// each answer by the OpenTelemetry GenAI semantic conventions (an
// invoke_agent span carrying proctor.case_id, over chat and execute_tool
// spans) and exports the spans with the SDK's own OTLP/HTTP exporter.
//
//	tracedagent -demo traces.jsonl              # answer the demo questions, traces to the file
//	tracedagent -receive traces.jsonl           # an OTLP/HTTP receiver on 127.0.0.1:4318, writing the file
//	tracedagent -endpoint URL -case ID QUESTION # answer one question, exporting to URL
//
// The file holds OTLP JSON, one export request a line, as the collector's
// file exporter writes it; grade it with
//
//	proctor run examples/tracedagent/testdata/suite.yaml --traces traces.jsonl
//
// See README.md in this directory.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "tracedagent:", err)
		os.Exit(2)
	}
}

// run parses the command line and does what it asks.
func run(ctx context.Context, args []string, w io.Writer) error {
	fs := flag.NewFlagSet("tracedagent", flag.ContinueOnError)
	demoFile := fs.String("demo", "", "answer the demo questions, writing their traces to `FILE` through a loopback receiver")
	receiveFile := fs.String("receive", "", "run an OTLP/HTTP receiver writing to `FILE` until interrupted")
	listen := fs.String("listen", "127.0.0.1:4318", "the receiver's `address`")
	endpoint := fs.String("endpoint", os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), "the OTLP/HTTP traces `URL` to export to")
	caseID := fs.String("case", "", "the case `ID` put on the agent span as proctor.case_id")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *demoFile != "":
		return demo(ctx, *demoFile, w)
	case *receiveFile != "":
		return receive(ctx, *listen, *receiveFile, w)
	case fs.NArg() > 0:
		return ask(ctx, *endpoint, []question{{ID: *caseID, Text: strings.Join(fs.Args(), " ")}}, w)
	}
	return errors.New("usage: tracedagent -demo FILE | -receive FILE [-listen ADDR] | [-endpoint URL] [-case ID] QUESTION")
}
