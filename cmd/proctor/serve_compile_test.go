package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/similarity"
)

// deepSchemaSpec is a json_schema spec whose schema nests anyOf n deep:
// the validator's own compile of it is superquadratic in n.
func deepSchemaSpec(n int) string {
	return `{"type":"json_schema","schema":` + strings.Repeat(`{"anyOf":[`, n) + `true` + strings.Repeat(`]}`, n) + `}`
}

// deepPathSpec is a json_path spec of n nested filters.
func deepPathSpec(n int) string {
	return `{"type":"json_path","exists":true,"path":"$` + strings.Repeat(`[?@`, n) + strings.Repeat(`]`, n) + `"}`
}

// TestServeCompileDepthRefused: through the binary's serve, a 36 KB schema
// of anyOf nested 3,000 deep and a 10 KB query of 2,500 nested filters are
// refused before they compile (400, naming the option and the limit),
// where they used to compile for over a minute and allocate 22 GB.
func TestServeCompileDepthRefused(t *testing.T) {
	base, stop := startServe(t, "--grade-timeout", "15s")
	defer stop()
	for _, tc := range []struct{ spec, option, limit string }{
		{deepSchemaSpec(3000), `option "schema"`, fmt.Sprint(proctor.MaxSchemaDepth)},
		{deepPathSpec(2500), `option "path"`, fmt.Sprint(proctor.MaxJSONPathNesting)},
	} {
		code, out := post(t, base+"/v1/grade", "application/json", `{"grader":`+tc.spec+`,"sample":{"output":"{}"}}`)
		msg := fmt.Sprint(out["error"])
		if code != http.StatusBadRequest || !strings.Contains(msg, tc.option) || !strings.Contains(msg, "more than "+tc.limit) {
			t.Errorf("spec of %d bytes: %d %q, want 400 naming %s and the limit %s", len(tc.spec), code, msg, tc.option, tc.limit)
		}
	}
	// Within the limits, the same shapes compile.
	code, out := post(t, base+"/v1/grade", "application/json", `{"grader":`+deepSchemaSpec(60)+`,"sample":{"output":"{}"}}`)
	if code != http.StatusOK {
		t.Errorf("schema 60 anyOf deep: %d %v, want 200", code, out)
	}
}

// TestServeRefusalCached: a spec refused because its compile allocated
// too much is refused again from the cache, not compiled again.
func TestServeRefusalCached(t *testing.T) {
	cfg := testServeConfig()
	cfg.cacheBytes = 16 << 20
	s, ts := newTestServer(t, cfg, nil)
	builds := registerFat(s)
	for i := range 3 {
		code, out := post(t, ts.URL+"/v1/grade", "application/json", `{"grader":{"type":"fat","mb":12},"sample":{"output":"x"}}`)
		if code != http.StatusRequestEntityTooLarge || !strings.Contains(fmt.Sprint(out["error"]), "allocated") {
			t.Errorf("send %d: %d %v, want 413", i, code, out)
		}
	}
	if n := builds.Load(); n != 1 {
		t.Errorf("a refused spec sent 3 times compiled %d times, want 1", n)
	}
}

// registerStuck registers the spec type "stuck", whose builder blocks
// until release is closed; entered receives once per build begun.
func registerStuck(s *server) (entered chan struct{}, release chan struct{}) {
	entered, release = make(chan struct{}, 8), make(chan struct{})
	s.comp.Register("stuck", func(o *proctor.SpecOptions) (proctor.Grader, error) {
		o.Int("n", 0)
		entered <- struct{}{}
		<-release
		return proctor.Func("stuck", func(context.Context, *proctor.Sample) proctor.Grade { return proctor.Pass("") }), o.Err()
	})
	return entered, release
}

// TestServeCompileDeadline: a compile that outlasts the request's deadline
// answers 503 at the deadline, and while it holds its lane another
// request's spec still compiles and grades.
func TestServeCompileDeadline(t *testing.T) {
	cfg := testServeConfig()
	cfg.gradeTimeout = 300 * time.Millisecond
	s, ts := newTestServer(t, cfg, nil)
	entered, release := registerStuck(s)
	defer close(release)
	code, out := post(t, ts.URL+"/v1/grade", "application/json", `{"grader":{"type":"stuck"},"sample":{"output":"x"}}`)
	<-entered
	if code != http.StatusServiceUnavailable || !strings.Contains(fmt.Sprint(out["error"]), "deadline") {
		t.Errorf("compile past the deadline: %d %v, want 503 naming the deadline", code, out)
	}
	code, out = post(t, ts.URL+"/v1/grade", "application/json", `{"grader":{"type":"exact_match","expected":"x"},"sample":{"output":"x"}}`)
	if code != http.StatusOK {
		t.Errorf("another spec while a compile is stuck: %d %v, want 200", code, out)
	}
}

// TestGradeCompileCancelled: proctor grade's spec cache returns as soon as
// its context ends (the first SIGINT), with a compile still running, and
// the compile's grader is released once it ends.
func TestGradeCompileCancelled(t *testing.T) {
	comp := proctor.NewCompiler()
	entered, release := make(chan struct{}, 1), make(chan struct{})
	closed := make(chan struct{})
	comp.Register("stuck", func(o *proctor.SpecOptions) (proctor.Grader, error) {
		entered <- struct{}{}
		<-release
		return closer{closed}, nil
	})
	c := newSpecCache(8, "the line's grader", comp, allowAll)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.get(ctx, []byte(`{"type":"stuck"}`))
		done <- err
	}()
	<-entered
	cancel()
	if err := <-done; err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("get after cancel: %v, want the context's error", err)
	}
	close(release)
	<-closed // the abandoned grader is closed, not leaked
	if n := c.ll.Len(); n != 0 {
		t.Errorf("a cancelled compile left %d cache entries", n)
	}
}

