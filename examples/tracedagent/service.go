package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// question is one question for the agent and the case id its trace
// carries.
type question struct{ ID, Text string }

// demoQuestions are the cases of testdata/suite.yaml.
var demoQuestions = []question{
	{"paris", "What is the weather in Paris?"},
	{"boston-fahrenheit", "What is the weather in Boston, in Fahrenheit?"},
	{"atlantis", "What is the weather in Atlantis?"},
	{"oslo-kelvin", "How warm is it in Oslo, in Kelvin?"},
	{"reykjavik", "What is the weather in Reykjavik?"},
	{"paris-long", "We are four friends planning a long weekend of walking tours, museum visits, picnics in the parks " +
		"and an evening boat trip on the river, and we would like to know whether to pack umbrellas, sun hats or warm coats, " +
		"and whether the boat trip is worth booking ahead. What is the weather in Paris?"},
}

// tracerName is the instrumentation scope of the agent's spans.
const tracerName = "github.com/proctorhq/proctor/examples/tracedagent"

// askAll answers each question with a, writing the answers to w.
func askAll(ctx context.Context, a *agent, qs []question, w io.Writer) ([]reply, error) {
	var out []reply
	for _, q := range qs {
		r, err := a.answer(ctx, q.ID, q.Text)
		if err != nil {
			return out, fmt.Errorf("%s: %w", q.ID, err)
		}
		fmt.Fprintf(w, "%s: %s\n", q.ID, r.Text)
		out = append(out, r)
	}
	return out, nil
}

// ask answers the questions, exporting their traces to the OTLP/HTTP
// endpoint, and flushes the exporter before it returns.
func ask(ctx context.Context, endpoint string, qs []question, w io.Writer) error {
	tp, err := newTracerProvider(ctx, endpoint)
	if err != nil {
		return err
	}
	_, err = askAll(ctx, newAgent(tp.Tracer(tracerName)), qs, w)
	return errors.Join(err, flush(ctx, tp))
}

// flush shuts the tracer provider down, exporting the spans it still
// holds, even when ctx was cancelled (an interrupt), for at most 10s.
func flush(ctx context.Context, tp *sdktrace.TracerProvider) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := tp.Shutdown(ctx); err != nil {
		return fmt.Errorf("flushing the traces: %w", err)
	}
	return nil
}

// demo answers the demo questions, exporting to a receiver on a loopback
// port that writes the traces to the file at path.
func demo(ctx context.Context, path string, w io.Writer) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Close()
		return err
	}
	srv := &http.Server{Handler: receiverMux(newReceiver(f)), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	err = ask(ctx, "http://"+ln.Addr().String()+"/v1/traces", demoQuestions, w)
	err = errors.Join(err, srv.Shutdown(context.WithoutCancel(ctx)))
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	if err = errors.Join(err, f.Close()); err == nil {
		fmt.Fprintf(w, "traces written to %s\n", path)
	}
	return err
}

// receive serves an OTLP/HTTP receiver on addr, appending to the file at
// path, until ctx ends.
func receive(ctx context.Context, addr, path string, w io.Writer) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: receiverMux(newReceiver(f)), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(w, "receiving OTLP/HTTP traces on http://%s/v1/traces, writing %s; interrupt to stop\n", ln.Addr(), path)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err = <-served:
		return err
	case <-ctx.Done():
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err = srv.Shutdown(ctx)
	<-served
	return errors.Join(err, f.Close())
}

// receiverMux routes OTLP/HTTP's traces path to the receiver.
func receiverMux(rc *receiver) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/v1/traces", rc)
	return mux
}
