package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/agent/otlp"
	"github.com/proctorhq/proctor/suite"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

const suitePath = "testdata/suite.yaml"

// export runs fn with a tracer provider built as the service builds it,
// exporting through the SDK's OTLP/HTTP exporter to a loopback receiver;
// it shuts the provider down (which flushes its batch) and returns the
// file the receiver wrote.
func export(t *testing.T, fn func(ctx context.Context, tp *sdktrace.TracerProvider)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "traces.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(receiverMux(newReceiver(f)))
	ctx := t.Context()
	tp, err := newTracerProvider(ctx, srv.URL+"/v1/traces")
	if err != nil {
		t.Fatal(err)
	}
	fn(ctx, tp)
	if err := flush(ctx, tp); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// exportDemo answers the demo questions and returns the traces file and
// the agent's own account of each answer, by case id.
func exportDemo(t *testing.T) (string, map[string]reply) {
	replies := map[string]reply{}
	path := export(t, func(ctx context.Context, tp *sdktrace.TracerProvider) {
		rs, err := askAll(ctx, newAgent(tp.Tracer(tracerName)), demoQuestions, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rs {
			replies[demoQuestions[i].ID] = r
		}
	})
	return path, replies
}

// readTraces reads the file as proctor run --traces does, returning the
// traces by case id and the reader's span counts.
func readTraces(t *testing.T, path string) (byCase map[string][]*otlp.Trace, spans, skipped int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := otlp.NewReader(f, otlp.Options{})
	byCase = map[string][]*otlp.Trace{}
	for {
		tr, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		byCase[tr.Sample.ID] = append(byCase[tr.Sample.ID], tr)
	}
	return byCase, r.Spans(), r.Skipped()
}

// gradeSuite grades the traces with the suite as proctor run --traces
// does: the suite's cases without outputs take the samples of the traces
// that carry their id (suite.Options.Traced).
func gradeSuite(t *testing.T, byCase map[string][]*otlp.Trace) *proctor.Report {
	t.Helper()
	traced := func(id string) ([]proctor.Sample, bool) {
		var out []proctor.Sample
		for _, tr := range byCase[id] {
			out = append(out, tr.Sample)
		}
		return out, len(out) > 0
	}
	s, err := suite.Load(suitePath, suite.Options{Traced: traced})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var cases []proctor.Case
	for c, err := range s.Cases() {
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	rep, err := proctor.NewRunner(s.RunnerOptions()...).Run(t.Context(), cases)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestTracesFromTheSDK: the traces the SDK's own exporter sent read back
// as what the agent did - its tool calls in order, the failed one marked,
// its token usage counted once, its answer and model - with no span
// skipped as not following the GenAI conventions.
func TestTracesFromTheSDK(t *testing.T) {
	path, replies := exportDemo(t)
	byCase, spans, skipped := readTraces(t, path)
	if skipped != 0 {
		t.Errorf("%d of %d spans the SDK exported were skipped as not following the conventions, want 0", skipped, spans)
	}
	wantSpans := 0
	for _, q := range demoQuestions {
		r := replies[q.ID]
		wantSpans += 1 + r.ModelRequests + len(r.Tools)
		if len(byCase[q.ID]) != 1 {
			t.Errorf("%s: %d traces, want 1", q.ID, len(byCase[q.ID]))
			continue
		}
		tr := byCase[q.ID][0]
		s := tr.Sample
		var names, failed []string
		for _, c := range s.ToolCalls {
			names = append(names, c.Name)
			if c.IsError {
				failed = append(failed, c.Name)
			}
		}
		if !slices.Equal(names, r.Tools) || !slices.Equal(failed, r.FailedTools) {
			t.Errorf("%s: calls %v (failed %v), the agent made %v (failed %v)", q.ID, names, failed, r.Tools, r.FailedTools)
		}
		m := s.Metrics
		if m.InputTokens == nil || m.OutputTokens == nil || m.TotalTokens == nil ||
			*m.InputTokens != float64(r.InputTokens) || *m.OutputTokens != float64(r.OutputTokens) ||
			*m.TotalTokens != float64(r.InputTokens+r.OutputTokens) {
			t.Errorf("%s: tokens %s/%s/%s, the agent counted %d in and %d out (its agent span repeats them: not twice)",
				q.ID, num(m.InputTokens), num(m.OutputTokens), num(m.TotalTokens), r.InputTokens, r.OutputTokens)
		}
		if s.Output != r.Text || s.Model.Name != responseModel {
			t.Errorf("%s: output %q model %q, want %q and %q", q.ID, s.Output, s.Model.Name, r.Text, responseModel)
		}
		if tr.Spans != 1+r.ModelRequests+len(r.Tools) || tr.Inferences != r.ModelRequests || tr.Errors != len(r.FailedTools) || tr.Skipped != 0 {
			t.Errorf("%s: spans %d inferences %d errors %d skipped %d; the agent made %d model and %d tool calls, %d failed",
				q.ID, tr.Spans, tr.Inferences, tr.Errors, tr.Skipped, r.ModelRequests, len(r.Tools), len(r.FailedTools))
		}
		if m.LatencyMS == nil || *m.LatencyMS <= 0 || *m.LatencyMS != tr.DurationMS {
			t.Errorf("%s: latency %v, duration %v", q.ID, m.LatencyMS, tr.DurationMS)
		}
	}
	if spans != wantSpans {
		t.Errorf("read %d spans, the agent made %d", spans, wantSpans)
	}
	if r := byCase["reykjavik"]; len(r) == 1 && r[0].DurationMS < 25 {
		t.Errorf("reykjavik: duration %v ms, but its station takes 25 ms", r[0].DurationMS)
	}
	// The failed call carries its error as its result.
	if a := byCase["atlantis"]; len(a) == 1 && len(a[0].Sample.ToolCalls) == 1 {
		if got := string(a[0].Sample.ToolCalls[0].Result); got != `{"error":"no weather station for Atlantis"}` {
			t.Errorf("atlantis: result %s", got)
		}
	}
}

// num prints a measurement, or "none".
func num(p *float64) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprint(*p)
}

// grades are a case's grades (one attempt), as "grader: status: reason".
func grades(c proctor.CaseResult) []string {
	var out []string
	for _, a := range c.Attempts {
		for _, g := range a.Grades {
			out = append(out, fmt.Sprintf("%s: %s: %s", g.Grader, g.Status, g.Reason))
		}
	}
	return out
}

// TestSuiteGradesTheTraces: testdata/suite.yaml grades the SDK's traces,
// and each verdict and reason is what follows from what the agent did.
func TestSuiteGradesTheTraces(t *testing.T) {
	path, replies := exportDemo(t)
	byCase, _, _ := readTraces(t, path)
	rep := gradeSuite(t, byCase)
	const budget = 150 // the suite's token_threshold
	total := func(id string) int { return replies[id].InputTokens + replies[id].OutputTokens }
	tokens := func(id string) string {
		if total(id) <= budget {
			return "token_threshold: passed: "
		}
		return fmt.Sprintf("token_threshold: failed: metrics.total_tokens is %d tokens, over the limit of %d tokens", total(id), budget)
	}
	want := map[string]struct {
		verdict proctor.Status
		grades  []string // each is among the case's grades
	}{
		"paris": {proctor.StatusPassed, []string{"trajectory_match: passed: ", "tool_status: passed: ", "contains: passed: ", tokens("paris")}},
		"boston-fahrenheit": {proctor.StatusPassed, []string{"trajectory_match: passed: ", "contains: passed: ",
			"trace_spans: passed: ", tokens("boston-fahrenheit")}},
		// The failed call fails tool_status, naming the tool and its
		// error, and trace_spans' max_errors; the path itself is right.
		"atlantis": {proctor.StatusFailed, []string{
			`tool_status: failed: call 1 (get_weather) errored: {"error":"no weather station for Atlantis"}`,
			"trace_spans: failed: trace: error_count 1 > 0",
			"trajectory_match: passed: "}},
		// The planner knows no Kelvin: the path stops after the lookup.
		"oslo-kelvin": {proctor.StatusFailed, []string{
			`trajectory_match: failed: strict trajectory: call 2: want convert_temperature({"celsius":9,"to":"K"}), got no more calls (1 of 2)`,
			"tool_status: passed: "}},
		"reykjavik":  {proctor.StatusFailed, []string{"trajectory_match: passed: ", "latency_threshold: passed: "}},
		"paris-long": {proctor.StatusFailed, []string{"trajectory_match: passed: ", tokens("paris-long")}},
	}
	if total("paris-long") <= budget || total("boston-fahrenheit") > budget {
		t.Errorf("the agent's usage moved: paris-long %d, boston-fahrenheit %d tokens, budget %d", total("paris-long"), total("boston-fahrenheit"), budget)
	}
	if len(rep.Cases) != len(want) {
		t.Fatalf("%d cases graded, want %d", len(rep.Cases), len(want))
	}
	for _, c := range rep.Cases {
		w := want[c.ID]
		got := grades(c)
		if c.Verdict != w.verdict {
			t.Errorf("%s: %v, want %v; grades:\n%s", c.ID, c.Verdict, w.verdict, strings.Join(got, "\n"))
		}
		for _, g := range w.grades {
			if !slices.Contains(got, g) {
				t.Errorf("%s: no grade %q among\n%s", c.ID, g, strings.Join(got, "\n"))
			}
		}
		if c.ID == "reykjavik" {
			// The case's own 10 ms budget, under the station's 25 ms.
			i := slices.IndexFunc(got, func(g string) bool { return strings.HasPrefix(g, "latency_threshold: failed: ") })
			if i < 0 || !strings.HasSuffix(got[i], "ms, over the limit of 10 ms") {
				t.Errorf("reykjavik: no failed latency_threshold among\n%s", strings.Join(got, "\n"))
			}
		}
	}
}

// TestNonConformingSpanCounted: a span that follows no GenAI convention
// (an HTTP server span the agent runs under) is counted as skipped and
// still counts in the trace's spans; the trace still reads as the case.
func TestNonConformingSpanCounted(t *testing.T) {
	path := exportWrapped(t)
	byCase, spans, skipped := readTraces(t, path)
	if skipped != 1 || len(byCase["paris"]) != 1 || len(byCase) != len(demoQuestions) {
		t.Fatalf("skipped %d of %d spans, %d paris traces, %d cases; want 1 skipped, 1 trace, %d cases", skipped, spans, len(byCase["paris"]), len(byCase), len(demoQuestions))
	}
	tr := byCase["paris"][0]
	if tr.Skipped != 1 || tr.Spans != 5 || tr.Sample.Item[otlp.TraceItemKey].(map[string]any)["skipped_spans"] != 1 {
		t.Errorf("paris: skipped %d of %d spans, item %v; want 1 of 5", tr.Skipped, tr.Spans, tr.Sample.Item)
	}
	if names := tr.Sample.ToolCalls; len(names) != 1 || names[0].Name != "get_weather" {
		t.Errorf("paris: calls %v", names)
	}
}

// exportWrapped answers the demo questions, the first (paris) inside an
// HTTP server span, as a service answering a request would, and returns
// the traces file.
func exportWrapped(t *testing.T) string {
	return export(t, func(ctx context.Context, tp *sdktrace.TracerProvider) {
		a := newAgent(tp.Tracer(tracerName))
		reqCtx, sp := tp.Tracer("net/http").Start(ctx, "POST /ask", trace.WithSpanKind(trace.SpanKindServer))
		_, err := a.answer(reqCtx, demoQuestions[0].ID, demoQuestions[0].Text)
		sp.End()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := askAll(ctx, a, demoQuestions[1:], io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}

// TestProctorRun grades the SDK's traces with the proctor binary, as
// README.md shows: exit 1 (cases failed), the same verdicts, no caveat
// for the SDK's own spans, and the skipped span named for the wrapped one.
func TestProctorRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/proctor")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build cmd/proctor with")
	}
	bin := filepath.Join(t.TempDir(), "proctor")
	if out, err := exec.Command(goTool, "build", "-o", bin, "github.com/proctorhq/proctor/cmd/proctor").CombinedOutput(); err != nil {
		t.Fatalf("building cmd/proctor: %v\n%s", err, out)
	}
	runCLI := func(traces string) (int, proctor.Report) {
		out := filepath.Join(t.TempDir(), "report.json")
		cmd := exec.Command(bin, "run", suitePath, "--traces", traces, "--out", out)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = io.Discard, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		var rep proctor.Report
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("exit %d, no report: %v; stderr %s", code, err, stderr.String())
		}
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		return code, rep
	}
	path, _ := exportDemo(t)
	code, rep := runCLI(path)
	verdicts := map[string]proctor.Status{}
	for _, c := range rep.Cases {
		verdicts[c.ID] = c.Verdict
	}
	want := map[string]proctor.Status{"paris": proctor.StatusPassed, "boston-fahrenheit": proctor.StatusPassed,
		"atlantis": proctor.StatusFailed, "oslo-kelvin": proctor.StatusFailed, "reykjavik": proctor.StatusFailed, "paris-long": proctor.StatusFailed}
	if code != 1 || !maps.Equal(verdicts, want) || len(rep.Caveats) != 0 {
		t.Errorf("proctor run: exit %d, verdicts %v, caveats %q; want exit 1, %v, no caveats", code, verdicts, rep.Caveats, want)
	}
	wrapped := exportWrapped(t)
	_, spans, _ := readTraces(t, wrapped)
	_, rep = runCLI(wrapped)
	if c := strings.Join(rep.Caveats, "\n"); !strings.Contains(c, fmt.Sprintf("1 of %d spans skipped: not following the GenAI semantic conventions", spans)) {
		t.Errorf("proctor run on the wrapped trace: caveats %q lack the skipped span", c)
	}
}

// TestCommandLine runs the command's three modes: -receive until
// cancelled, one question exported to it with -endpoint, and -demo.
func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	received := filepath.Join(dir, "received.jsonl")
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-receive", received, "-listen", "127.0.0.1:0"}, pw) }()
	banner, err := bufio.NewReader(pr).ReadString('\n')
	go io.Copy(io.Discard, pr)
	url, _, ok := strings.Cut(strings.TrimPrefix(banner, "receiving OTLP/HTTP traces on "), ",")
	if err != nil || !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("receiver banner %q, %v", banner, err)
	}
	var out bytes.Buffer
	if err := run(t.Context(), []string{"-endpoint", url, "-case", "oslo", "What is the weather in Oslo?"}, &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != "oslo: It is 9°C and rainy in Oslo.\n" {
		t.Errorf("answer %q", out.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("receiver stopped with %v", err)
	}
	pw.Close()
	if byCase, _, skipped := readTraces(t, received); len(byCase["oslo"]) != 1 || skipped != 0 {
		t.Errorf("received %d oslo traces, %d spans skipped", len(byCase["oslo"]), skipped)
	}

	demoFile := filepath.Join(dir, "demo.jsonl")
	out.Reset()
	if err := run(t.Context(), []string{"-demo", demoFile}, &out); err != nil {
		t.Fatal(err)
	}
	if byCase, _, _ := readTraces(t, demoFile); len(byCase) != len(demoQuestions) || !strings.HasSuffix(out.String(), "traces written to "+demoFile+"\n") {
		t.Errorf("-demo: %d cases traced, printed %q", len(byCase), out.String())
	}
	if err := run(t.Context(), nil, io.Discard); err == nil || !strings.Contains(err.Error(), "usage:") {
		t.Errorf("no arguments: %v, want the usage", err)
	}
}
