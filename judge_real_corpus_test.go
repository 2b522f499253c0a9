package proctor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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

// realTask is the judge task of the grader a real reply answers.
func realTask(t *testing.T, r realReply) *judgeTask {
	t.Helper()
	var g *judgeGrader
	switch r.Grader {
	case "llm_judge":
		g = &must(NewLLMJudge("r", JudgeOptions{})).judgeGrader
	case "llm_pairwise":
		g = &must(NewLLMPairwise("b", LLMPairwiseOptions{})).judgeGrader
	case "llm_score 1-10", "llm_score 1-100":
		top := 10
		if r.Grader == "llm_score 1-100" {
			top = 100
		}
		s, err := NewLLMScore("r", LLMScoreOptions{Scale: [2]int{1, top}})
		if err != nil {
			t.Fatal(err)
		}
		g = &s.judgeGrader
	default:
		t.Fatalf("%s: unknown grader %q", r.ID, r.Grader)
	}
	return &g.task
}

// readReal reads r as its grader does and says what was read: pass, fail,
// abstain, a score ("score 8.5"), or none (unreadable, with the reason).
func readReal(t *testing.T, r realReply) (got, why string) {
	_, rv, err := parseAndRead(realTask(t, r), r.Reply, "")
	switch {
	case err != nil:
		return "none", err.Error()
	case rv.hasScore:
		return fmt.Sprintf("score %g", rv.score), ""
	}
	return rv.verdict.String(), ""
}

func (r realReply) want() string {
	if r.Label == "score" {
		return fmt.Sprintf("score %g", *r.Score)
	}
	return r.Label
}

// TestRealJudgeReplies reads every reply of testdata/judges/real through
// the grader it answers and prints read-right by source and by shape. It
// fails on an opposite verdict, on a verdict where the careful read finds
// none, and when a source or a shape is read right less than 95% of the
// time.
func TestRealJudgeReplies(t *testing.T) {
	corpus := loadRealReplies(t)
	if len(corpus) < 400 {
		t.Errorf("%d real replies, want at least 400", len(corpus))
	}
	type tally struct{ n, right, wrong, invented, notRead int }
	bySource, byShape := map[string]*tally{}, map[string]*tally{}
	var total tally
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
			t.Logf("%s: not read right: %s (%s), the label is %s\nreply tail: %q", r.ID, got, why, want, tail(r.Reply, 300))
		}
	}
	table := func(title string, m map[string]*tally) {
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range m {
				if !yield(k) {
					return
				}
			}
		})
		var b strings.Builder
		fmt.Fprintf(&b, "\n%-75s %4s %5s %5s %8s %8s %7s\n", title, "n", "right", "wrong", "invented", "not read", "right%")
		for _, k := range keys {
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
	t.Logf("total: %d replies, %d right (%.1f%%), %d wrong, %d invented, %d not read",
		total.n, total.right, 100*float64(total.right)/float64(total.n), total.wrong, total.invented, total.notRead)
}

func at[K comparable, V any](m map[K]*V, k K) *V {
	if m[k] == nil {
		m[k] = new(V)
	}
	return m[k]
}

func tail(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return "…" + string(r[len(r)-n:])
	}
	return s
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
