package conformance_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"
)

// realReply is one reply of testdata/judges/real: a reply a judge model
// wrote in a public benchmark run, with the label the source's own parser
// (or a careful read, noted) gives it.
type realReply struct {
	ID     string   `json:"id"`
	Source string   `json:"source"`
	Path   string   `json:"path"`
	Commit string   `json:"commit"`
	Shape  string   `json:"shape"`
	Grader string   `json:"grader"`
	Reply  string   `json:"reply"`
	Label  string   `json:"label"` // pass, fail, abstain, score, none
	Score  *float64 `json:"score"`
	Note   string   `json:"note"`
}

func loadRealReplies(t *testing.T) []realReply {
	t.Helper()
	return loadJSONL(t, filepath.Join("testdata", "judges", "real", "*.jsonl"), func(f string, r realReply) {
		if r.ID == "" || r.Source == "" || r.Path == "" || len(r.Commit) != 40 || r.Shape == "" {
			t.Fatalf("%s: entry %q lacks its id, source, path, commit or shape", f, r.ID)
		}
		if !slices.Contains([]string{"pass", "fail", "abstain", "score", "none"}, r.Label) || (r.Label == "score") != (r.Score != nil) {
			t.Fatalf("%s: %s: label %q with score %v", f, r.ID, r.Label, r.Score)
		}
	})
}

// The sample every real reply grades: the replies were written about
// other answers, and the graders read the reply, not the sample.
const (
	realOutput   = "The answer under test."
	realBaseline = "The baseline answer."
)

// realGrader builds the grader r's grader field names, asking the judges
// with, and returns the scale its scores are read on ([0, 1] when it
// scores nothing).
func realGrader(t *testing.T, r realReply, with proctor.Option) (g proctor.Grader, lo, hi float64) {
	t.Helper()
	var err error
	switch r.Grader {
	case "llm_judge":
		g, err = proctor.NewLLMJudge("r", proctor.JudgeOptions{}, with)
	case "llm_pairwise":
		g, err = proctor.NewLLMPairwise(realBaseline, proctor.LLMPairwiseOptions{}, with)
	case "llm_score 1-10", "llm_score 1-100":
		top := 10
		if r.Grader == "llm_score 1-100" {
			top = 100
		}
		g, err = proctor.NewLLMScore("r", proctor.LLMScoreOptions{Scale: [2]int{1, top}}, with)
		return g, 1, float64(top)
	default:
		t.Fatalf("%s: unknown grader %q", r.ID, r.Grader)
	}
	if err != nil {
		t.Fatalf("%s: %v", r.ID, err)
	}
	return g, 0, 1
}

// realJudges returns three judges of distinct families that all answer
// the prompt showing the output as answer A (every prompt but pairwise's
// second) with reply, and the prompt with the answers swapped with
// swapped, so a panel, when convened, agrees with the first judge.
func realJudges(reply, swapped string) proctor.Option {
	call := func(_ context.Context, prompt string) (string, error) {
		if strings.Contains(prompt, "<answer_a-") && !strings.Contains(quotedIn(prompt, "<answer_a-", "</answer_a-"), realOutput) {
			return swapped, nil
		}
		return reply, nil
	}
	js := make([]proctor.JudgeModel, 3)
	for i, fam := range []string{"fam-a", "fam-b", "fam-c"} {
		js[i] = proctor.JudgeModel{Name: "judge-" + fam, Family: fam, Model: "judge-" + fam + "-model", Call: call}
	}
	return proctor.WithJudges(js[0], js[1:]...)
}

// realGrade grades the sample through r's grader, its judges answering
// with reply (and, pairwise, the swapped order with swapped), and
// returns the grade with its first vote.
func realGrade(t *testing.T, r realReply, reply, swapped string) (proctor.Grade, proctor.JudgeVote, float64, float64) {
	t.Helper()
	g, lo, hi := realGrader(t, r, realJudges(reply, swapped))
	s := &proctor.Sample{ID: r.ID, Input: "The question.", Output: realOutput, Model: proctor.Model{Name: "subject", Family: "fam-z"}}
	gr := g.Grade(context.Background(), s)
	ev, _ := gr.Evidence.(*proctor.JudgeEvidence)
	if ev == nil || len(ev.Judges) == 0 {
		t.Fatalf("%s: the grade has no judge evidence: %+v", r.ID, gr)
	}
	return gr, ev.Judges[0], lo, hi
}

