package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
)

// scriptedCase is what the scripted primary judge does with case i: hard
// cases (15%) it passes, wrongly, with a verdict-token probability of 0.55
// to 0.85, stating high confidence for two in three of them; easy cases
// it passes at 0.97 to 0.999, stating low confidence for 3% of them. The
// panel judges fail hard cases and pass easy ones.
func scriptedCase(i int) (hard, statesLow bool, p float64) {
	h := fnv.New32a()
	fmt.Fprint(h, i)
	u := float64(h.Sum32()) / math.MaxUint32
	v := math.Mod(u*7919, 1) // a second draw from the same hash
	if u < 0.15 {
		return true, v < 1.0/3, 0.55 + 0.3*v
	}
	return false, v < 0.03, 0.97 + 0.029*v
}

var answerRE = regexp.MustCompile(`answer-(\d+)`)

// scriptedServer plays the primary (model "primary", a reasoning model
// that refuses max_tokens) and the panel (any other model).
func scriptedServer(t *testing.T, made *atomic.Int64) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		made.Add(1)
		var req struct {
			Model     string          `json:"model"`
			Messages  []Message       `json:"messages"`
			MaxTokens json.RawMessage `json:"max_tokens"`
			Logprobs  bool            `json:"logprobs"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		m := answerRE.FindStringSubmatch(req.Messages[0].Content)
		i, _ := strconv.Atoi(m[1])
		hard, statesLow, p := scriptedCase(i)
		if req.Model == "primary" && req.MaxTokens != nil {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}`))
			return
		}
		verdict, conf := "pass", "high"
		switch {
		case req.Model != "primary" && hard:
			verdict = "fail"
		case req.Model == "primary" && statesLow:
			conf = "low"
		}
		content := fmt.Sprintf(`{"criterion":"c","violations":"none","basis":"answer","verdict":%q,"confidence":%q}`, verdict, conf)
		if req.Logprobs {
			w.Write([]byte(logprobBody(content, p)))
			return
		}
		b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": content}, "finish_reason": "stop"}}})
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A scripted 1,000-case run, once with logprob confidence and once with
// self-reported confidence: the escalations are the cases each signal
// marks doubtful, and every request made is counted.
func TestScriptedRunConfidence(t *testing.T) {
	const n = 1000
	var hardN, lowN, selfEsc int
	for i := range n {
		hard, low, _ := scriptedCase(i)
		hardN += b2i(hard)
		lowN += b2i(low)
		selfEsc += b2i(low)
	}
	for _, mode := range []struct {
		name     string
		logprobs bool
		wantEsc  int
	}{{"self-reported", false, selfEsc}, {"logprobs", true, hardN}} {
		t.Run(mode.name, func(t *testing.T) {
			var made atomic.Int64
			srv := scriptedServer(t, &made)
			judge := func(model, name, fam string, lp bool) proctor.JudgeModel {
				c, err := NewChat(ChatOptions{BaseURL: srv.URL, Model: model, Logprobs: lp})
				if err != nil {
					t.Fatal(err)
				}
				return c.JudgeModel(name, fam)
			}
			pool := proctor.NewJudgePool(judge("primary", "j1", "fam-a", mode.logprobs), judge("panel-b", "j2", "fam-b", false), judge("panel-c", "j3", "fam-c", false))
			r := proctor.NewRunner(pool, proctor.WithConcurrency(8), proctor.WithJudgePolicy(proctor.JudgePolicy{Retry: proctor.JudgeRetry{Attempts: 1}}),
				proctor.WithChecks(proctor.Check{Grader: proctest.Must(proctor.NewLLMJudge("answers correctly", proctor.JudgeOptions{}))}))
			cases := make([]proctor.Case, n)
			for i := range cases {
				cases[i] = proctor.Case{ID: strconv.Itoa(i), Sample: proctor.Sample{Input: "q", Output: "answer-" + strconv.Itoa(i)}}
			}
			rep, err := r.Run(context.Background(), cases)
			if err != nil {
				t.Fatal(err)
			}
			counted := 0
			for _, s := range rep.Judges {
				counted += s.Calls
			}
			esc := 0
			if rep.Panels != nil {
				esc = rep.Panels.Convened
			}
			if int64(counted) != made.Load() {
				t.Errorf("%d requests made, %d counted", made.Load(), counted)
			}
			if esc != mode.wantEsc {
				t.Errorf("%d escalations, want %d", esc, mode.wantEsc)
			}
			t.Logf("%s: %d cases (%d hard, %d stated low): %d requests made, %d counted, %.3f calls per case, %d escalations, %d passed, %d failed",
				mode.name, n, hardN, lowN, made.Load(), counted, float64(counted)/n, esc, rep.Totals.Passed, rep.Totals.Failed)
			if rep.Judges[0].Errors != 1 {
				t.Errorf("primary errors %d, want the one refused max_tokens", rep.Judges[0].Errors)
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
