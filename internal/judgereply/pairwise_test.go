package judgereply

import (
	"errors"
	"testing"
)

// A pairwise reply in the forms the pairwise judges' prompts ask for
// (MT-Bench's [[A]], arena-hard's [[A>>B]], Prometheus's [RESULT] A) reads
// as pass for answer A, fail for B and abstain for a tie.
func TestPairwiseVerdictForms(t *testing.T) {
	const nonce = "0123456789abcdef"
	for _, tt := range []struct{ reply, want string }{
		{`{"verdict":"fail","confidence":"high"}`, Fail},
		{"A is better.\n[[A]]", Pass},
		{"Answer B is more precise.\n[[B]]", Fail},
		{"Both are fine.\n[[C]]", Abstain},
		{"My final verdict is [[A>>B]]", Pass},
		{"My final verdict is [[B>A]]", Fail},
		{"My final verdict is tie: [[A=B]]", Abstain},
		{"Feedback: A is more precise. [RESULT] A", Pass},
		{"Feedback: B cites the source. [RESULT] B", Fail},
	} {
		r, err := Parse(tt.reply, nonce)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.reply, err)
		}
		if got, err := PairwiseVerdict(r); err != nil || got != tt.want {
			t.Errorf("PairwiseVerdict(%q) = %q, %v; want %q", tt.reply, got, err, tt.want)
		}
	}
}

// The reading's order and its refusals, on the fields themselves.
func TestPairwiseVerdictRules(t *testing.T) {
	for _, tt := range []struct {
		name string
		r    Reply
		want string
		err  bool
	}{
		{"the asked verdict first", Reply{Verdict: Pass, Choice: "B"}, Pass, false},
		{"a comparison as the choice", Reply{Choice: "b << a"}, Pass, false},
		{"a named answer as the choice", Reply{Choice: "Assistant B"}, Fail, false},
		{"a tie word as the choice", Reply{Choice: "Tie"}, Abstain, false},
		{"a letter on the last line", Reply{Last: "A"}, Pass, false},
		{"the article on the last line", Reply{Last: "a"}, "", true},
		{"a tie word alone on the last line", Reply{Last: "Both"}, "", true},
		{"the choice before the last line", Reply{Choice: "B", Last: "A"}, Fail, false},
		{"AlpacaEval ranking", Reply{Ranking: []Ranked{{Name: "model_1", Rank: 2}, {Name: "model_2", Rank: 1}}}, Fail, false},
		{"ranking by letters", Reply{Ranking: []Ranked{{Name: "Answer A", Rank: 1}, {Name: "b", Rank: 2}}}, Pass, false},
		{"a tied ranking", Reply{Ranking: []Ranked{{Name: "a", Rank: 1}, {Name: "b", Rank: 1}}}, Abstain, false},
		{"a ranking of other names", Reply{Ranking: []Ranked{{Name: "gpt-4", Rank: 1}, {Name: "b", Rank: 2}}}, "", true},
		{"a ranking of one answer", Reply{Ranking: []Ranked{{Name: "a", Rank: 1}}}, "", true},
		{"a ranking of one answer twice", Reply{Ranking: []Ranked{{Name: "a", Rank: 1}, {Name: "model_1", Rank: 2}}}, "", true},
		{"a bare verdict word last", Reply{Bare: Fail, Last: "it is wrong"}, Fail, false},
		{"nothing", Reply{Text: "A and B both answer."}, "", true},
	} {
		got, err := PairwiseVerdict(tt.r)
		switch {
		case tt.err && !errors.Is(err, ErrNoVerdict):
			t.Errorf("%s: %q, %v; want ErrNoVerdict", tt.name, got, err)
		case !tt.err && (err != nil || got != tt.want):
			t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}