// The replies the judges give pairwise's second prompt, where the
// baseline is answer A and the output answer B: the output is better,
// or the baseline is.
const (
	realOutputBetter   = "Final verdict: [[B]]"
	realBaselineBetter = "Final verdict: [[A]]"
)

// readReal grades r's reply through its grader and says what was read:
// pass, fail, abstain, a score on the grader's scale ("score 8.5"), or
// none (unreadable, with the reason). Pairwise asks in both orders and a
// corpus entry is the reply to the first, so it is graded twice, the
// second order answered once for the output and once for the baseline:
// the reply read pass when the first grade passes, fail when the second
// fails, and abstain when neither does.
func readReal(t *testing.T, r realReply) (got, why string) {
	t.Helper()
	if r.Grader == "llm_pairwise" {
		gp, vp, _, _ := realGrade(t, r, r.Reply, realOutputBetter)
		gf, vf, _, _ := realGrade(t, r, r.Reply, realBaselineBetter)
		switch {
		case strings.HasPrefix(vp.Error, "unreadable reply: ") || strings.HasPrefix(vf.Error, "unreadable reply: "):
			if vp.Error != vf.Error {
				t.Errorf("%s: the two pairwise grades read the first reply differently: %q, %q", r.ID, vp.Error, vf.Error)
			}
			return "none", strings.TrimPrefix(vp.Error, "unreadable reply: ")
		case gp.Status == proctor.StatusPassed && gf.Status == proctor.StatusFailed:
			t.Errorf("%s: read both pass and fail: %s; %s", r.ID, gp.Reason, gf.Reason)
			return "none", "read both ways"
		case gp.Status == proctor.StatusPassed:
			return "pass", ""
		case gf.Status == proctor.StatusFailed:
			return "fail", ""
		}
		return "abstain", bothReasons(vp.Error, vf.Error)
	}
	gr, v, lo, hi := realGrade(t, r, r.Reply, "")
	switch {
	case strings.HasPrefix(v.Error, "unreadable reply: "):
		return "none", strings.TrimPrefix(v.Error, "unreadable reply: ")
	case v.Error != "":
		t.Errorf("%s: the judge abstained with %q", r.ID, v.Error)
		return "none", v.Error
	case gr.HasScore:
		// The grade's score is on [0, 1]; put it back on the scale, to
		// the precision the corpus writes (a score is whole or a half).
		sc := math.Round((lo+gr.Score*(hi-lo))*1e6) / 1e6
		if v.Score == nil || *v.Score != sc {
			t.Errorf("%s: the grade's score %g is %g on [%g, %g], the first vote's is %v", r.ID, gr.Score, sc, lo, hi, v.Score)
		}
		if gr.Status != proctor.StatusPassed && gr.Status != proctor.StatusFailed {
			t.Errorf("%s: scored %g but %s: %s", r.ID, sc, gr.Status, gr.Reason)
		}
		return fmt.Sprintf("score %g", sc), ""
	case gr.Status == proctor.StatusPassed:
		return "pass", ""
	case gr.Status == proctor.StatusFailed:
		return "fail", ""
	}
	return v.Verdict.String(), gr.Reason
}

// bothReasons joins the reasons of pairwise's two grades, once when they
// are the same.
func bothReasons(a, b string) string {
	if a == b {
		return a
	}
	return a + "; " + b
}

func (r realReply) want() string {
	if r.Label == "score" {
		return fmt.Sprintf("score %g", *r.Score)
	}
	return r.Label
}

