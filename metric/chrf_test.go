package metric_test

import (
	"errors"
	"math"
	"testing"

	"github.com/proctorhq/proctor/metric"
)

// chrfCorpusCases are sacreBLEU's own published values (scores 0-100):
//
//	test/test_chrf.py mjpost/sacrebleu@0dca9d481824294b6e2b67b5bc6d7b6564a2553a
//	  test_cases (char_order 6, word_order 0, beta 3, eps_smoothing),
//	  test_cases_effective_order (beta 3, effective order),
//	  test_cases_keep_whitespace (beta 3, whitespace kept)
//	metrics/chrf/README.md huggingface/datasets@3180aada9244b2e6e3c45531942bd147c27c8f8d
//	  (sacreBLEU's corpus_chrf with its defaults, chrF++ and lowercase)
//
// sacreBLEU's test tolerance is 1e-4 on the 0-100 scale; so is ours.
var chrfCorpusCases = []struct {
	name string
	cfg  metric.ChrFConfig
	hyps []string
	refs []string // one reference per hypothesis
	want float64
}{
	{"eps 1", chrfEps, []string{"abcdefg"}, []string{"hijklmnop"}, 0},
	{"eps 2", chrfEps, []string{"a"}, []string{"b"}, 0},
	{"eps 3", chrfEps, []string{""}, []string{"b"}, 0},
	{"eps 4", chrfEps, []string{""}, []string{"ref"}, 0},
	{"eps 5", chrfEps, []string{""}, []string{"reference"}, 0},
	{"eps 6", chrfEps, []string{"aa"}, []string{"ab"}, 8.3333},
	{"eps 7", chrfEps, []string{"a", "b"}, []string{"a", "c"}, 8.3333},
	{"eps 8", chrfEps, []string{"a"}, []string{"a"}, 16.6667},
	{"eps 9", chrfEps, []string{"a b c"}, []string{"a b c"}, 50},
	{"eps 10", chrfEps, []string{"a b c"}, []string{"abc"}, 50},
	{"eps 11", chrfEps, []string{" risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists ."},
		[]string{"risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists ."}, 63.361730},
	{"eps 12", chrfEps, []string{" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "},
		[]string{"Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."}, 64.1302698},
	{"eps 13", chrfEps, []string{"Niemand hat die Absicht, eine Mauer zu errichten"}, []string{"Niemand hat die Absicht, eine Mauer zu errichten"}, 100},
	{"eff 1", chrfEff, []string{"a"}, []string{"a"}, 100},
	{"eff 2", chrfEff, []string{""}, []string{"reference"}, 0},
	{"eff 3", chrfEff, []string{"a b c"}, []string{"a b c"}, 100},
	{"eff 4", chrfEff, []string{"a b c"}, []string{"abc"}, 100},
	{"eff 5", chrfEff, []string{""}, []string{"c"}, 0},
	{"eff 6", chrfEff, []string{"a", "b"}, []string{"a", "c"}, 50},
	{"eff 7", chrfEff, []string{"aa"}, []string{"ab"}, 25},
	{"whitespace 1", metric.ChrFConfig{Beta: 3, Whitespace: true},
		[]string{"Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich."},
		[]string{"Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."}, 67.3481606},
	{"whitespace 2", metric.ChrFConfig{Beta: 3, Whitespace: true},
		[]string{"risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists ."},
		[]string{"risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists ."}, 65.2414427},
	{"hf chrF", metric.ChrFConfig{}, hfHyps, hfRefs, 84.64214891738334},
	{"hf chrF++", metric.ChrFConfig{WordOrder: 2}, hfHyps, hfRefs, 82.87263732906315},
	{"hf chrF++ lowercase", metric.ChrFConfig{WordOrder: 2, Lowercase: true}, hfHyps, hfRefs, 92.12853119829202},
	{"hf single", metric.ChrFConfig{}, []string{"The relationship between Obama and Netanyahu is not exactly friendly."},
		[]string{"The ties between Obama and Netanyahu are not particularly friendly."}, 61.576379378113785},
}

var (
	chrfEps = metric.ChrFConfig{Beta: 3, EpsSmoothing: true}
	chrfEff = metric.ChrFConfig{Beta: 3}
	hfHyps  = []string{"The relationship between cats and dogs is not exactly friendly.", "a good bookshop is just a genteel black hole that knows how to read."}
	hfRefs  = []string{"The relationship between dogs and cats is not exactly friendly.", "A good bookshop is just a genteel Black Hole that knows how to read."}
)

