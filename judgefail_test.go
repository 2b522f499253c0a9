package proctor_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/disclosure"
	"github.com/proctorhq/proctor/internal/proctest"
	"github.com/proctorhq/proctor/judges/openai"
)

// misconfiguredServer is a loopback chat endpoint that answers every
// request with status and body, counting the requests, and apart those
// whose body holds secondRun (the cases of a second run).
func misconfiguredServer(t *testing.T, status int, body string) (*httptest.Server, *atomic.Int64) {
	srv, n, _ := countingServer(t, status, body)
	return srv, n
}

// secondRun marks the outputs of the cases a test runs after the pool
// stopped, so that a request of the first run still reaching the server
// after it was cancelled is not taken for one of the second.
const secondRun = "second run"

func countingServer(t *testing.T, status int, body string) (*httptest.Server, *atomic.Int64, *atomic.Int64) {
	t.Helper()
	var n, second atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if b, _ := io.ReadAll(r.Body); strings.Contains(string(b), secondRun) {
			second.Add(1)
		}
		time.Sleep(5 * time.Millisecond) // let the run's other cases start their calls
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &n, &second
}

func chatJudge(t *testing.T, url, name, family string) proctor.JudgeModel {
	t.Helper()
	c, err := openai.NewChat(openai.ChatOptions{BaseURL: url, Model: "gpt-typo", Structured: openai.StructuredOff})
	if err != nil {
		t.Fatal(err)
	}
	return c.JudgeModel(name, family)
}

func tenCases() []proctor.Case { return casesSaying("") }

// casesSaying is ten cases whose outputs end with suffix.
func casesSaying(suffix string) []proctor.Case {
	cases := make([]proctor.Case, 10)
	for i := range cases {
		cases[i] = proctor.Case{ID: fmt.Sprintf("c%d", i), Sample: proctor.Sample{Input: "Capital of France?", Output: fmt.Sprintf("Paris %d.%s", i, suffix)}}
	}
	return cases
}

// TestJudgeMisconfiguredStopsRun checks that a judge whose endpoint refuses
// the key or does not know the model ends the run at once: at most one
// call per case in flight (the concurrency), an error wrapping the
// sentinel that names the judge, and no call after it.
func TestJudgeMisconfiguredStopsRun(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
	}{
		{"401 bad key", 401, `{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}`},
		{"403 forbidden", 403, `{"error":{"message":"forbidden"}}`},
		{"404 model", 404, `{"error":{"message":"The model gpt-typo does not exist","code":"model_not_found"}}`},
		{"400 model not found", 400, `{"error":"model \"gpt-typo\" not found, try pulling it first"}`},
	}
	const concurrency = 4
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, n, second := countingServer(t, tt.status, tt.body)
			pool := proctor.NewJudgePool(chatJudge(t, srv.URL, "primary", "openai"))
			judge := proctest.Must(proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{}))
			r := proctor.NewRunner(pool, proctor.WithConcurrency(concurrency), proctor.WithChecks(proctor.Check{Grader: judge}))
			rep, err := r.Run(context.Background(), tenCases())
			if !errors.Is(err, proctor.ErrJudgeMisconfigured) {
				t.Fatalf("Run error %v, want one wrapping ErrJudgeMisconfigured", err)
			}
			var ce *proctor.JudgeConfigError
			if !errors.As(err, &ce) || ce.Judge != "primary" || ce.Status != tt.status {
				t.Fatalf("error %v: want a JudgeConfigError naming judge primary with status %d", err, tt.status)
			}
			if !strings.Contains(err.Error(), "primary") {
				t.Errorf("message %q does not name the judge", err)
			}
			if got := n.Load(); got > concurrency {
				t.Errorf("%d requests made, want at most %d (the calls in flight when the first failed)", got, concurrency)
			}
			if rep == nil || !anyContains(rep.Caveats, "run stopped") {
				t.Errorf("report %v: want a caveat saying the run stopped", rep)
			}
			if _, err := r.Run(context.Background(), casesSaying(" "+secondRun)); !errors.Is(err, proctor.ErrJudgeMisconfigured) || second.Load() != 0 {
				t.Errorf("second run: err %v, %d requests; want the error again and no request", err, second.Load())
			}
			if !errors.Is(r.Err(), proctor.ErrJudgeMisconfigured) || !errors.Is(pool.Err(), proctor.ErrJudgeMisconfigured) {
				t.Errorf("Runner.Err %v, JudgePool.Err %v: want the error", r.Err(), pool.Err())
			}
		})
	}
}

