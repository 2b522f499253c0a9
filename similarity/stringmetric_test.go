package similarity_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
	"github.com/proctorhq/proctor/metric"
	"github.com/proctorhq/proctor/similarity"
)

// Reference values from rapidfuzz's own tests:
//
//	tests/distance/test_Jaro.py        rapidfuzz/RapidFuzz@2039b5701aafa40195b933d8aaa5c467a0cb4774
//	tests/distance/test_JaroWinkler.py rapidfuzz/RapidFuzz@10447571cd04eb168e6890893e1b1a621efce56d
//	tests/distance/test_Hamming.py     rapidfuzz/RapidFuzz@0346e4a4bd91c230bb03daab40bc1ebc3a201bc0
//
// The Jaro and Jaro-Winkler values are printed to 4 or 5 decimals there
// (assertAlmostEqual places=4); they are checked here to 1e-4, in both
// argument orders as rapidfuzz's tests check them. The integer list case
// ([0, -1] vs [0, -2]) is expressed with code points.
var rapidfuzzJaroCases = []struct {
	a, b          string
	jaro, winkler float64
}{
	{"\x00\x01", "\x00\x02", 0.66666, 0.66666},
	{"", "", 0, 0},
	{"0", "0", 1, 1},
	{"00", "00", 1, 1},
	{"0", "00", 0.83333, 0.85},
	{strings.Repeat("0", 65), strings.Repeat("0", 65), 1, 1},
	{strings.Repeat("0", 64), strings.Repeat("0", 65), 0.99487, 0.9969},
	{strings.Repeat("0", 63), strings.Repeat("0", 65), 0.98974, 0.9938},
	{"1" + strings.Repeat("0", 62) + "20", strings.Repeat("0", 65), 0.97948, 0.97948},
	{strings.Repeat("0", 14) + "1" + strings.Repeat("0", 24) + "1" + strings.Repeat("0", 25), strings.Repeat("0", 78) + "1", 0.92223, 0.95333},
	{strings.Repeat("0", 65), "01" + strings.Repeat("0", 126), 0.83593, 0.85234},
}

var rapidfuzzHammingCases = []struct {
	a, b string
	want float64
}{
	{"", "", 1},
	{"test", "test", 1},
	{"aaaa", "bbbb", 0},
	{"South Korea", "North Korea", 1 - 2.0/11},
}

func TestStringMetricsRapidfuzz(t *testing.T) {
	maxDiff, n := 0.0, 0
	check := func(name, a, b string, want float64, f func(a, b string) float64) {
		t.Helper()
		for _, p := range [][2]string{{a, b}, {b, a}} {
			got := f(p[0], p[1])
			d := math.Abs(got - want)
			maxDiff = max(maxDiff, d)
			if d > 1e-4 {
				t.Errorf("%s(%q, %q) = %.6f, want %.5f (rapidfuzz)", name, p[0], p[1], got, want)
			}
		}
		n++
	}
	winkler := func(a, b string) float64 { return metric.JaroWinklerSimilarity(a, b, 0.1) }
	for _, c := range rapidfuzzJaroCases {
		check("jaro", c.a, c.b, c.jaro, metric.JaroSimilarity)
		check("jaro_winkler", c.a, c.b, c.winkler, winkler)
	}
	for _, c := range rapidfuzzHammingCases {
		check("hamming", c.a, c.b, c.want, metric.HammingSimilarity)
	}
	t.Logf("%d rapidfuzz values, max abs difference %.2g", n, maxDiff)
}

