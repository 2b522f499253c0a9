package openaievals

import (
	"context"
	"reflect"
	"testing"

	"github.com/proctorhq/proctor"
)

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
