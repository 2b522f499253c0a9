package proctor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/disclosure"
	"github.com/proctorhq/proctor/internal/proctest"
	"github.com/proctorhq/proctor/judges/openai"
)

// scriptedEndpoint is a loopback chat endpoint whose verdict and stated
// confidence for answer #N come from says(N); it counts the requests.
func scriptedEndpoint(t *testing.T, says func(i int) (string, string)) (string, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		if json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) == 0 {
			http.Error(w, "bad request", 400)
			return
		}
		p := req.Messages[0].Content
		k := strings.Index(p, "answer #")
		i, _ := strconv.Atoi(strings.Fields(p[k+len("answer #"):])[0])
		v, c := says(i)
		reply, _ := json.Marshal(map[string]string{"criterion": "well formed", "violations": "none", "basis": "answer", "verdict": v, "confidence": c})
		fmt.Fprintf(w, `{"choices":[{"message":{"content":%q}}],"usage":{"prompt_tokens":900,"completion_tokens":60}}`, reply)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

// TestJudgeCallsPerCase runs 1,000 cases through three judges behind
// loopback chat endpoints (judges/openai), with the confidence the judges
// state in their replies, and prints the judge calls per case and the
// escalations: once with the judge on a criterion a deterministic check
// shares, once with the judge next to an unrelated no_pii check only. It
// checks the calls against the escalation rule and the requests the
// endpoints saw against the calls the report counts. The figures are in
// BENCHMARKS.md ("Judge calls per case"):
//
//	go test -v -run TestJudgeCallsPerCase .
func TestJudgeCallsPerCase(t *testing.T) {
	const n = 1000
	// The first judge is unsure of 8% of answers, abstains on 2%, and
	// fails every seventh with confidence; the second passes and the third
	// fails everything, confidently.
	firstSays := func(i int) (string, string) {
		switch {
		case i%100 < 8:
			return "pass", "low"
		case i%100 < 10:
			return "abstain", "low"
		case i%7 == 0:
			return "fail", "high"
		}
		return "pass", "high"
	}
	format, err := proctor.NewRegex(`answer #\d+ end`, proctor.RegexOptions{Name: "format"})
	if err != nil {
		t.Fatal(err)
	}
	nopii, err := disclosure.NewNoPII(disclosure.NoPIIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, shared := range []bool{true, false} {
		t.Run(fmt.Sprintf("criterion=%v", shared), func(t *testing.T) {
			u1, r1 := scriptedEndpoint(t, firstSays)
			u2, r2 := scriptedEndpoint(t, func(int) (string, string) { return "pass", "high" })
			u3, r3 := scriptedEndpoint(t, func(int) (string, string) { return "fail", "high" })
			jm := func(url, name, fam string) proctor.JudgeModel {
				c, err := openai.NewChat(openai.ChatOptions{BaseURL: url, Model: name + "-model", InputPerMTok: 2, OutputPerMTok: 8})
				if err != nil {
					t.Fatal(err)
				}
				return c.JudgeModel(name, fam)
			}
			pool := proctor.NewJudgePool(jm(u1, "first", "openai"), jm(u2, "second", "anthropic"), jm(u3, "third", "google"))
			judged := proctor.Check{Grader: proctest.Must(proctor.NewLLMJudge("The answer is well formed.", proctor.JudgeOptions{}))}
			checks := []proctor.Check{{Grader: nopii}, judged}
			if shared {
				judged.Criterion = "format"
				checks = []proctor.Check{{Grader: nopii}, {Grader: format, Criterion: "format"}, judged}
			}
			cases := make([]proctor.Case, n)
			for i := range cases {
				out := fmt.Sprintf("answer #%d end", i)
				if i%97 == 0 {
					out += "." // the format check fails every 97th answer
				}
				cases[i] = proctor.Case{ID: strconv.Itoa(i), Sample: proctor.Sample{Input: "q", Output: out}}
				if i%50 == 0 {
					cases[i].Severity = proctor.SeverityCritical
				}
			}
			r := proctor.NewRunner(pool, proctor.WithChecks(checks...), proctor.WithConcurrency(8))
			rep, err := r.Run(context.Background(), cases)
			if err != nil {
				t.Fatal(err)
			}
			wantEsc, wantAgreed := 0, 0
			for i := range n {
				v, c := firstSays(i)
				disputed := shared && v != "abstain" && (v == "pass") == (i%97 == 0)
				if c == "low" || i%50 == 0 || disputed {
					wantEsc++
					if v == "pass" {
						wantAgreed++ // the second judge passes too: settled
					}
				}
			}
			esc := 0
			for _, c := range rep.Cases {
				for _, g := range c.Attempts[0].Grades {
					if ev, ok := g.Evidence.(*proctor.JudgeEvidence); ok && ev.Panel {
						esc++
					}
				}
			}
			calls, unpriced, cost := 0, 0, 0.0
			for _, s := range rep.Judges {
				calls += s.Calls
				unpriced += s.UnpricedCalls
				cost += s.CostUSD
			}
			requests := r1.Load() + r2.Load() + r3.Load()
			wantCalls := n + wantEsc + (wantEsc - wantAgreed)
			if esc != wantEsc || calls != wantCalls {
				t.Errorf("%d escalations, %d calls; want %d and %d", esc, calls, wantEsc, wantCalls)
			}
			if int64(calls) != requests || unpriced != 0 {
				t.Errorf("the endpoints saw %d requests, the report counts %d calls (%d unpriced)", requests, calls, unpriced)
			}
			t.Logf("%d cases, criterion shared %v: %d escalated (%.1f%%), %d judge calls (%.3f per case), %d requests seen, $%.4f",
				n, shared, esc, 100*float64(esc)/n, calls, float64(calls)/n, requests, cost)
		})
	}
}
