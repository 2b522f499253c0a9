package reportfmt_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

// clusteredReport is metric's hand-verified example as cases: 12 cases
// in clusters a-d and one case with no cluster, mean 7/12, CR1 variance
// 55/1296, design effect 176/105. A flaky case is left out of it.
func clusteredReport() *proctor.Report {
	ys := []int{1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1}
	gs := []string{"a", "a", "a", "b", "b", "b", "c", "c", "c", "d", "d", ""}
	r := proctor.NewReport("clustered")
	for i, y := range ys {
		v := proctor.StatusFailed
		if y == 1 {
			v = proctor.StatusPassed
		}
		r.Add(proctor.CaseResult{ID: fmt.Sprint("c", i), Verdict: v, Cluster: gs[i], Split: "dev"})
	}
	r.Add(proctor.CaseResult{ID: "flaky", Verdict: proctor.StatusFlaky, Cluster: "a", Split: "holdout"})
	return r
}

func TestClusteredRate(t *testing.T) {
	s := reportfmt.Summarize(clusteredReport())
	r := s.ClusteredRate()
	if r == nil {
		t.Fatal("no clustered rate")
	}
	if math.Abs(r.Mean-7.0/12) > 1e-12 || math.Abs(r.SE-math.Sqrt(55.0/1296)) > 1e-12 ||
		math.Abs(r.DesignEffect-176.0/105) > 1e-12 || r.Clusters != 5 || r.N != 12 {
		t.Errorf("clustered rate %+v", r)
	}
	var text bytes.Buffer
	_ = reportfmt.WriteText(&text, s, reportfmt.TextOptions{})
	if !strings.Contains(text.String(), "clustered SE 20.6 points over 5 clusters (CR1), design effect 1.68") {
		t.Errorf("terminal report lacks the clustered line:\n%s", text.String())
	}
	var out bytes.Buffer
	j := reportfmt.NewJSON(&out, "clustered", reportfmt.JSONOptions{})
	for _, c := range clusteredReport().Cases {
		_ = j.Add(c)
	}
	if err := j.Finish(s); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ClusteredSE *struct {
			SE           float64 `json:"clustered_se"`
			DesignEffect float64 `json:"design_effect"`
			Low, High    float64
		} `json:"clustered_se"`
		Splits []struct {
			Split       string
			ClusteredSE *struct {
				SE float64 `json:"clustered_se"`
			} `json:"clustered_se"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || doc.ClusteredSE == nil || doc.ClusteredSE.SE != r.SE || doc.ClusteredSE.Low >= doc.ClusteredSE.High {
		t.Fatalf("JSON clustered_se: %v %s", err, out.String())
	}
	// dev holds all 12 measured cases; holdout only the flaky one.
	if len(doc.Splits) != 2 || doc.Splits[0].ClusteredSE == nil || doc.Splits[0].ClusteredSE.SE != r.SE || doc.Splits[1].ClusteredSE != nil {
		t.Errorf("per-split clustered_se: %s", out.String())
	}
	if plain := reportfmt.Summarize(proctor.NewReport("x")); plain.ClusteredRate() != nil {
		t.Error("a report with no clusters has no clustered rate")
	}
}

func TestHTMLCarriesClusteredRate(t *testing.T) {
	var b bytes.Buffer
	if err := reportfmt.WriteHTML(&b, clusteredReport(), reportfmt.HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`"clustered_se":{"mean":%v`, 7.0/12)
	if !strings.Contains(b.String(), want) || !strings.Contains(b.String(), `id: "clustered-se"`) {
		t.Errorf("HTML report lacks the clustered rate %s", want)
	}
}
