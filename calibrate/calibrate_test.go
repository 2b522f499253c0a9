package calibrate

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
)

// TestCalibrationKappa checks Cohen's kappa against the worked example in
// Wikipedia's "Cohen's kappa" article (section "Simple example", revision
// of 2024): 50 items, 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no give
// p_o = 0.7, p_e = 0.5 and kappa = 0.4. scikit-learn's cohen_kappa_score
// (1.5) gives 0.4 for the same labels.
func TestCalibrationKappa(t *testing.T) {
	var c Result
	add := func(n int, label, got proctor.Status) {
		for range n {
			c.add(label, got)
		}
	}
	add(20, proctor.StatusPassed, proctor.StatusPassed)
	add(5, proctor.StatusPassed, proctor.StatusFailed)
	add(10, proctor.StatusFailed, proctor.StatusPassed)
	add(15, proctor.StatusFailed, proctor.StatusFailed)
	add(5, proctor.StatusFailed, proctor.StatusNotGraded)
	c.finish()
	if math.Abs(c.Kappa-0.4) > 1e-12 || math.Abs(c.Agreement-0.7) > 1e-12 {
		t.Errorf("kappa %v agreement %v, want 0.4 and 0.7", c.Kappa, c.Agreement)
	}
	if c.AbstentionRate != 5.0/55 || c.Confusion.FailNotGraded != 5 {
		t.Errorf("abstention %v confusion %+v, want 5/55 and 5 not graded", c.AbstentionRate, c.Confusion)
	}
}

func TestCalibrate(t *testing.T) {
	// The judge passes answers that mention Paris.
	j := proctor.JudgeModel{Name: "j", Family: "fam-a", Call: func(_ context.Context, p string) (string, error) {
		if strings.Contains(quotedOutput(p), "Paris") {
			return verdictJSON("pass"), nil
		}
		if strings.Contains(quotedOutput(p), "?") {
			return "no idea", nil
		}
		return verdictJSON("fail"), nil
	}}
	in := `{"output": "Paris", "label": "pass"}
{"output": "Paris, I think", "label": "fail"}

{"output": "Lyon", "label": "fail"}
{"output": "Rome?", "label": "pass"}
`
	samples, err := ReadLabelled(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Run(context.Background(), proctest.Must(proctor.NewLLMJudge("names Paris", proctor.JudgeOptions{}, proctor.NewJudgePool(j))), samples)
	if err != nil {
		t.Fatal(err)
	}
	want := ConfusionMatrix{PassPassed: 1, FailPassed: 1, FailFailed: 1, PassNotGraded: 1}
	if c.Confusion != want || c.Samples != 4 || c.Graded != 3 || c.Agree != 2 {
		t.Errorf("got %+v, want confusion %+v over 4 samples, 3 graded, 2 agreeing", c, want)
	}
	for _, bad := range []string{`{"output": "x"}`, `{"output": "x", "label": "maybe"}`, `{"output": 3, "label": "pass"}`} {
		if _, err := ReadLabelled(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("ReadLabelled(%s) = %v, want an error naming line 1", bad, err)
		}
	}
}

// quotedOutput returns the text a judge prompt quotes as the output, in
// its nonce tags.
func quotedOutput(prompt string) string {
	i := strings.Index(prompt, "<output-")
	if i < 0 {
		return ""
	}
	rest := prompt[i:]
	start := strings.IndexByte(rest, '>') + 1
	end := strings.Index(rest, "</output-")
	if start <= 0 || end < start {
		return ""
	}
	return rest[start:end]
}

// verdictJSON is a judge's reply in proctor's asked shape, at high
// confidence.
func verdictJSON(verdict string) string {
	return `{"criterion":"names Paris","violations":"none","basis":"answer","verdict":"` + verdict + `","confidence":"high"}`
}
