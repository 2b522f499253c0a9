package openaievals

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// TestMustConstructors checks that each MustX twin of the family returns
// the grader its NewX builds for valid input and panics naming the call
// for invalid input.
func TestMustConstructors(t *testing.T) {
	tests := []struct {
		name  string
		build func() proctor.Grader
		bad   bool
		why   string
	}{
		{"MustStringCheck", func() proctor.Grader { return MustStringCheck(StringOpEq, "{{item.want}}", StringCheckOptions{}) }, false, "a valid template"},
		{"MustStringCheck", func() proctor.Grader { return MustStringCheck(StringOpEq, "{{nope}}", StringCheckOptions{}) }, true, "an unknown template variable"},
		{"MustTextSimilarity", func() proctor.Grader {
			return MustTextSimilarity(proctor.NewTokenF1(proctor.TokenF1Options{}), "{{item.want}}", TextSimilarityOptions{})
		}, false, "a metric and a valid template"},
		{"MustTextSimilarity", func() proctor.Grader { return MustTextSimilarity(nil, "x", TextSimilarityOptions{}) }, true, "no metric"},
		{"MustScoreModel", func() proctor.Grader { return MustScoreModel(scoreInput, 0.5, ScoreModelOptions{}) }, false, "valid messages"},
		{"MustScoreModel", func() proctor.Grader { return MustScoreModel(nil, 0.5, ScoreModelOptions{}) }, true, "no messages"},
		{"MustLabelModel", func() proctor.Grader {
			return MustLabelModel(scoreInput, []string{"a", "b"}, []string{"a"}, LabelModelOptions{})
		}, false, "valid labels"},
		{"MustLabelModel", func() proctor.Grader { return MustLabelModel(scoreInput, nil, nil, LabelModelOptions{}) }, true, "no labels"},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.why, func(t *testing.T) {
			var g proctor.Grader
			var panicked any
			func() {
				defer func() { panicked = recover() }()
				g = tt.build()
			}()
			if tt.bad {
				msg, _ := panicked.(string)
				if !strings.HasPrefix(msg, "proctor: "+tt.name) {
					t.Errorf("got panic %v, want one naming %s (%s)", panicked, tt.name, tt.why)
				}
				return
			}
			if panicked != nil || g == nil {
				t.Errorf("got %v, panic %v; want a grader (%s)", g, panicked, tt.why)
			}
		})
	}
}

// FuzzJudgeReplyDeterministic: the same reply grades the same every time,
// through the real grading path, for score_model and label_model.
func FuzzJudgeReplyDeterministic(f *testing.F) {
	for _, s := range []string{
		`{"score": 3, "rating": 3}`, "GRADE: C", "<think>x</think>\npositive", "0.8\n0.3",
		`{"label": "positive", "result": "negative"}`, "Label: Negative.", "**0.7**",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		grade := func() []proctor.Grade {
			pool := judgePoolOf(replies("j", "fam-a", reply))
			msgs := []EvalMessage{{Role: "user", Content: "{{sample.output_text}}"}}
			sm := MustScoreModel(msgs, 0.5, ScoreModelOptions{}, pool)
			lm := MustLabelModel(msgs, []string{"positive", "negative"}, []string{"positive"}, LabelModelOptions{}, pool)
			var out []proctor.Grade
			for _, g := range []proctor.Grader{sm, lm} {
				gr := g.Grade(context.Background(), judgeSample())
				gr.Evidence = nil
				out = append(out, gr)
			}
			return out
		}
		a, b := grade(), grade()
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("reply %q graded differently:\n%+v\n%+v", reply, a, b)
		}
	})
}