// TestJudgeTransientStaysPerCase checks that a 5xx or a 429 is not a
// misconfiguration: every case is asked and not graded, and Run returns no
// error.
func TestJudgeTransientStaysPerCase(t *testing.T) {
	for _, status := range []int{429, 500, 503} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			srv, n := misconfiguredServer(t, status, `{"error":{"message":"model overloaded, not found a slot"}}`)
			pool := proctor.NewJudgePool(chatJudge(t, srv.URL, "primary", "openai"))
			r := proctor.NewRunner(pool, proctor.WithConcurrency(4), proctor.WithJudgePolicy(proctor.JudgePolicy{Retry: proctor.JudgeRetry{Attempts: 1}}),
				proctor.WithChecks(proctor.Check{Grader: proctest.Must(proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{}))}))
			rep, err := r.Run(context.Background(), tenCases())
			if err != nil {
				t.Fatalf("Run error %v, want nil: a transient error stays per case", err)
			}
			if rep.Totals.NotGraded != 10 || n.Load() != 10 {
				t.Errorf("not graded %d, requests %d; want 10 and 10", rep.Totals.NotGraded, n.Load())
			}
		})
	}
}

// TestJudgeMisconfiguredOutsideRunner checks that a grader called on its
// own stops asking a misconfigured judge after the first refusal.
func TestJudgeMisconfiguredOutsideRunner(t *testing.T) {
	srv, n := misconfiguredServer(t, 401, `{"error":{"message":"bad key"}}`)
	pool := proctor.NewJudgePool(chatJudge(t, srv.URL, "primary", "openai"))
	g := proctest.Must(proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{}, pool))
	for range 5 {
		got := g.Grade(context.Background(), &proctor.Sample{Input: "Capital?", Output: "Paris."})
		if got.Status != proctor.StatusNotGraded || !errors.Is(got.Err, proctor.ErrJudgeMisconfigured) {
			t.Fatalf("grade %v (%v), want not graded with ErrJudgeMisconfigured", got.Status, got.Err)
		}
	}
	if n.Load() != 1 {
		t.Errorf("%d requests, want 1", n.Load())
	}
}

// TestDuplicateJudgeNames checks that two judges with one name are an
// error, never a panic: Run refuses before grading, a grader is not graded.
func TestDuplicateJudgeNames(t *testing.T) {
	var calls atomic.Int64
	call := func(context.Context, string) (string, error) {
		calls.Add(1)
		return `{"verdict":"pass","confidence":"high"}`, nil
	}
	var pool *proctor.JudgePool
	func() {
		defer func() {
			if v := recover(); v != nil {
				t.Fatalf("NewJudgePool panicked: %v", v)
			}
		}()
		pool = proctor.NewJudgePool(proctor.JudgeModel{Name: "a", Family: "x", Call: call}, proctor.JudgeModel{Name: "a", Family: "y", Call: call},
			proctor.JudgeModel{Name: "nocall", Family: "z"})
	}()
	if err := pool.Err(); !errors.Is(err, proctor.ErrJudgeMisconfigured) || !strings.Contains(err.Error(), `"a"`) {
		t.Fatalf("pool.Err() = %v, want a misconfiguration naming \"a\"", err)
	}
	r := proctor.NewRunner(pool, proctor.WithChecks(proctor.Check{Grader: proctest.Must(proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{}))}))
	rep, err := r.Run(context.Background(), tenCases())
	if rep != nil || !errors.Is(err, proctor.ErrJudgeMisconfigured) {
		t.Fatalf("Run = %v, %v; want nil report and ErrJudgeMisconfigured", rep, err)
	}
	g := proctest.Must(proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{}, pool))
	if got := g.Grade(context.Background(), &proctor.Sample{Output: "Paris."}); got.Status != proctor.StatusNotGraded || !errors.Is(got.Err, proctor.ErrJudgeMisconfigured) {
		t.Errorf("grade %v (%v), want not graded with the error", got.Status, got.Err)
	}
	if calls.Load() != 0 {
		t.Errorf("%d judge calls, want none", calls.Load())
	}
}

