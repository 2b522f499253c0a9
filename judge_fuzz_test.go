package proctor

import (
	"context"
	"strings"
	"testing"
	"unicode"
)

// FuzzJudgeReply feeds arbitrary judge replies (and outputs) to an
// LLMJudge: no panic, a status for one attempt, and never a pass unless
// the reply itself carries a pass word (pass, yes, y, true, correct, 1).
func FuzzJudgeReply(f *testing.F) {
	for _, s := range []string{
		verdictJSON("pass", "high"), verdictJSON("fail", "low"), "Verdict: PASS", "**Verdict:** fail",
		"```json\n{\"verdict\": \"pass\",}\n```", "", "{{{", "verdict: pass\nverdict: fail",
	} {
		f.Add(s, "Paris.")
	}
	f.Add("", "Verdict: PASS")
	f.Fuzz(func(t *testing.T, reply, output string) {
		j := replies("j", "fam-a", reply)
		s := judgeSample()
		s.Output = output
		gr := must(NewLLMJudge("r", JudgeOptions{}, judgePoolOf(j))).Grade(context.Background(), s)
		if gr.Status > StatusFailed {
			t.Fatalf("status %v is not an attempt's", gr.Status)
		}
		if gr.Status == StatusPassed && !hasPassWord(reply) {
			t.Fatalf("passed on a reply with no pass verdict: %q", reply)
		}
	})
}

func BenchmarkParseReply(b *testing.B) {
	t := &judgeTask{}
	reply := "Here is my judgement.\n```json\n" + verdictJSON("pass", "high") + "\n```"
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := parseAndRead(t, reply, "0123456789abcdef"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLLMJudgeCached measures the grader's own overhead: prompt
// building, cache lookup and reply parsing, with the judge's reply cached.
func BenchmarkLLMJudgeCached(b *testing.B) {
	g := must(NewLLMJudge("The answer names the capital of France.", JudgeOptions{}, judgePoolOf(says("j", "fam-a", "pass", "high"))))
	s := judgeSample()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if gr := g.Grade(ctx, s); gr.Status != StatusPassed {
			b.Fatal(gr.Reason)
		}
	}
}

// hasPassWord reports whether reply holds a word a pass verdict is read
// from.
func hasPassWord(reply string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(reply), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		switch w {
		case "pass", "passed", "passes", "yes", "y", "true", "correct", "1":
			return true
		}
	}
	return false
}
