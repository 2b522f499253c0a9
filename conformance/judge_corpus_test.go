package conformance_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
	"github.com/proctorhq/proctor/openaievals"
)

// corpusReply is one labelled judge reply of testdata/judges/replies: the
// reply, the grader it answers, what a careful person reads in it and
// where its shape comes from.
type corpusReply struct {
	ID      string `json:"id"`
	Family  string `json:"family"`
	Grader  string `json:"grader"`
	Reply   string `json:"reply"`
	Swapped string `json:"swapped"` // llm_pairwise: the reply when the answers are swapped
	Want    string `json:"want"`    // pass, fail, abstain or unreadable
	Conf    string `json:"conf"`    // when set, the confidence the first vote must have
	Source  string `json:"source"`
	Rubric  string `json:"rubric"` // when set, the grader's rubric

	Scale         []int    `json:"scale"`
	PassAt        int      `json:"pass_at"`
	WholeScores   bool     `json:"whole_scores"`
	Range         any      `json:"range"` // llm_score: true; score_model: [lo, hi]
	Threshold     float64  `json:"threshold"`
	PassThreshold *float64 `json:"pass_threshold"`
	Categories    []string `json:"categories"`
	Pass          []string `json:"pass"`
	Labels        []string `json:"labels"`
	Passing       []string `json:"passing"`
}

func loadReplyCorpus(t *testing.T) []corpusReply {
	t.Helper()
	return loadJSONL(t, filepath.Join("testdata", "judges", "replies", "*.jsonl"), func(f string, c corpusReply) {
		if c.Source == "" || c.ID == "" {
			t.Fatalf("%s: entry %q has no id or source", f, c.ID)
		}
		switch c.Want {
		case "pass", "fail", "abstain", "unreadable":
		default:
			t.Fatalf("%s: %s: want %q", f, c.ID, c.Want)
		}
	})
}

// loadJSONL decodes every line of the files glob matches, checking each
// entry with check (given the file's name).
func loadJSONL[T any](t *testing.T, glob string, check func(file string, e T)) []T {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %s: %v", glob, err)
	}
	var out []T
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for line := range bytes.Lines(b) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var e T
			if err := json.Unmarshal(line, &e); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			check(f, e)
			out = append(out, e)
		}
	}
	return out
}

var corpusNonceRe = regexp.MustCompile(`<output-([0-9a-f]{16})>`)

// corpusJudges returns three judges of distinct families that all reply
// as c says ({NONCE} replaced by the prompt's nonce), so a panel, when
// convened, agrees with the first judge whatever the panel rule.
func corpusJudges(c corpusReply, output string) proctor.Option {
	reply := func(_ context.Context, prompt string) (string, error) {
		r := c.Reply
		if c.Swapped != "" && !strings.Contains(quotedIn(prompt, "<answer_a-", "</answer_a-"), output) {
			r = c.Swapped
		}
		if m := corpusNonceRe.FindStringSubmatch(prompt); m != nil {
			r = strings.ReplaceAll(r, "{NONCE}", m[1])
		}
		return r, nil
	}
	js := make([]proctor.JudgeModel, 3)
	for i, fam := range []string{"fam-a", "fam-b", "fam-c"} {
		js[i] = proctor.JudgeModel{Name: "judge-" + fam, Family: fam, Model: "judge-" + fam + "-model", Call: reply}
	}
	return proctor.NewJudgePool(js[0], js[1:]...)
}

func corpusGrader(t *testing.T, c corpusReply, with proctor.Option) proctor.Grader {
	t.Helper()
	rubric := cmp.Or(c.Rubric, "The answer gives the year Apollo 11 landed on the Moon.")
	msgs := []openaievals.EvalMessage{{Role: "user", Content: "Grade this answer: {{sample.output_text}}"}}
	var g proctor.Grader
	var err error
	switch c.Grader {
	case "llm_judge":
		g = proctest.Must(proctor.NewLLMJudge(rubric, proctor.JudgeOptions{}, with))
	case "llm_answer_match":
		g = proctor.NewLLMAnswerMatch(proctor.LLMAnswerMatchOptions{}, with)
	case "faithfulness":
		g = proctor.NewFaithfulness(proctor.JudgeOptions{}, with)
	case "llm_score":
		o := proctor.LLMScoreOptions{PassAt: c.PassAt, WholeScores: c.WholeScores}
		if len(c.Scale) == 2 {
			o.Scale = [2]int{c.Scale[0], c.Scale[1]}
		}
		if c.Range == true {
			o.Range, o.Threshold = true, c.Threshold
		}
		g, err = proctor.NewLLMScore(rubric, o, with)
	case "llm_category":
		g, err = proctor.NewLLMCategory(c.Categories, c.Pass, proctor.LLMCategoryOptions{}, with)
	case "llm_pairwise":
		g, err = proctor.NewLLMPairwise("{{expected}}", proctor.LLMPairwiseOptions{}, with)
	case "score_model":
		o := openaievals.ScoreModelOptions{}
		if r, ok := c.Range.([]any); ok && len(r) == 2 {
			o.Range = [2]float64{r[0].(float64), r[1].(float64)}
		}
		th := 0.5
		if c.PassThreshold != nil {
			th = *c.PassThreshold
		}
		g, err = openaievals.NewScoreModel(msgs, th, o, with)
	case "label_model":
		g, err = openaievals.NewLabelModel(msgs, c.Labels, c.Passing, openaievals.LabelModelOptions{}, with)
	default:
		t.Fatalf("%s: unknown grader %q", c.ID, c.Grader)
	}
	if err != nil {
		t.Fatalf("%s: %v", c.ID, err)
	}
	return g
}

