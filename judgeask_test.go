package proctor_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/proctorhq/proctor"
)

// ratingAsk is a user's own model-graded check: the judge rates the output
// from 0 to 10, 7 or more passes, and a rating of 6 or 7 is in doubt.
var ratingAsk = proctor.JudgeAsk{
	Prompt: func(s *proctor.Sample, redact func(string) string) (string, string) {
		if s.Output == "" {
			return "", "no output to rate"
		}
		return "Rate this answer from 0 to 10, the number alone:\n" + redact(s.Output), ""
	},
	Read: func(reply string) (proctor.JudgeReading, error) {
		n, err := strconv.Atoi(strings.TrimSpace(reply))
		if err != nil || n < 0 || n > 10 {
			return proctor.JudgeReading{}, fmt.Errorf("not a rating from 0 to 10: %q", reply)
		}
		r := proctor.JudgeReading{Verdict: proctor.VerdictFail, Confidence: proctor.ConfidenceHigh,
			Score: float64(n) / 10, HasScore: true}
		if n >= 7 {
			r.Verdict = proctor.VerdictPass
		}
		if n == 6 || n == 7 {
			r.Confidence = proctor.ConfidenceLow
		}
		return r, nil
	},
}

// countingJudge is a judge that always replies reply and counts its calls.
func countingJudge(name, family, reply string, calls *atomic.Int32) proctor.JudgeModel {
	return proctor.JudgeModel{Name: name, Family: family, Model: name + "-1",
		Call: func(context.Context, string) (string, error) {
			calls.Add(1)
			return reply, nil
		}}
}

func TestJudgingAskPanel(t *testing.T) {
	var a, b, c atomic.Int32
	pool := proctor.NewJudgePool(countingJudge("a", "fam-a", "7", &a), countingJudge("b", "fam-b", "3", &b), countingJudge("c", "fam-c", "2", &c))
	j := proctor.NewJudging(pool)
	g := j.Ask(context.Background(), &proctor.Sample{Output: "Paris"}, proctor.SeverityUnset, ratingAsk)
	ev, ok := g.Evidence.(*proctor.JudgeEvidence)
	if !ok || !ev.Panel || len(ev.Judges) != 3 {
		t.Fatalf("a low-confidence 7 should convene the panel: got %v, evidence %#v", g.Status, g.Evidence)
	}
	if g.Status != proctor.StatusFailed {
		t.Errorf("the panel voted 3 and 2 against the 7: got %v (%s), want failed", g.Status, g.Reason)
	}
}

func TestJudgingAskSameFamilyAndFirst(t *testing.T) {
	var a, b atomic.Int32
	pool := proctor.NewJudgePool(countingJudge("a", "fam-a", "9", &a), countingJudge("b", "fam-b", "9", &b))
	j := proctor.NewJudging(pool)
	s := &proctor.Sample{Output: "Paris", Model: proctor.Model{Family: "fam-b"}}
	ask := ratingAsk
	ask.First = "b"
	g := j.Ask(context.Background(), s, proctor.SeverityUnset, ask)
	if g.Status != proctor.StatusPassed || b.Load() != 0 || a.Load() != 1 {
		t.Errorf("judge b shares the sample's family and must not grade it, even asked first: got %v, calls a=%d b=%d",
			g.Status, a.Load(), b.Load())
	}
	g = j.Ask(context.Background(), &proctor.Sample{Output: "Lyon"}, proctor.SeverityUnset, ask)
	if g.Status != proctor.StatusPassed || b.Load() != 1 {
		t.Errorf("First names b: b should be asked first, got calls b=%d (%v)", b.Load(), g.Status)
	}
}

func TestJudgingAskCacheAndBudget(t *testing.T) {
	var a atomic.Int32
	pool := proctor.NewJudgePool(countingJudge("a", "fam-a", "9", &a))
	j := proctor.NewJudging(pool, proctor.WithJudgePolicy(proctor.JudgePolicy{Budget: proctor.JudgeBudget{Calls: 1}}))
	ctx := context.Background()
	for range 2 {
		if g := j.Ask(ctx, &proctor.Sample{Output: "Paris"}, proctor.SeverityUnset, ratingAsk); g.Status != proctor.StatusPassed {
			t.Fatalf("got %v (%s), want passed", g.Status, g.Reason)
		}
	}
	st := pool.Stats()
	if a.Load() != 1 || st[0].Calls != 1 || st[0].CacheHits != 1 {
		t.Errorf("the same prompt twice: want 1 call and 1 cache hit, got %d calls (stats %+v)", a.Load(), st[0])
	}
	g := j.Ask(ctx, &proctor.Sample{Output: "Lyon"}, proctor.SeverityUnset, ratingAsk)
	if g.Status != proctor.StatusNotGraded || !errors.Is(g.Err, proctor.ErrJudgeBudget) || a.Load() != 1 {
		t.Errorf("a new prompt past the budget of 1 call: got %v (%v) after %d calls, want not graded with ErrJudgeBudget", g.Status, g.Err, a.Load())
	}
}

func TestJudgingAskRefusesBadInput(t *testing.T) {
	var a atomic.Int32
	j := proctor.NewJudging(proctor.NewJudgePool(countingJudge("a", "fam-a", "eleven", &a)))
	ctx := context.Background()
	if g := j.Ask(ctx, &proctor.Sample{Output: "x"}, proctor.SeverityUnset, proctor.JudgeAsk{}); g.Status != proctor.StatusNotGraded {
		t.Errorf("an ask with no prompt: got %v, want not graded", g.Status)
	}
	if g := j.Ask(ctx, &proctor.Sample{}, proctor.SeverityUnset, ratingAsk); g.Status != proctor.StatusNotGraded || a.Load() != 0 {
		t.Errorf("the prompt refused the sample: got %v after %d calls, want not graded before any call", g.Status, a.Load())
	}
	if g := j.Ask(ctx, &proctor.Sample{Output: "x"}, proctor.SeverityUnset, ratingAsk); g.Status != proctor.StatusNotGraded {
		t.Errorf("an unreadable reply: got %v, want not graded", g.Status)
	}
	if g := proctor.NewJudging().Ask(ctx, &proctor.Sample{Output: "x"}, proctor.SeverityUnset, ratingAsk); !errors.Is(g.Err, proctor.ErrNoJudge) {
		t.Errorf("no judges: got %v (%v), want ErrNoJudge", g.Status, g.Err)
	}
}

// ExampleJudging shows a grader of one's own asking the judges in its own
// words, under the judges' policy (panel, cache, budget, stats).
func ExampleJudging() {
	judge := proctor.JudgeModel{Name: "scripted", Family: "acme",
		Call: func(_ context.Context, prompt string) (string, error) {
			if strings.Contains(prompt, "Paris") {
				return "9", nil
			}
			return "2", nil
		}}
	j := proctor.NewJudging(proctor.NewJudgePool(judge))
	for _, out := range []string{"Paris", "Berlin"} {
		g := j.Ask(context.Background(), &proctor.Sample{Output: out}, proctor.SeverityUnset, ratingAsk)
		fmt.Println(out, g.Status, g.Score)
	}
	// Output:
	// Paris passed 0.9
	// Berlin failed 0.2
}
