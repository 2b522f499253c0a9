package metric_test

import (
	"fmt"

	"github.com/proctorhq/proctor/metric"
)

func ExampleWilson() {
	lo, hi := metric.Wilson(8, 10)
	fmt.Printf("8 of 10 passed: 95%% CI [%.4f, %.4f]\n", lo, hi)
	// Output: 8 of 10 passed: 95% CI [0.4902, 0.9433]
}

func ExamplePassAtK() {
	// Five attempts, two passed: the chance that at least one of two
	// attempts drawn passes, and that both do.
	fmt.Printf("pass@2 %.2f, pass^2 %.2f\n", metric.PassAtK(5, 2, 2), metric.PassHatK(5, 2, 2))
	// Output: pass@2 0.70, pass^2 0.10
}

func ExampleSentenceBLEU() {
	s := metric.SentenceBLEU("The dog bit the man.", []string{"The dog bit the man.", "The dog had bit the man."})
	fmt.Printf("BLEU %.2f, brevity penalty %.2f\n", s.Score, s.BP)
	s = metric.SentenceBLEU("It wasn't surprising.", []string{"It was not unexpected."})
	fmt.Printf("BLEU %.4f, 1-gram matches %d of %d\n", s.Score, s.Counts[0], s.Totals[0])
	// Output:
	// BLEU 1.00, brevity penalty 1.00
	// BLEU 0.1479, 1-gram matches 2 of 4
}

func ExampleCorpusBLEU() {
	hyps := []string{"The dog bit the man.", "It wasn't surprising."}
	refs := [][]string{{"The dog bit the man."}, {"It was not unexpected."}}
	s, err := metric.CorpusBLEU(hyps, refs)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("corpus BLEU %.4f over %d tokens\n", s.Score, s.SysLen)
	// Output: corpus BLEU 0.6398 over 10 tokens
}

func ExampleSentenceChrF() {
	hyp := "The relationship between Obama and Netanyahu is not exactly friendly."
	refs := []string{"The ties between Obama and Netanyahu are not particularly friendly."}
	for _, cfg := range []metric.ChrFConfig{{}, {WordOrder: 2}} {
		s, err := metric.SentenceChrF(hyp, refs, cfg)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s %.4f\n", cfg.Name(), s)
	}
	_, err := metric.SentenceChrF(hyp, refs, metric.ChrFConfig{CharOrder: 40})
	fmt.Println(err)
	// Output:
	// chrF2 0.6158
	// chrF2++ 0.6028
	// metric: chrF char_order: want 1..32, got 40
}

