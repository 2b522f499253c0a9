package openai

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
)

// logprobBody is a reply whose content tokens are the JSON reply cut
// around its verdict value, the verdict's token at probability p.
func logprobBody(content string, p float64) string {
	at := verdictValueAt(content)
	end := at + strings.IndexByte(content[at:], '"')
	toks := []tokenLogprob{{content[:at], -0.01}, {content[at:end], math.Log(p)}, {content[end:], -0.02}}
	b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{
		"message":       map[string]any{"role": "assistant", "content": content},
		"finish_reason": "stop",
		"logprobs":      map[string]any{"content": toks},
	}}})
	return string(b)
}

func TestVerdictProbability(t *testing.T) {
	tests := []struct {
		name, text string
		toks       []string
		lp         []float64
		want       float64
		ok         bool
	}{
		{"json", `{"verdict": "pass"}`, []string{`{"verdict": "`, "pass", `"}`}, []float64{0, math.Log(0.75), 0}, 0.75, true},
		{"last verdict key decides", `{"verdict":"fail"} {"Verdict":"pass"}`, []string{`{"verdict":"fail"} {"Verdict":"`, "pa", `ss"}`}, []float64{-1, math.Log(0.5), -3}, 0.5, true},
		{"no verdict key", `PASS`, []string{"PASS"}, []float64{0}, 0, false},
		{"tokens do not spell the text", `{"verdict":"pass"}`, []string{`{"verdict":"`, "fail", `"}`}, []float64{0, -1, 0}, 0, false},
		{"positive logprob", `{"verdict":"pass"}`, []string{`{"verdict":"`, "pass", `"}`}, []float64{0, 0.5, 0}, 0, false},
		{"underflow stays known", `{"verdict":"pass"}`, []string{`{"verdict":"`, "pass", `"}`}, []float64{0, -1e6, 0}, math.SmallestNonzeroFloat64, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var toks []tokenLogprob
			for i, s := range tt.toks {
				toks = append(toks, tokenLogprob{s, tt.lp[i]})
			}
			got, ok := verdictProbability(tt.text, toks)
			if ok != tt.ok || math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("got %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// With logprobs, the verdict token's probability decides confidence: a
// pass the model gave odds of 0.6 convenes the panel although the reply
// says "high"; one at 0.99 stands although the reply says "low". The
// probability is reported per vote, in the JSON result.
func TestLogprobConfidenceDecidesEscalation(t *testing.T) {
	low := strings.Replace(passJSON, `"high"`, `"low"`, 1)
	tests := []struct {
		name      string
		content   string
		p         float64
		wantPanel bool
	}{
		{"unlikely verdict stated high", passJSON, 0.6, true},
		{"likely verdict stated low", low, 0.99, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := newReasoningServer(t, func(int) string { return logprobBody(tt.content, tt.p) })
			c, _ := NewChat(ChatOptions{BaseURL: rs.srv.URL, Model: "m", Logprobs: true, ConfidenceThreshold: 0.8})
			panelist := func(name, fam string) proctor.JudgeModel {
				return proctor.JudgeModel{Name: name, Family: fam, Call: func(context.Context, string) (string, error) { return passJSON, nil }}
			}
			pool := proctor.NewJudgePool(c.JudgeModel("j1", "fam-a"), panelist("j2", "fam-b"), panelist("j3", "fam-c"))
			g := proctest.Must(proctor.NewLLMJudge("names the capital", proctor.JudgeOptions{}, pool)).
				Grade(context.Background(), &proctor.Sample{Input: "Capital of France?", Output: "Paris", Model: proctor.Model{Family: "fam-z"}})
			ev := g.Evidence.(*proctor.JudgeEvidence)
			first := ev.Judges[0]
			if g.Status != proctor.StatusPassed || ev.Panel != tt.wantPanel {
				t.Fatalf("got %v, panel %v (%v); want passed, panel %v", g.Status, ev.Panel, ev.PanelReasons, tt.wantPanel)
			}
			if first.VerdictProbability == nil || math.Abs(*first.VerdictProbability-tt.p) > 1e-9 {
				t.Fatalf("vote probability %v, want %v", first.VerdictProbability, tt.p)
			}
			if tt.wantPanel && !strings.Contains(strings.Join(ev.PanelReasons, ";"), "verdict probability 0.600 was below 0.8") {
				t.Errorf("panel reasons %v: want the probability named", ev.PanelReasons)
			}
			b, _ := json.Marshal(first)
			if !strings.Contains(string(b), `"verdict_probability":`) {
				t.Errorf("vote JSON %s lacks verdict_probability", b)
			}
		})
	}
}

// An endpoint that refuses logprobs is asked without them: the vote keeps
// its stated confidence, and one request was refused.
func TestLogprobsRefusedFallsBack(t *testing.T) {
	rs := newReasoningServer(t, func(int) string { return judgeReplyBody }, "logprobs")
	c, _ := NewChat(ChatOptions{BaseURL: rs.srv.URL, Model: "m", Logprobs: true})
	for range 2 {
		r, err := c.Reply(context.Background(), "p")
		if err != nil || r.VerdictProbability != 0 {
			t.Fatalf("got %+v, %v; want a reply without a probability", r, err)
		}
	}
	reqs, refusals := rs.log()
	if len(reqs) != 3 || len(refusals) != 1 {
		t.Errorf("%d requests, %d refused: want 3 and 1", len(reqs), len(refusals))
	}
}

func FuzzVerdictProbability(f *testing.F) {
	f.Add(`{"verdict": "pass"}`, 12, -0.1)
	f.Add(`{"Verdict":"fail","verdict" :"x"}`, 3, -2.0)
	f.Add("\xff\"verdict\":\"p", 1, 0.0)
	f.Fuzz(func(t *testing.T, text string, cut int, lp float64) {
		cut = min(max(cut, 0), len(text))
		toks := []tokenLogprob{{text[:cut], lp}, {text[cut:], lp}}
		p, ok := verdictProbability(text, toks)
		if ok && !(p > 0 && p <= 1) {
			t.Errorf("probability %v out of (0, 1]", p)
		}
		if !ok && p != 0 {
			t.Errorf("unknown probability reported as %v", p)
		}
	})
}

// FuzzChatReply reads any reply body as a judge's reply: never a panic,
// a probability in [0, 1], an error or a text.
func FuzzChatReply(f *testing.F) {
	f.Add(judgeReplyBody)
	f.Add(thinkingBody(passJSON, "length"))
	f.Add(thinkingBody("", "stop"))
	f.Add(logprobBody(passJSON, 0.7))
	f.Add(`{"choices":[{"message":{"content":null,"reasoning":{"effort":"x"}}}]}`)
	c, _ := NewChat(ChatOptions{BaseURL: "http://127.0.0.1:1", Model: "m"})
	f.Fuzz(func(t *testing.T, body string) {
		var cr chatResponse
		if json.Unmarshal([]byte(body), &cr) != nil || len(cr.Choices) == 0 {
			return
		}
		r, err := c.judgeReply(cr, 1)
		if !(r.VerdictProbability >= 0 && r.VerdictProbability <= 1) {
			t.Errorf("probability %v", r.VerdictProbability)
		}
		if err != nil && r.Text != "" {
			t.Errorf("error %v with text %q", err, r.Text)
		}
	})
}