// checkRealPairwise checks readReal's pairwise reading on replies whose
// reading is plain: [[A]] then [[B]] passes, [[B]] then [[A]] fails, and
// [[C]] is a tie.
func checkRealPairwise(t *testing.T) {
	t.Helper()
	r := realReply{ID: "swap-check", Grader: "llm_pairwise"}
	for _, c := range []struct{ reply, swapped, want string }{
		{realBaselineBetter, realOutputBetter, "pass"},
		{realOutputBetter, realBaselineBetter, "fail"},
		{"Final verdict: [[C]]", "Final verdict: [[C]]", "abstain"},
	} {
		gr, _, _, _ := realGrade(t, r, c.reply, c.swapped)
		got := "abstain"
		switch gr.Status {
		case proctor.StatusPassed:
			got = "pass"
		case proctor.StatusFailed:
			got = "fail"
		}
		if got != c.want {
			t.Fatalf("pairwise %q then %q: %s (%s), want %s", c.reply, c.swapped, gr.Status, gr.Reason, c.want)
		}
		r.Reply = c.reply
		if got, why := readReal(t, r); got != c.want {
			t.Fatalf("pairwise %q read %s (%s), want %s", c.reply, got, why, c.want)
		}
	}
}

// TestRealJudgeReplies grades every reply of testdata/judges/real through
// the grader it answers, on the public API (a judge that answers with the
// reply), and prints read-right by source and by shape. It fails on an
// opposite verdict, on a verdict where the careful read finds none, and
// when a source, a shape or the whole corpus is read right less than 95%
// of the time.
func TestRealJudgeReplies(t *testing.T) {
	checkRealPairwise(t)
	corpus := loadRealReplies(t)
	if len(corpus) < 400 {
		t.Errorf("%d real replies, want at least 400", len(corpus))
	}
	type tally struct{ n, right, wrong, invented, notRead int }
	bySource, byShape := map[string]*tally{}, map[string]*tally{}
	var total tally
	at := func(m map[string]*tally, k string) *tally {
		if m[k] == nil {
			m[k] = &tally{}
		}
		return m[k]
	}
	for _, r := range corpus {
		got, why := readReal(t, r)
		want := r.want()
		src := r.Source + " " + strings.TrimSuffix(filepath.Base(r.Path), ".jsonl")
		for _, tl := range []*tally{at(bySource, src), at(byShape, r.Shape), &total} {
			tl.n++
			switch {
			case got == want:
				tl.right++
			case r.Label == "none":
				tl.invented++
			case got != "none" && got != "abstain" && want != "abstain":
				tl.wrong++
			default:
				tl.notRead++
			}
		}
		switch {
		case got == want:
		case r.Label == "none":
			t.Errorf("%s: read %s where the careful read finds no verdict\nreply: %q", r.ID, got, kit.ClipRunes(r.Reply, 400))
		case got != "none" && got != "abstain" && want != "abstain":
			t.Errorf("%s: WRONG: read %s, the label is %s (%s)\nreply: %q", r.ID, got, want, r.Note, kit.ClipRunes(r.Reply, 400))
		default:
			t.Logf("%s: not read right: %s (%s), the label is %s\nreply tail: %q", r.ID, got, why, want, realTail(r.Reply, 300))
		}
	}
	table := func(title string, m map[string]*tally) {
		var b strings.Builder
		fmt.Fprintf(&b, "\n%-75s %4s %5s %5s %8s %8s %7s\n", title, "n", "right", "wrong", "invented", "not read", "right%")
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range m {
				if !yield(k) {
					return
				}
			}
		}) {
			tl := m[k]
			pct := 100 * float64(tl.right) / float64(tl.n)
			fmt.Fprintf(&b, "%-75s %4d %5d %5d %8d %8d %6.1f%%\n", k, tl.n, tl.right, tl.wrong, tl.invented, tl.notRead, pct)
			if pct < 95 {
				t.Errorf("%s %q: %.1f%% read right, want at least 95%%", title, k, pct)
			}
		}
		t.Log(b.String())
	}
	table("source", bySource)
	table("shape", byShape)
	pct := 100 * float64(total.right) / float64(total.n)
	t.Logf("total: %d replies, %d right (%.1f%%), %d wrong, %d invented, %d not read",
		total.n, total.right, pct, total.wrong, total.invented, total.notRead)
	if pct < 95 {
		t.Errorf("%.1f%% of all replies read right, want at least 95%%", pct)
	}
}

// realTail returns the last n runes of s, with "…" when it was cut.
func realTail(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return "…" + string(r[len(r)-n:])
	}
	return s
}
