package metric

import (
	"math"
	"testing"
)

// Values from sacreBLEU's own test suite, mjpost/sacrebleu
// test/test_bleu.py at commit 785d26bb42ff5cc738c8aa06efb288cf407fc4fd
// (EPSILON 1e-8 on sacreBLEU's 0-100 scale there; raw_corpus_bleu is
// floor smoothing, tokenize none, effective order).

// sacreRefs are _refs of test_bleu.py, transposed to one list per
// hypothesis.
var (
	sacreHyps = []string{"The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."}
	sacreRefs = [][]string{
		{"The dog bit the man.", "The dog had bit the man."},
		{"It was not unexpected.", "No one was surprised."},
		{"The man bit him first.", "The man had bitten the dog."},
	}
)

func rawCorpus(value *float64) bleuConfig {
	return bleuConfig{smooth: smoothFloor, smoothValue: value, noTokenize: true, effectiveOrder: true}
}

func TestCorpusBLEUSacreBLEU(t *testing.T) {
	floor01 := 0.01
	zero := 0.0
	tests := []struct {
		name string
		cfg  bleuConfig
		hyps []string
		refs [][]string
		want float64 // sacreBLEU's score / 100
	}{
		{"test_corpus_bleu default", bleuConfig{}, sacreHyps, sacreRefs, 0.48530827},
		{"test_corpus_bleu empty hypotheses kept", bleuConfig{}, []string{"", "", ""}, sacreRefs, 0},
		{"test_corpus_bleu tokenize none", bleuConfig{noTokenize: true}, sacreHyps, sacreRefs, 0.491919566},
		{"test_corpus_bleu smooth none", bleuConfig{smooth: smoothNone}, sacreHyps, sacreRefs, 0.48530827},
		{"test_raw_bleu no match is 0 (#141)", rawCorpus(&floor01), []string{"this is a test", "another test"}, [][]string{{"ref1"}, {"ref2"}}, 0},
		{"test_raw_bleu identical", rawCorpus(&floor01), []string{"this is a test"}, [][]string{{"this is a test"}}, 1},
		{"test_raw_bleu one word off", rawCorpus(&floor01), []string{"this is a fest"}, [][]string{{"this is a test"}}, 0.223606797749979},
		{"test_effective_order short", rawCorpus(&floor01), []string{"test"}, [][]string{{"a test"}}, 0.3678794411714425},
		{"test_effective_order equal", rawCorpus(&floor01), []string{"a test"}, [][]string{{"a test"}}, 1},
		{"test_effective_order longer", rawCorpus(&floor01), []string{"a little test"}, [][]string{{"a test"}}, 0.03218297948685433},
		{"test_offset without offset", rawCorpus(&zero), []string{"am I am a character sequence"}, [][]string{{"I am a symbol string sequence a a"}}, 0},
		{"test_offset default offset", rawCorpus(nil), []string{"am I am a character sequence"}, [][]string{{"I am a symbol string sequence a a"}}, 0.1555722182},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.cfg.corpus(tt.hyps, tt.refs)
			if err != nil {
				t.Fatal(err)
			}
			if d := math.Abs(got.Score - tt.want); d > 1e-10 {
				t.Errorf("got %.12f, want %.12f (diff %g)", got.Score, tt.want, d)
			}
		})
	}
}

// test_max_ngram_order's 4-gram value is printed to two decimals there:
// "48.53"; the others need max_ngram_order, which proctor fixes at 4.

func TestBLEUStatisticsSacreBLEU(t *testing.T) {
	// test_statistics: counts [4 2 1 0], totals [6 5 4 3].
	got, _ := rawCorpus(nil).corpus([]string{"am I am a character sequence"}, [][]string{{"I am a symbol string sequence a a"}})
	if got.Counts != [4]int{4, 2, 1, 0} || got.Totals != [4]int{6, 5, 4, 3} {
		t.Errorf("got counts %v totals %v, want [4 2 1 0] [6 5 4 3]", got.Counts, got.Totals)
	}
}

func TestComputeBLEUSacreBLEU(t *testing.T) {
	// test_scoring: compute_bleu([9,7,5,3], [10,8,6,4], 11, 11) with the
	// default smoothing of compute_bleu, none.
	got := bleuConfig{smooth: smoothNone}.score(bleuStats{sysLen: 11, refLen: 11, correct: [4]int{9, 7, 5, 3}, total: [4]int{10, 8, 6, 4}})
	if d := math.Abs(got.Score - 0.8375922397); d > 1e-10 {
		t.Errorf("got %.12f, want 0.8375922397", got.Score)
	}
	// test_degenerate_statistics: floor smoothing, every score exactly 0.
	degenerate := []struct {
		correct, total [4]int
		sys, ref       int
		offset         float64
	}{
		{[4]int{}, [4]int{4, 4, 2, 1}, 0, 1, 0},
		{[4]int{}, [4]int{10, 11, 12, 0}, 14, 10, 0},
		{[4]int{}, [4]int{}, 0, 0, 0},
		{[4]int{6, 5, 4, 0}, [4]int{6, 5, 4, 3}, 6, 6, 0},
		{[4]int{}, [4]int{}, 0, 0, 0.1},
		{[4]int{}, [4]int{}, 1, 5, 0.01},
	}
	for i, d := range degenerate {
		c := bleuConfig{smooth: smoothFloor, smoothValue: &d.offset}
		if got := c.score(bleuStats{sysLen: d.sys, refLen: d.ref, correct: d.correct, total: d.total}).Score; got != 0 {
			t.Errorf("degenerate #%d: got %v, want exactly 0", i, got)
		}
	}
}

