package reportfmt_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

// splitFixture is the fixture with its cases spread over a dev and a
// holdout split, one case left with none.
func splitFixture() *proctor.Report {
	r := fixture()
	for i := range r.Cases {
		switch {
		case i == 0:
		case i%2 == 0:
			r.Cases[i].Split = "holdout"
		default:
			r.Cases[i].Split = "dev"
		}
	}
	return r
}

func TestSplits(t *testing.T) {
	tests := []struct {
		name   string
		splits []string // per case of fixture(), in order
		want   []reportfmt.SplitTotals
		why    string
	}{
		{"none", nil, nil, "an unsplit run shows no breakdown"},
		{"all one split", []string{"dev", "dev", "dev", "dev", "dev", "dev", "dev", "dev"},
			[]reportfmt.SplitTotals{{Split: "dev", Totals: proctor.Totals{Passed: 2, Failed: 2, Flaky: 1, NotGraded: 3}}}, "a named split is shown even alone"},
		{"dev, holdout and none", []string{"", "dev", "holdout", "dev", "holdout", "dev", "holdout", "dev"},
			[]reportfmt.SplitTotals{
				{Split: "", Totals: proctor.Totals{Passed: 1}},
				{Split: "dev", Totals: proctor.Totals{Passed: 1, Failed: 1, NotGraded: 2}},
				{Split: "holdout", Totals: proctor.Totals{Failed: 1, Flaky: 1, NotGraded: 1}},
			}, "by name, the unsplit cases first; each split's counts add to the run's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := fixture()
			for i, sp := range tt.splits {
				r.Cases[i].Split = sp
			}
			got := reportfmt.Summarize(r).Splits()
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Splits (-want +got) (%s):\n%s", tt.why, d)
			}
		})
	}
}

func TestWriteTextSplits(t *testing.T) {
	var b bytes.Buffer
	if err := reportfmt.WriteText(&b, reportfmt.Summarize(splitFixture()), reportfmt.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, b.Bytes())
}

func TestWriteMarkdownSplits(t *testing.T) {
	var b bytes.Buffer
	if err := reportfmt.WriteMarkdown(&b, reportfmt.Summarize(splitFixture()), reportfmt.MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, b.Bytes())
}

// TestJSONSplits checks that the streamed report carries the per-split
// counts beside the report's own fields, and still reads as a Report.
func TestJSONSplits(t *testing.T) {
	rep := splitFixture()
	var b bytes.Buffer
	j := reportfmt.NewJSON(&b, rep.Suite, reportfmt.JSONOptions{})
	s := reportfmt.NewSummary(rep.Suite)
	for _, c := range rep.Cases {
		if err := j.Add(c); err != nil {
			t.Fatal(err)
		}
		s.Add(c)
	}
	if err := j.Finish(s); err != nil {
		t.Fatal(err)
	}
	var wire struct {
		Splits []reportfmt.SplitTotals `json:"splits"`
	}
	if err := json.Unmarshal(b.Bytes(), &wire); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(s.Splits(), wire.Splits); d != "" || len(wire.Splits) != 3 {
		t.Errorf("splits field (-want +got):\n%s", d)
	}
	var back proctor.Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("a report with splits does not read as a Report: %v", err)
	}
	if back.Totals != rep.Totals || len(back.Cases) != len(rep.Cases) || back.Cases[2].Split != "holdout" {
		t.Errorf("read back totals %+v, %d cases; want %+v, %d, with each case's split", back.Totals, len(back.Cases), rep.Totals, len(rep.Cases))
	}
	// Summarizing the read-back report gives the same breakdown: the
	// splits are counted from the cases, not trusted from the field.
	if d := cmp.Diff(s.Splits(), reportfmt.Summarize(&back).Splits()); d != "" {
		t.Errorf("Summarize(read back).Splits (-want +got):\n%s", d)
	}
}