type closer struct{ closed chan struct{} }

func (closer) Name() string                                         { return "stuck" }
func (closer) Grade(context.Context, *proctor.Sample) proctor.Grade { return proctor.Pass("") }
func (c closer) Close() error                                       { close(c.closed); return nil }

// TestServeWorkCharged: each chrf grade of a 200 KB output against a
// 200 KB reference is charged its estimated working memory (256 bytes per
// input byte, about 100 MB) against --max-inflight, so with room for one
// at a time a burst of them is answered 503 (Retry-After) past the queue
// wait instead of grading all at once; one whose estimate alone is over
// the limit gets 413.
func TestServeWorkCharged(t *testing.T) {
	text := strings.Repeat("the quick brown fox jumps over a lazy dog. ", 200<<10/43)
	body := fmt.Sprintf(`{"grader":{"type":"chrf","word_order":2},"sample":{"output":%q,"expected":%q}}`, text, text)
	est := int64(256 * len(body))
	cfg := testServeConfig()
	cfg.maxBody, cfg.concurrency, cfg.queueWait = 1<<20, 8, time.Millisecond
	cfg.maxInflight = est + est/2 + 4*int64(len(body))*8 // one grade, and every body
	_, ts := newTestServer(t, cfg, nil)
	codes := make(chan int, 8)
	for range 8 {
		go func() {
			resp, err := http.Post(ts.URL+"/v1/grade", "application/json", strings.NewReader(body))
			if err != nil {
				codes <- -1
				return
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "" {
				codes <- -2
				return
			}
			codes <- resp.StatusCode
		}()
	}
	got := map[int]int{}
	for range 8 {
		got[<-codes]++
	}
	if got[http.StatusOK] < 1 || got[http.StatusServiceUnavailable] < 1 || got[http.StatusOK]+got[http.StatusServiceUnavailable] != 8 {
		t.Errorf("burst of 8 chrf grades with room for one: %v, want some 200 and the rest 503 with Retry-After", got)
	}
	cfg.maxInflight = est / 2
	_, ts2 := newTestServer(t, cfg, nil)
	code, out := post(t, ts2.URL+"/v1/grade", "application/json", body)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(fmt.Sprint(out["error"]), "--max-inflight") {
		t.Errorf("estimate over --max-inflight: %d %v, want 413", code, out)
	}
}

// TestWorkEstimate: a spec is charged at its costliest type, nested or
// not, and bleu and chrf stop at the input they compare.
func TestWorkEstimate(t *testing.T) {
	for _, tc := range []struct {
		key   string
		input int
		want  int64
	}{
		{`{"type":"exact_match","expected":"x"}`, 1 << 20, 0},
		{`{"type":"go_compiles"}`, 1 << 20, 32 << 20},
		{`{"type":"all","graders":[{"type":"bleu"},{"type":"chrf"}]}`, 1 << 10, 256 << 10},
		{`{"type":"chrf"}`, 8 << 20, 256 * 2 * similarity.MaxNGramText},
	} {
		cc := &cachedCheck{work: specWork(tc.key)}
		if got := cc.estimate(tc.input); got != tc.want {
			t.Errorf("%s on %d bytes: %d, want %d", tc.key, tc.input, got, tc.want)
		}
	}
}

// TestBinaryGradeInterruptsCompile: the first SIGINT stops proctor grade
// while its --grader spec compiles (a 60 KB patternProperties schema
// whose compile takes seconds): the run ends saying the compile was
// cancelled, instead of finishing the compile first.
func TestBinaryGradeInterruptsCompile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	var keys []string
	for i := 0; len(keys)*16 < 60<<10; i++ {
		keys = append(keys, fmt.Sprintf(`"[a-z]{1000}x%d":{}`, i))
	}
	spec := `{"type":"json_schema","schema":{"patternProperties":{` + strings.Join(keys, ",") + `}}}`
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "grade", "--grader", spec)
	cmd.Env = append(os.Environ(), asCLI+"=1")
	cmd.Stdin = strings.NewReader(`{"id":"c1","output":"{}"}` + "\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatal("proctor grade kept compiling after SIGINT")
	}
	if !strings.Contains(stderr.String(), "compiling the grader spec: context canceled") {
		t.Errorf("stderr %q, want the compile reported cancelled", stderr.String())
	}
}

// TestServeRefusedQuotes: through the binary's serve, a 1 MB body of
// curly quotes graded by refused is answered within its deadline. The
// quotation finder was quadratic in the quote marks: this body took 26.6 s
// and came back "failed" under a 10 s deadline. A verdict past the
// deadline is the failure this test looks for, so its 10 s deadline is
// fifty times the grade's cost, not a speed measurement.
func TestServeRefusedQuotes(t *testing.T) {
	base, stop := startServe(t, "--grade-timeout", "10s", "--max-body", "4194304")
	defer stop()
	body := `{"grader":{"type":"refused"},"sample":{"output":"` + strings.Repeat("“", 350_000) + `"}}`
	start := time.Now()
	code, out := post(t, base+"/v1/grade", "application/json", body)
	took := time.Since(start)
	res, _ := out["results"].([]any)
	if code != http.StatusOK || len(res) != 1 {
		t.Fatalf("%d %v, want one result", code, out)
	}
	status := res[0].(map[string]any)["status"]
	if took > 10*time.Second && status != "not_graded" {
		t.Errorf("a %q verdict after %v, past the 10 s deadline", status, took)
	}
	if status == "not_graded" {
		t.Errorf("not graded (%v) after %v: the grade should take well under its deadline", res[0], took)
	}
}