// corpusOutcome is what a grade says was read: pass, fail, abstain (the
// judges took no side) or unreadable.
func corpusOutcome(g proctor.Grade) string {
	switch g.Status {
	case proctor.StatusPassed:
		return "pass"
	case proctor.StatusFailed:
		return "fail"
	}
	ev, _ := g.Evidence.(*proctor.JudgeEvidence)
	if ev == nil || len(ev.Judges) == 0 {
		return "error"
	}
	if strings.HasPrefix(ev.Judges[0].Error, "unreadable reply") {
		return "unreadable"
	}
	return "abstain"
}

// TestJudgeReplyCorpus reads every reply of the corpus through the real
// grading path and checks no verdict is the opposite of the one a careful
// person reads, and at least 95% are read right, in each family and in
// all. With -v it prints the read-right table by family.
func TestJudgeReplyCorpus(t *testing.T) {
	corpus := loadReplyCorpus(t)
	if len(corpus) < 150 {
		t.Errorf("corpus has %d replies, want at least 150", len(corpus))
	}
	type tally struct{ n, right, wrong, notRead int }
	byFamily := map[string]*tally{}
	var total tally
	for _, c := range corpus {
		s := &proctor.Sample{ID: c.ID, Input: "In what year did Apollo 11 land on the Moon?",
			Output: "Apollo 11 landed on the Moon in July 1969.", Model: proctor.Model{Name: "subject", Family: "fam-z"},
			Context: []string{"Apollo 11 landed on the Moon on 20 July 1969."}}
		exp := "1969"
		s.Expected = &exp
		gr := corpusGrader(t, c, corpusJudges(c, s.Output)).Grade(context.Background(), s)
		got := corpusOutcome(gr)
		tl := byFamily[c.Family]
		if tl == nil {
			tl = &tally{}
			byFamily[c.Family] = tl
		}
		tl.n++
		total.n++
		switch {
		case got == c.Want:
			tl.right++
			total.right++
		case got == "pass" || got == "fail":
			tl.wrong++
			total.wrong++
			t.Errorf("%s: WRONG verdict %s, a careful reader reads %s (%s): %s\nreply: %q", c.ID, got, c.Want, c.Source, gr.Reason, c.Reply)
		default:
			tl.notRead++
			total.notRead++
			t.Logf("%s: not read right: got %s, want %s (%s): %s\nreply: %q", c.ID, got, c.Want, c.Source, gr.Reason, c.Reply)
		}
		if c.Conf != "" && got == c.Want {
			if ev, _ := gr.Evidence.(*proctor.JudgeEvidence); ev == nil || len(ev.Judges) == 0 || ev.Judges[0].Confidence.String() != c.Conf {
				t.Errorf("%s: first vote's confidence is not %s: %+v", c.ID, c.Conf, ev)
			}
		}
	}
	fams := make([]string, 0, len(byFamily))
	for f := range byFamily {
		fams = append(fams, f)
	}
	slices.Sort(fams)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-18s %5s %6s %6s %8s\n", "family", "n", "right", "wrong", "not read")
	for _, f := range fams {
		tl := byFamily[f]
		fmt.Fprintf(&b, "%-18s %5d %6d %6d %8d\n", f, tl.n, tl.right, tl.wrong, tl.notRead)
		if float64(tl.right) < 0.95*float64(tl.n) {
			t.Errorf("family %s: %d of %d read right, want at least 95%%", f, tl.right, tl.n)
		}
	}
	fmt.Fprintf(&b, "%-18s %5d %6d %6d %8d  (%.1f%% read right)\n", "total", total.n, total.right, total.wrong, total.notRead, 100*float64(total.right)/float64(total.n))
	t.Log(b.String())
	if total.wrong != 0 {
		t.Errorf("%d wrong verdicts, want 0", total.wrong)
	}
	if float64(total.right) < 0.95*float64(total.n) {
		t.Errorf("%d of %d read right (%.1f%%), want at least 95%%", total.right, total.n, 100*float64(total.right)/float64(total.n))
	}
}

// quotedIn returns the part of s from open to close, "" when absent.
func quotedIn(s, open, close string) string {
	i := strings.Index(s, open)
	j := strings.Index(s, close)
	if i < 0 || j < i {
		return ""
	}
	return s[i:j]
}