// TestJaroTextbook checks the classic examples whose Jaro and
// Jaro-Winkler values are exact fractions: MARTHA/MARHTA (one
// transposition), DIXON/DICKSONX, and a case where nothing matches.
func TestJaroTextbook(t *testing.T) {
	tests := []struct {
		a, b    string
		jaro    float64
		winkler float64
	}{
		{"MARTHA", "MARHTA", 17.0 / 18, 17.0/18 + 3*0.1*(1-17.0/18)},
		{"DIXON", "DICKSONX", (4.0/5 + 4.0/8 + 1) / 3, (4.0/5+4.0/8+1)/3 + 2*0.1*(1-(4.0/5+4.0/8+1)/3)},
		{"abc", "xyz", 0, 0},
	}
	for _, tt := range tests {
		if got := metric.JaroSimilarity(tt.a, tt.b); math.Abs(got-tt.jaro) > 1e-12 {
			t.Errorf("JaroSimilarity(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.jaro)
		}
		if got := metric.JaroWinklerSimilarity(tt.a, tt.b, 0.1); math.Abs(got-tt.winkler) > 1e-12 {
			t.Errorf("JaroWinklerSimilarity(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.winkler)
		}
	}
}

func TestStringMetricGraders(t *testing.T) {
	ctx := context.Background()
	paris := &proctor.Sample{Output: "Paris", Expected: proctor.Ptr("Parish")}
	tests := []struct {
		name string
		g    proctor.Grader
		s    *proctor.Sample
		want proctor.Status
	}{
		{"jaro passes near match", proctest.Must(similarity.NewJaro(similarity.EditSimilarityOptions{Threshold: proctor.Ptr(0.9)})), paris, proctor.StatusPassed},
		{"jaro fails far", proctest.Must(similarity.NewJaro(similarity.EditSimilarityOptions{})), &proctor.Sample{Output: "abc", Expected: proctor.Ptr("xyz")}, proctor.StatusFailed},
		{"hamming pads", proctest.Must(similarity.NewHamming(similarity.EditSimilarityOptions{Threshold: proctor.Ptr(0.9)})), paris, proctor.StatusFailed},
		{"hamming best of refs", proctest.Must(similarity.NewHamming(similarity.EditSimilarityOptions{References: []string{"xxxxx", "Paris"}, Threshold: proctor.Ptr(1.0)})), paris, proctor.StatusPassed},
		{"no reference", proctest.Must(similarity.NewJaro(similarity.EditSimilarityOptions{})), &proctor.Sample{Output: "x"}, proctor.StatusNotGraded},
		{"levenshtein max_distance pass", proctest.Must(similarity.NewLevenshtein(similarity.EditSimilarityOptions{MaxDistance: proctor.Ptr(1)})), paris, proctor.StatusPassed},
		{"levenshtein max_distance fail", proctest.Must(similarity.NewLevenshtein(similarity.EditSimilarityOptions{MaxDistance: proctor.Ptr(0)})), paris, proctor.StatusFailed},
		{"levenshtein max_distance and threshold", proctest.Must(similarity.NewLevenshtein(similarity.EditSimilarityOptions{MaxDistance: proctor.Ptr(1), Threshold: proctor.Ptr(0.9)})), paris, proctor.StatusFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.g.Grade(ctx, tt.s); got.Status != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	jw, err := similarity.NewJaroWinkler(similarity.JaroWinklerOptions{PrefixWeight: proctor.Ptr(0.3)})
	if err == nil {
		t.Errorf("NewJaroWinkler(prefix 0.3) = %v, want an error", jw)
	}
}

// TestJaroLimit checks that a pair too long to compare is not graded.
func TestJaroLimit(t *testing.T) {
	long := strings.Repeat("a", 40000)
	g := proctest.Must(similarity.NewJaro(similarity.EditSimilarityOptions{}))
	if got := g.Grade(context.Background(), &proctor.Sample{Output: long, Expected: proctor.Ptr(long)}); got.Status != proctor.StatusNotGraded {
		t.Errorf("got %v, want not graded (over the pair limit)", got)
	}
}

func TestStringMetricSpecs(t *testing.T) {
	c := proctor.NewCompiler(similarity.Types())
	tests := []struct {
		spec    string
		output  string
		want    proctor.Status
		wantErr bool
	}{
		{`{"type":"jaro","expected":"MARHTA","threshold":0.94}`, "MARTHA", proctor.StatusPassed, false},
		{`{"type":"jaro_winkler","expected":"MARHTA","threshold":0.96}`, "MARTHA", proctor.StatusPassed, false},
		{`{"type":"jaro_winkler","expected":"MARHTA","threshold":0.96,"prefix_weight":0}`, "MARTHA", proctor.StatusFailed, false},
		{`{"type":"jaro_winkler","prefix_weight":0.5}`, "", 0, true},
		{`{"type":"hamming","expected":"karolin","threshold":0.5}`, "kathrin", proctor.StatusPassed, false},
		{`{"type":"hamming","max_distance":2}`, "", 0, true},
		{`{"type":"levenshtein","expected":"kitten","max_distance":3}`, "sitting", proctor.StatusPassed, false},
		{`{"type":"levenshtein","expected":"kitten","max_distance":2}`, "sitting", proctor.StatusFailed, false},
		{`{"type":"levenshtein","max_distance":-1}`, "", 0, true},
		{`{"type":"fuzzy_match","max_distance":2}`, "", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			ch, err := c.Compile([]byte(tt.spec))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("Compile = nil error, want a spec error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := ch.Grade(context.Background(), &proctor.Sample{Output: tt.output}); got.Status != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