func ExampleCorpusChrF() {
	hyps := []string{"The relationship between cats and dogs is not exactly friendly.", "a good bookshop is just a genteel black hole that knows how to read."}
	refs := [][]string{{"The relationship between dogs and cats is not exactly friendly."}, {"A good bookshop is just a genteel Black Hole that knows how to read."}}
	s, err := metric.CorpusChrF(hyps, refs, metric.ChrFConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("corpus chrF2 %.4f\n", s)
	// Output: corpus chrF2 0.8464
}

func ExampleSentenceGLEU() {
	g := metric.SentenceGLEU("the the the the the the the", []string{"the cat is on the mat"})
	fmt.Printf("GLEU %.4f\n", g)
	// Output: GLEU 0.0909
}

func ExampleLevenshteinDistance() {
	fmt.Println(metric.LevenshteinDistance("kitten", "sitting"))
	fmt.Printf("%.4f\n", metric.LevenshteinSimilarity("kitten", "sitting"))
	fmt.Printf("%.4f\n", metric.IndelSimilarity("this is a test", "this is a test!"))
	// Output:
	// 3
	// 0.5714
	// 0.9655
}

func ExampleTokenF1() {
	golds := []string{"a cat sat down"}
	fmt.Printf("F1 %.2f, exact %v\n", metric.TokenF1("the cat sat", golds), metric.SQuADExact("the cat sat", golds))
	fmt.Println(metric.SQuADExact("The Eiffel Tower!", []string{"eiffel tower"}))
	// Output:
	// F1 0.80, exact false
	// true
}

func ExampleMcNemarExact() {
	// Ten cases went from pass to fail and two from fail to pass.
	fmt.Printf("p = %.4f\n", metric.McNemarExact(10, 2))
	// Output: p = 0.0386
}

func ExampleRougeScorer() {
	sc, err := metric.NewRougeScorer("rouge1", false)
	if err != nil {
		fmt.Println(err)
		return
	}
	s := sc.Score("testing one two", "testing")
	fmt.Printf("P %.2f R %.2f F %.2f\n", s.Precision, s.Recall, s.FMeasure)
	// Output: P 1.00 R 0.33 F 0.50
}

func ExampleLocalization() {
	got, err := metric.ParseLocations("The bug is in parse.go:10-14 and util.go:3.")
	if err != nil {
		fmt.Println(err)
		return
	}
	want := metric.Locations{"parse.go": {{Start: 12, End: 20}}}
	s := metric.Localization(got, want)
	fmt.Printf("files F1 %.2f, lines F1 %.2f, score %.2f\n", s.FileF1, s.LineF1, s.Score)
	// Output: files F1 0.67, lines F1 0.40, score 0.53
}

// A head run fixed 12 cases and broke 2 of 50 measured in both runs
// (Newcombe's 1998 first example): the difference in pass rate with its
// 95% interval, the McNemar p-value, and whether head is no worse than
// base by more than 2 points at a one-sided 5% level.
func ExamplePairedDifference() {
	p := metric.Pairs{BothPass: 36, HeadOnly: 12, BaseOnly: 2, BothFail: 0}
	d, lo, hi, _ := metric.PairedDifference(p, 0.95)
	ni, _ := metric.NonInferior(p, 0.02, 0.05)
	fmt.Printf("difference %.3f [%.4f, %.4f], McNemar p %.4f, non-inferior %v\n",
		d, lo, hi, metric.McNemarExact(p.BaseOnly, p.HeadOnly), ni.NonInferior)
	// Output: difference 0.200 [0.0569, 0.3404], McNemar p 0.0129, non-inferior true
}

// A judge passed 140 of 200 outputs; against 150 human labels it passed
// 45 of 50 good outputs and failed 90 of 100 bad ones. The corrected pass
// rate and its interval carry both samples' uncertainty.
func ExampleRoganGladen() {
	acc := metric.Accuracy{GraderPass: 45, HumanPass: 50, GraderFail: 90, HumanFail: 100}
	c, _ := metric.RoganGladen(140, 200, acc, 0.95)
	fmt.Printf("raw %.2f, corrected %.2f [%.3f, %.3f]\n", c.Raw, c.Rate, c.Low, c.High)
	// Output: raw 0.70, corrected 0.75 [0.648, 0.886]
}

// Cases needed to see a 3-point change from 80% with McNemar's test at
// 80% power, when 10% of cases change verdict between the runs.
func ExamplePairedSampleSize() {
	n, _ := metric.PairedSampleSize(0.03, 0.10, 0.05, 0.8)
	fmt.Println(n)
	// Output: 870
}

func ExampleNumericDiff() {
	fmt.Printf("%.4f %.4f %.4f\n", metric.NumericDiff(1, 2), metric.NumericDiff(0, 0), metric.NumericDiff(-1, 2))
	// Output: 0.6667 1.0000 0.0000
}

func ExampleListContains() {
	got := []string{"Paris", "Lyon", "Nice"}
	want := []string{"Lyon", "paris"}
	fmt.Printf("%.4f\n", metric.ListContains(got, want, false, metric.LevenshteinSimilarity))
	fmt.Printf("%.4f\n", metric.ListContains(got, want, true, metric.LevenshteinSimilarity))
	// Output:
	// 0.6000
	// 0.9000
}

func ExampleToolCallAccuracy() {
	want := []metric.ToolCall{
		{Name: "search", Args: map[string]any{"query": "python", "limit": 10.0}},
		{Name: "filter", Args: map[string]any{"type": "recent"}},
	}
	got := []metric.ToolCall{want[1], {Name: "search", Args: map[string]any{"query": "python", "limit": 5.0}}}
	fmt.Printf("in order %.2f, in any order %.2f\n", metric.ToolCallAccuracy(got, want, true), metric.ToolCallAccuracy(got, want, false))
	// Output: in order 0.00, in any order 0.75
}

func ExampleToolNameF1() {
	p, r, f1 := metric.ToolNameF1([]string{"search", "search", "book", "email"}, []string{"search", "book"})
	fmt.Printf("precision %.2f, recall %.2f, F1 %.2f\n", p, r, f1)
	// Output: precision 0.67, recall 1.00, F1 0.80
}