// Sentence BLEU values from mjpost/sacrebleu test/test_sentence_bleu.py at
// commit 27bec349d41c900990d5aa669056766d0543d710, published to three
// decimals (EPSILON 1e-3 on the 0-100 scale); the example is issue #98.
func TestSentenceBLEUSacreBLEU(t *testing.T) {
	const (
		ref = "producţia de zahăr brut se exprimă în zahăr alb;"
		sys = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
	)
	v := func(f float64) *float64 { return &f }
	tests := []struct {
		name string
		cfg  bleuConfig
		hyp  string
		ref  string
		want float64 // sacreBLEU score (0-100)
	}{
		{"exp 13a (the default)", bleuConfig{}, sys, ref, 8.493},
		{"none", bleuConfig{smooth: smoothNone}, sys, ref, 0},
		{"floor default 0.1", bleuConfig{smooth: smoothFloor}, sys, ref, 4.51688},
		{"floor 0.1", bleuConfig{smooth: smoothFloor, smoothValue: v(0.1)}, sys, ref, 4.51688},
		{"floor 0.5", bleuConfig{smooth: smoothFloor, smoothValue: v(0.5)}, sys, ref, 10.10},
		{"add-k default 1", bleuConfig{smooth: smoothAddK}, sys, ref, 14.882},
		{"add-k 1", bleuConfig{smooth: smoothAddK, smoothValue: v(1)}, sys, ref, 14.882},
		{"add-k 2", bleuConfig{smooth: smoothAddK, smoothValue: v(2)}, sys, ref, 21.389},
		{"exp tokenize none", bleuConfig{noTokenize: true}, sys, ref, 7.347},
		{"#141 exp", bleuConfig{}, "this is a cat", "okay thanks", 0},
		{"#141 none", bleuConfig{smooth: smoothNone}, "this is a cat", "okay thanks", 0},
		{"#141 floor", bleuConfig{smooth: smoothFloor}, "this is a cat", "okay thanks", 0},
		{"#141 add-k", bleuConfig{smooth: smoothAddK}, "this is a cat", "okay thanks", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.effectiveOrder = true
			got := tt.cfg.score(tt.cfg.segment(tt.hyp, []string{tt.ref})).Score * 100
			if d := math.Abs(got - tt.want); d >= 1e-3 {
				t.Errorf("got %.6f, want %.3f (diff %g)", got, tt.want, d)
			}
		})
	}
	// SentenceBLEU is the default row.
	if got := SentenceBLEU(sys, []string{ref}).Score * 100; math.Abs(got-8.493) >= 1e-3 {
		t.Errorf("SentenceBLEU: got %.6f, want 8.493", got)
	}
}

// Tokenisation by hand from sacreBLEU's tokenizer_13a.py and
// tokenizer_re.py (mjpost/sacrebleu at 84187d17 and 03d775bc).
func TestTok13a(t *testing.T) {
	tests := []struct{ in, want string }{
		{"The dog bit the man.", "The dog bit the man ."},
		{"It wasn't surprising.", "It wasn't surprising ."},
		{"3.14, 1,000 and 2-3", "3.14 , 1,000 and 2 - 3"},
		{"a.,b", "a . , b"},
		{"x&quot;y&amp;lt;", "x \" y <"}, // replacements are sequential, as in sacreBLEU
		{"end-\nof line<skipped>", "endof line"},
		{"(a+b)/c {d} [e] ~f @g", "( a + b ) / c { d } [ e ] ~ f @ g"},
		{"über.", "über ."},
		{"  ", ""},
	}
	for _, tt := range tests {
		b, _ := tokenizeForTest(tt.in)
		if b != tt.want {
			t.Errorf("Tok13a(%q) = %q, want %q", tt.in, b, tt.want)
		}
	}
}

func TestBLEUEdges(t *testing.T) {
	if got := SentenceBLEU("", []string{"a b c"}).Score; got != 0 {
		t.Errorf("empty output: got %v, want 0", got)
	}
	if got := SentenceBLEU("a b c", nil).Score; got != 0 {
		t.Errorf("no references: got %v, want 0", got)
	}
	// exp(4·log(100)/4) is 100.00000000000004 in sacreBLEU too.
	if got := SentenceBLEU("a b c d", []string{"x", "a b c d"}).Score; math.Abs(got-1) > 1e-15 {
		t.Errorf("second reference identical: got %v, want 1", got)
	}
	if got := SentenceBLEU("!!! ...", []string{"!!! ..."}).Score; math.Abs(got-1) > 1e-15 {
		t.Errorf("punctuation only, identical: got %v, want 1", got)
	}
	if _, err := CorpusBLEU([]string{"a"}, nil); err == nil {
		t.Error("CorpusBLEU with mismatched lengths: got nil error")
	}
	// Closest reference length, the shorter on a tie (sacreBLEU's
	// _get_closest_ref_len).
	if got := closestRefLen(5, []int{7, 3, 4, 6}); got != 4 {
		t.Errorf("closestRefLen: got %d, want 4", got)
	}
}
