package proctor_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/config"
	"github.com/proctorhq/proctor/internal/proctest"
	"github.com/proctorhq/proctor/judges/openai"
)

// usageServer is a loopback chat endpoint that passes every answer and
// reports the most a call can use: a token per prompt byte plus 64, and
// every completion token the request allowed. It counts the requests and
// the prompt bytes it was sent.
func usageServer(t *testing.T) (*httptest.Server, *atomic.Int64, *atomic.Int64) {
	t.Helper()
	var n, longest atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		var req struct {
			Messages  []struct{ Content string } `json:"messages"`
			MaxTokens int                        `json:"max_tokens"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
			http.Error(w, "bad request", 400)
			return
		}
		p := len(req.Messages[0].Content)
		if int64(p) > longest.Load() {
			longest.Store(int64(p))
		}
		time.Sleep(20 * time.Millisecond) // the run's other calls start meanwhile
		fmt.Fprintf(w, `{"choices":[{"message":{"content":%q}}],"usage":{"prompt_tokens":%d,"completion_tokens":%d}}`,
			`{"criterion":"c","violations":"none","basis":"answer","verdict":"pass","confidence":"high"}`, p+64, req.MaxTokens)
	}))
	t.Cleanup(srv.Close)
	return srv, &n, &longest
}

// TestJudgeBudgetHoldsUnderConcurrency: with four calls in flight and a
// cost budget that allows one call, one call is made and the cost stays
// within the budget; the other cases are not graded for the budget.
func TestJudgeBudgetHoldsUnderConcurrency(t *testing.T) {
	srv, n, _ := usageServer(t)
	const maxTokens = 500
	c, err := openai.NewChat(openai.ChatOptions{BaseURL: srv.URL, Model: "m", MaxTokens: maxTokens, Structured: openai.StructuredOff,
		InputPerMTok: 10, OutputPerMTok: 30})
	if err != nil {
		t.Fatal(err)
	}
	pool := proctor.NewJudgePool(c.JudgeModel("priced", "openai"))
	judge := proctest.Must(proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{}))
	// One call's most: about 1,400 prompt bytes and 500 completion tokens,
	// about $0.03; the budget allows that once, not twice.
	const budget = 0.045
	r := proctor.NewRunner(pool, proctor.WithConcurrency(4), proctor.WithJudgePolicy(proctor.JudgePolicy{Budget: proctor.JudgeBudget{CostUSD: budget}}),
		proctor.WithChecks(proctor.Check{Grader: judge}))
	rep, err := r.Run(context.Background(), tenCases())
	if err != nil {
		t.Fatal(err)
	}
	st := pool.Stats()[0]
	if n.Load() != 1 || st.Calls != 1 {
		t.Errorf("%d requests, %d calls counted; want 1 and 1", n.Load(), st.Calls)
	}
	if st.CostUSD > budget || st.CostUSD == 0 || st.UnpricedCalls != 0 {
		t.Errorf("spent $%v (%d unpriced) against a budget of $%v", st.CostUSD, st.UnpricedCalls, budget)
	}
	budgeted := 0
	for _, cr := range rep.Cases {
		for _, g := range cr.Attempts[0].Grades {
			if errors.Is(g.Err, proctor.ErrJudgeBudget) {
				budgeted++
			}
		}
	}
	if rep.Totals.Passed != 1 || budgeted != 9 {
		t.Errorf("passed %d, not graded for the budget %d; want 1 and 9", rep.Totals.Passed, budgeted)
	}
}

// TestJudgeTokenBudgetHoldsUnderConcurrency is the same for a token cap.
func TestJudgeTokenBudgetHoldsUnderConcurrency(t *testing.T) {
	srv, n, _ := usageServer(t)
	c, err := openai.NewChat(openai.ChatOptions{BaseURL: srv.URL, Model: "m", MaxTokens: 500, Structured: openai.StructuredOff})
	if err != nil {
		t.Fatal(err)
	}
	pool := proctor.NewJudgePool(c.JudgeModel("tokens", "openai"))
	r := proctor.NewRunner(pool, proctor.WithConcurrency(4), proctor.WithJudgePolicy(proctor.JudgePolicy{Budget: proctor.JudgeBudget{Tokens: 3000}}),
		proctor.WithChecks(proctor.Check{Grader: proctest.Must(proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{}))}))
	if _, err := r.Run(context.Background(), tenCases()); err != nil {
		t.Fatal(err)
	}
	st := pool.Stats()[0]
	if n.Load() != 1 || st.Tokens > 3000 {
		t.Errorf("%d requests, %d tokens against a cap of 3000; want 1 request within the cap", n.Load(), st.Tokens)
	}
	if st.UnpricedCalls != 1 {
		t.Errorf("%d unpriced calls, want 1: the judge has no prices", st.UnpricedCalls)
	}
}

// TestJudgeCostBudgetNeedsPrices: a cost budget with a judge that has no
// prices is a configuration error, in Go and in the config file.
func TestJudgeCostBudgetNeedsPrices(t *testing.T) {
	var calls atomic.Int64
	j := proctor.JudgeModel{Name: "unpriced", Family: "f", Call: func(context.Context, string) (string, error) {
		calls.Add(1)
		return `{"verdict":"pass","confidence":"high"}`, nil
	}}
	r := proctor.NewRunner(proctor.NewJudgePool(j), proctor.WithJudgePolicy(proctor.JudgePolicy{Budget: proctor.JudgeBudget{CostUSD: 1}}),
		proctor.WithChecks(proctor.Check{Grader: proctest.Must(proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{}))}))
	var ce *proctor.JudgeConfigError
	if err := r.Err(); !errors.As(err, &ce) || ce.Judge != "unpriced" {
		t.Errorf("Runner.Err() = %v, want a JudgeConfigError naming the judge", err)
	}
	if _, err := r.Run(context.Background(), tenCases()); !errors.Is(err, proctor.ErrJudgeMisconfigured) || calls.Load() != 0 {
		t.Errorf("Run: %v after %d calls; want ErrJudgeMisconfigured and no call", err, calls.Load())
	}
	g := proctest.Must(proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{}, proctor.NewJudgePool(j), proctor.WithJudgePolicy(proctor.JudgePolicy{Budget: proctor.JudgeBudget{CostUSD: 1}})))
	if got := g.Grade(context.Background(), &proctor.Sample{Output: "Paris."}); got.Status != proctor.StatusNotGraded || calls.Load() != 0 {
		t.Errorf("grader alone: %v after %d calls, want not graded and no call", got.Status, calls.Load())
	}
	const file = `{"judges":[{"name":"j","family":"f","model":"m","base_url":"http://127.0.0.1:1/v1"}],"judge_budget":{"cost_usd":1}}`
	if _, err := config.Parse("c.json", []byte(file)); err == nil || !strings.Contains(err.Error(), "no prices") {
		t.Errorf("config with cost_usd and an unpriced judge: %v, want an error saying it has no prices", err)
	}
	priced := strings.Replace(file, `"base_url"`, `"prices":{"input_per_mtok":0,"output_per_mtok":0},"base_url"`, 1)
	if _, err := config.Parse("c.json", []byte(priced)); err != nil {
		t.Errorf("config with a free judge: %v", err)
	}
}

// TestJudgeFieldCap: a huge output is quoted only in part; the prompt and
// the evidence say so, and the option moves or lifts the cap.
func TestJudgeFieldCap(t *testing.T) {
	var mu sync.Mutex
	var prompts []string
	j := proctor.JudgeModel{Name: "j", Family: "f", Call: func(_ context.Context, p string) (string, error) {
		mu.Lock()
		prompts = append(prompts, p)
		mu.Unlock()
		return `{"criterion":"c","violations":"none","basis":"answer","verdict":"pass","confidence":"high"}`, nil
	}}
	huge := strings.Repeat("é", 1<<19) // 1 MiB, two bytes a rune
	s := &proctor.Sample{Input: "Capital?", Output: huge, Context: []string{strings.Repeat("c", 40<<10), "second passage"}}
	for _, tt := range []struct {
		limit, maxPrompt int
		cut              bool
	}{{0, 80 << 10, true}, {1000, 4 << 10, true}, {-1, 2 << 20, false}} {
		prompts = nil
		g := proctest.Must(proctor.NewLLMJudge("Names the capital.", proctor.JudgeOptions{}, proctor.NewJudgePool(j), proctor.WithJudgeFieldLimit(tt.limit)))
		got := g.Grade(context.Background(), s)
		ev, _ := got.Evidence.(*proctor.JudgeEvidence)
		if len(prompts) != 1 || ev == nil {
			t.Fatalf("limit %d: %d prompts, evidence %v", tt.limit, len(prompts), got.Evidence)
		}
		p := prompts[0]
		if tt.cut != (len(p) < len(huge)) || len(p) > tt.maxPrompt {
			t.Errorf("limit %d: prompt of %d bytes, want at most %d", tt.limit, len(p), tt.maxPrompt)
		}
		if tt.cut != strings.Contains(p, "[cut by proctor: the first") || tt.cut != (len(ev.Cut) == 2) {
			t.Errorf("limit %d: prompt says cut %v, evidence %q; want both %v", tt.limit, strings.Contains(p, "[cut by proctor"), ev.Cut, tt.cut)
		}
		if tt.cut && (!strings.Contains(ev.Cut[0], "output cut to") || !strings.Contains(ev.Cut[1], "context cut to")) {
			t.Errorf("evidence %q: want the output and the context named", ev.Cut)
		}
		if tt.cut && !strings.Contains(strings.Join(got.Caveats, "\n"), "cut to") {
			t.Errorf("caveats %q: want one saying fields were cut", got.Caveats)
		}
	}
}
