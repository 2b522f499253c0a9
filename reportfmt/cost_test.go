package reportfmt_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

// TestUnknownCostNeverZero checks that a judge whose calls' cost is not
// known is shown as unknown in every format, never as $0.0000, and that a
// partly priced judge says both.
func TestUnknownCostNeverZero(t *testing.T) {
	tests := []struct {
		name  string
		stats proctor.JudgeStats
		want  string // in the terminal, Markdown, JUnit and HTML reports
	}{
		{"unpriced", proctor.JudgeStats{Name: "j", Calls: 3, UnpricedCalls: 3}, "cost unknown"},
		{"partly priced", proctor.JudgeStats{Name: "j", Calls: 4, UnpricedCalls: 1, CostUSD: 0.5}, "0.5000 + unknown (1 of 4 calls unpriced)"},
		{"free", proctor.JudgeStats{Name: "j", Calls: 2}, "0.0000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := proctor.NewReport("s")
			r.Add(proctor.CaseResult{ID: "a", Verdict: proctor.StatusPassed, Attempts: []proctor.AttemptResult{{Verdict: proctor.StatusPassed}}})
			r.Judges = []proctor.JudgeStats{tt.stats}
			s := reportfmt.Summarize(r)
			outs := map[string]*bytes.Buffer{"terminal": {}, "markdown": {}, "junit": {}, "json": {}}
			if err := reportfmt.WriteText(outs["terminal"], s, reportfmt.TextOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := reportfmt.WriteMarkdown(outs["markdown"], s, reportfmt.MarkdownOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := reportfmt.WriteJUnit(outs["junit"], r, reportfmt.JUnitOptions{}); err != nil {
				t.Fatal(err)
			}
			j := reportfmt.NewJSON(outs["json"], "s", reportfmt.JSONOptions{})
			if err := j.Finish(s); err != nil {
				t.Fatal(err)
			}
			unknown := tt.stats.UnpricedCalls > 0
			for name, b := range outs {
				if name == "json" {
					continue
				}
				if !strings.Contains(b.String(), tt.want) {
					t.Errorf("%s report lacks %q:\n%s", name, tt.want, b)
				}
				if unknown && tt.stats.CostUSD == 0 && strings.Contains(b.String(), "0.0000") {
					t.Errorf("%s report shows an unknown cost as 0.0000:\n%s", name, b)
				}
			}
			var h bytes.Buffer
			if err := reportfmt.WriteHTML(&h, r, reportfmt.HTMLOptions{}); err != nil {
				t.Fatal(err)
			}
			// The page's script writes the cell from these two fields.
			if unknown && (!strings.Contains(h.String(), `"unpriced_calls":`) || !strings.Contains(h.String(), `"cost unknown"`)) {
				t.Errorf("HTML report carries no unpriced_calls or no costText")
			}
			var doc struct {
				Judges []map[string]any `json:"judges"`
			}
			if err := json.Unmarshal(outs["json"].Bytes(), &doc); err != nil || len(doc.Judges) != 1 {
				t.Fatalf("JSON report %s: %v", outs["json"], err)
			}
			js := doc.Judges[0]
			_, hasCost := js["cost_usd"]
			if unknown && (js["unpriced_calls"] != float64(tt.stats.UnpricedCalls) || (tt.stats.CostUSD == 0 && hasCost)) {
				t.Errorf("JSON judge %v: want unpriced_calls %d and no cost_usd when none is known", js, tt.stats.UnpricedCalls)
			}
			if !unknown && js["unpriced_calls"] != nil {
				t.Errorf("JSON judge %v: unpriced_calls on a priced judge", js)
			}
		})
	}
}
