package judgereply

import (
	"errors"
	"reflect"
	"testing"
)

// TestParseForms: the forms real judges write beyond the asked shape,
// each read loosely, and their limits.
func TestParseForms(t *testing.T) {
	tests := []struct {
		rule, reply string
		check       func(Reply) bool
		err         error
	}{
		{"python dict", "{'verdict': 'pass', 'confidence': 'high', 'ok': True}", func(r Reply) bool { return r.Verdict == Pass && r.Loose }, nil},
		{"json with comments", "{\n\"verdict\": \"fail\", // wrong year\n/* note */ \"confidence\": \"high\"\n}", func(r Reply) bool { return r.Verdict == Fail && r.Loose }, nil},
		{"a comment marker inside a string stays", `{"verdict": "fail", "why": "see http://x"}`, func(r Reply) bool { return r.Verdict == Fail }, nil},
		{"wrapped object", `{"evaluation": {"verdict": "fail"}}`, func(r Reply) bool { return r.Verdict == Fail }, nil},
		{"wrapped objects that disagree", `{"a": {"verdict": "fail"}, "b": {"verdict": "pass"}}`, nil, ErrContradictory},
		{"ranking list", "[{'model': 'model_1', 'rank': 2}, {'model': 'model_2', 'rank': 1}]",
			func(r Reply) bool {
				return reflect.DeepEqual(r.Ranking, []Ranked{{"model_1", 2}, {"model_2", 1}})
			}, nil},
		{"ranking inside an object", `{"concise_explanation": "M is better", "ordered_models": [{"model": "M", "rank": 1}, {"model": "m", "rank": 2}]}`,
			func(r Reply) bool { return len(r.Ranking) == 2 && r.Reasoning == "M is better" }, nil},
		{"cut off after the verdict", `{"criterion": "x", "verdict": "pass", "confidence": "hi`, func(r Reply) bool { return r.Verdict == Pass && r.Loose }, nil},
		{"cut off inside the verdict", `{"criterion": "x", "verdict": "pa`, func(r Reply) bool { return r.Verdict == "" }, nil},
		{"cut off after a nested object", `{"verdict": "fail", "x": {"verdict": "pass"}, "y": 1`, func(r Reply) bool { return r.Verdict == "" }, nil},
		{"cut off mid-sentence is quoted", "It prints {\"verdict\": \"pass\", \"a\": 1 and so on", func(r Reply) bool { return r.Verdict == "" }, nil},
		{"json in a sentence is quoted", "The code prints {\"result\": 48}, not 42.\nScore: 2", func(r Reply) bool { return r.HasScore && r.Score == 2 }, nil},
		{"json introduced by a colon is the judge's", "My answer: {\"verdict\": \"fail\"} as asked", func(r Reply) bool { return r.Verdict == Fail }, nil},
		{"grade", "The submission is right.\nGRADE: C", func(r Reply) bool { return r.Grade == "C" && r.Choice == "C" }, nil},
		{"grades that disagree", "GRADE: C\nGRADE: I", nil, ErrContradictory},
		{"grade with more words is no grade", "GRADE: C because it is right", func(r Reply) bool { return r.Grade == "" }, nil},
		{"dimension", "- Coherence: 2", func(r Reply) bool {
			return reflect.DeepEqual(r.Dimensions, []Dimension{{"coherence", 2}}) && !r.HasScore
		}, nil},
		{"dimension needs a plain number", "Coherence: 2 of the sentences are fine", func(r Reply) bool { return len(r.Dimensions) == 0 }, nil},
		{"table of labelled rows", "| key | value |\n|---|---|\n| Verdict | FAIL |\n| Confidence | high |", func(r Reply) bool { return r.Verdict == Fail && r.Confidence == "low" }, nil},
		{"table with a verdict column", "| Criterion | Verdict |\n|---|---|\n| year | PASS |", func(r Reply) bool { return r.Verdict == Pass }, nil},
		{"table rows that disagree", "| Criterion | Verdict |\n|---|---|\n| year | PASS |\n| crew | FAIL |", nil, ErrContradictory},
		{"table without labels says nothing", "| a | b |\n|---|---|\n| pass | fail |", func(r Reply) bool { return r.Verdict == "" }, nil},
		{"own rating quoted", `Therefore it should be rated as follows: "Rating: [[6]]"`, func(r Reply) bool { return r.HasScore && r.Score == 6 }, nil},
		{"someone else's rating quoted", `The answer itself says "Rating: [[10]]".` + "\nRating: [[3]]", func(r Reply) bool { return r.Score == 3 }, nil},
		{"tie label with prose that agrees", "Final verdict: [[C]] for a tie.", func(r Reply) bool { return r.Choice == "C" }, nil},
		{"label with prose that contradicts", "Final verdict: [[A]] for a tie.", nil, ErrContradictory},
		{"arena verdicts that disagree", "[[A>B]] at first.\nMy final verdict is: [[B>>A]]", nil, ErrContradictory},
		{"a final verdict decides over the reasoning's", "Verdict: FAIL\n\nWait, the year is 1969.\n\nFinal verdict: PASS", func(r Reply) bool { return r.Verdict == Pass && r.Loose }, nil},
		{"two final verdicts that disagree", "Final verdict: FAIL\nFinal verdict: PASS", nil, ErrContradictory},
		{"prose kept as reasoning", "Let me think. The year is 1968.\n\nVerdict: FAIL", func(r Reply) bool {
			return r.Verdict == Fail && r.Reasoning == "Let me think. The year is 1968."
		}, nil},
		{"reasoning block kept as reasoning", "<think>1968 vs 1969</think>\nVerdict: FAIL", func(r Reply) bool { return r.Reasoning == "1968 vs 1969" }, nil},
		{"a reasoning block naming the output's tag", "<think>inside <output-0123456789abcdef> it says 1969</think>\n{\"verdict\": \"pass\"}",
			func(r Reply) bool { return r.Verdict == Pass }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			r, err := Parse(tt.reply, "0123456789abcdef")
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Parse(%q) error %v, want %v", tt.reply, err, tt.err)
				}
				return
			}
			if err != nil || !tt.check(r) {
				t.Fatalf("Parse(%q) = %+v, %v", tt.reply, r, err)
			}
		})
	}
}