// TestPanelCannotBeSeated checks the load-time caveat: judges of one
// family can never seat a panel; three families can; one judge means no
// panel and says nothing.
func TestPanelCannotBeSeated(t *testing.T) {
	call := func(context.Context, string) (string, error) { return `{"verdict":"pass","confidence":"high"}`, nil }
	jm := func(name, fam string) proctor.JudgeModel {
		return proctor.JudgeModel{Name: name, Family: fam, Call: call}
	}
	tests := []struct {
		name   string
		judges []proctor.JudgeModel
		warn   bool
	}{
		{"one family", []proctor.JudgeModel{jm("a", "openai"), jm("b", "openai"), jm("c", "OpenAI")}, true},
		{"two families", []proctor.JudgeModel{jm("a", "openai"), jm("b", "anthropic"), jm("c", "openai")}, true},
		{"three families", []proctor.JudgeModel{jm("a", "openai"), jm("b", "anthropic"), jm("c", "google")}, false},
		{"single judge", []proctor.JudgeModel{jm("a", "openai")}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pool := proctor.NewJudgePool(tt.judges[0], tt.judges[1:]...)
			if got := len(pool.Caveats()) > 0; got != tt.warn {
				t.Fatalf("caveats %q, want warning %v", pool.Caveats(), tt.warn)
			}
			r := proctor.NewRunner(pool, proctor.WithChecks(proctor.Check{Grader: proctest.Must(proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{}))}))
			if got := anyContains(r.Caveats(), "cannot be seated"); got != tt.warn {
				t.Errorf("Runner.Caveats %q, want warning %v", r.Caveats(), tt.warn)
			}
			rep, err := r.Run(context.Background(), tenCases()[:2])
			if err != nil {
				t.Fatal(err)
			}
			if got := anyContains(rep.Caveats, "cannot be seated"); got != tt.warn {
				t.Errorf("report caveats %q, want warning %v", rep.Caveats, tt.warn)
			}
		})
	}
}

// TestEscalationSharesCriterion is the documented rule: a confident judge
// fail next to an unrelated passing no_pii check costs one call per case;
// a deterministic check on the judge's criterion that passed convenes the
// panel, and the evidence names it.
func TestEscalationSharesCriterion(t *testing.T) {
	var mu sync.Mutex
	calls := map[string]int{}
	jm := func(name, fam, verdict string) proctor.JudgeModel {
		return proctor.JudgeModel{Name: name, Family: fam, Call: func(context.Context, string) (string, error) {
			mu.Lock()
			calls[name]++
			mu.Unlock()
			return `{"criterion":"c","violations":"wrong","basis":"answer","verdict":"` + verdict + `","confidence":"high"}`, nil
		}}
	}
	pool := func() *proctor.JudgePool {
		return proctor.NewJudgePool(jm("first", "openai", "fail"), jm("second", "anthropic", "fail"), jm("third", "google", "fail"))
	}
	nopii, err := disclosure.NewNoPII(disclosure.NoPIIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	contains, err := proctor.NewContains([]string{"Paris"}, proctor.ContainsOptions{Name: "names_paris"})
	if err != nil {
		t.Fatal(err)
	}
	judge := proctest.Must(proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{}))
	total := func() int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, c := range calls {
			n += c
		}
		clear(calls)
		return n
	}

	r := proctor.NewRunner(pool(), proctor.WithChecks(proctor.Check{Grader: nopii}, proctor.Check{Grader: judge}))
	if _, err := r.Run(context.Background(), tenCases()); err != nil {
		t.Fatal(err)
	}
	if n := total(); n != 10 {
		t.Errorf("unrelated no_pii: %d judge calls for 10 cases, want 10", n)
	}

	r = proctor.NewRunner(pool(), proctor.WithChecks(proctor.Check{Grader: nopii}, proctor.Check{Grader: contains, Criterion: "capital"},
		proctor.Check{Grader: judge, Criterion: "capital"}))
	rep, err := r.Run(context.Background(), tenCases())
	if err != nil {
		t.Fatal(err)
	}
	if n := total(); n != 20 {
		t.Errorf("same criterion: %d judge calls for 10 cases, want 20 (each panel settled by its first judge)", n)
	}
	ev, _ := rep.Cases[0].Attempts[0].Grades[2].Evidence.(*proctor.JudgeEvidence)
	if ev == nil || !ev.Panel || !anyContains(ev.PanelReasons, `names_paris on criterion "capital" passed`) || anyContains(ev.PanelReasons, "no_pii") {
		t.Errorf("evidence %+v: want a panel whose reason names names_paris and not no_pii", ev)
	}
}

// anyContains reports whether some string of ss contains sub.
func anyContains(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