// chrfSentenceCases are test_chrf.py's test_sentence_level_chrf
// (sentence_chrf, chrF2, eps_smoothing), same commit.
var chrfSentenceCases = []struct {
	hyp, ref string
	want     float64
}{
	{"Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.", "Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře.", 39.14078509},
	{"Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.", "A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři.", 31.22557079},
	{"Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.", "Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli.", 57.15704367},
}

func TestChrFSacreBLEU(t *testing.T) {
	maxDiff := 0.0
	for _, c := range chrfCorpusCases {
		refs := make([][]string, len(c.refs))
		for i, r := range c.refs {
			refs[i] = []string{r}
		}
		got, err := metric.CorpusChrF(c.hyps, refs, c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		d := math.Abs(100*got - c.want)
		maxDiff = max(maxDiff, d)
		if d > 1e-4 {
			t.Errorf("%s: CorpusChrF = %.7f, want %.7f (sacreBLEU)", c.name, 100*got, c.want)
		}
	}
	for _, c := range chrfSentenceCases {
		got, err := metric.SentenceChrF(c.hyp, []string{c.ref}, metric.ChrFConfig{EpsSmoothing: true})
		if err != nil {
			t.Fatal(err)
		}
		d := math.Abs(100*got - c.want)
		maxDiff = max(maxDiff, d)
		if d > 1e-4 {
			t.Errorf("SentenceChrF(%q) = %.7f, want %.7f (sacreBLEU)", c.hyp, 100*got, c.want)
		}
	}
	t.Logf("%d sacreBLEU values, max abs difference %.2g (0-100 scale)", len(chrfCorpusCases)+len(chrfSentenceCases), maxDiff)
}

// TestChrFBestReference checks that of several references the one with the
// best F-score decides, as sacreBLEU picks it.
func TestChrFBestReference(t *testing.T) {
	hyp := "the cat sat on the mat"
	alone, _ := metric.SentenceChrF(hyp, []string{hyp}, metric.ChrFConfig{})
	both, _ := metric.SentenceChrF(hyp, []string{"a dog ran", hyp}, metric.ChrFConfig{})
	if alone != 1 || both != 1 {
		t.Errorf("SentenceChrF = %v alone, %v with a worse reference first; want 1 and 1", alone, both)
	}
	if _, err := metric.CorpusChrF([]string{"a"}, nil, metric.ChrFConfig{}); err == nil {
		t.Error("CorpusChrF with mismatched lengths: want an error")
	}
	if _, err := metric.SentenceChrF("a", []string{"a"}, metric.ChrFConfig{CharOrder: -1}); err == nil {
		t.Error("SentenceChrF with char order -1: want an error")
	}
}

// TestChrFConfig checks the settings' range and the names sacreBLEU gives
// the scores.
func TestChrFConfig(t *testing.T) {
	for cfg, want := range map[metric.ChrFConfig]string{{}: "chrF2", {WordOrder: 2}: "chrF2++", {Beta: 3, WordOrder: 1}: "chrF3+", {CharOrder: 4, Beta: 1}: "chrF1"} {
		if got := cfg.Name(); got != want {
			t.Errorf("%+v.Name() = %q, want %q", cfg, got, want)
		}
		if err := cfg.Check(); err != nil {
			t.Errorf("%+v.Check() = %v, want nil", cfg, err)
		}
	}
	for cfg, setting := range map[metric.ChrFConfig]string{{CharOrder: -1}: "char_order", {CharOrder: 33}: "char_order",
		{WordOrder: 33}: "word_order", {WordOrder: -1}: "word_order", {Beta: -1}: "beta", {Beta: 1001}: "beta"} {
		err := cfg.Check()
		var se *metric.ChrFSettingError
		if !errors.As(err, &se) || se.Setting != setting {
			t.Errorf("%+v.Check() = %v, want a ChrFSettingError for %s", cfg, err, setting)
		}
		if _, err := metric.CorpusChrF([]string{"a"}, [][]string{{"a"}}, cfg); !errors.As(err, &se) {
			t.Errorf("CorpusChrF with %+v: got %v, want a ChrFSettingError", cfg, err)
		}
	}
}

func FuzzChrF(f *testing.F) {
	for _, s := range []string{"a b c", "\xff\xfe abc", "Die Beziehung.", "", "(hi) there!", "é\xc3"} {
		f.Add(s, "a bc \xff")
	}
	f.Fuzz(func(t *testing.T, hyp, ref string) {
		for _, cfg := range []metric.ChrFConfig{{}, {WordOrder: 2, Lowercase: true}, {Whitespace: true, EpsSmoothing: true}} {
			got, err := metric.SentenceChrF(hyp, []string{ref}, cfg)
			if err != nil || got < 0 || got > 1 || got != got {
				t.Fatalf("SentenceChrF(%q, %q, %+v) = %v, %v", hyp, ref, cfg, got, err)
			}
		}
	})
}
