package reportfmt

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// The judges' agreement with the final verdicts and the panels' alpha are
// shown in the terminal and Markdown reports and kept in the JSON one.
func TestJudgeAgreementShown(t *testing.T) {
	alpha := 0.5
	r := proctor.NewReport("s")
	r.Judges = append(r.Judges, proctor.JudgeStats{Name: "j1", Calls: 4, Agreed: 3, Disagreed: 1}, proctor.JudgeStats{Name: "j2", Calls: 1})
	r.Panels = &proctor.PanelStats{Convened: 2, Paired: 2, Alpha: &alpha, Coincidences: [2][2]float64{{1, 1}, {1, 1}}}
	s := Summarize(r)
	var text, md, js bytes.Buffer
	if err := WriteText(&text, s, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"j1: 4 calls, 0 cache hits, 0 tokens, $0.0000, agreed with 75% of 4 verdicts\n",
		"panels: 2 convened, Krippendorff's alpha 0.500 over the 2 with two or more votes"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("terminal report lacks %q:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), "j2: 1 calls, 0 cache hits, 0 tokens, $0.0000, agreed") {
		t.Errorf("a judge with no decided verdict shows an agreement:\n%s", text.String())
	}
	if err := WriteMarkdown(&md, s, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "Krippendorff") {
		t.Errorf("markdown lacks the panels line:\n%s", md.String())
	}
	j := NewJSON(&js, "s", JSONOptions{})
	if err := j.Finish(s); err != nil {
		t.Fatal(err)
	}
	var back proctor.Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Panels == nil || back.Panels.Alpha == nil || *back.Panels.Alpha != 0.5 || back.Judges[0].Agreed != 3 {
		t.Errorf("JSON report lost the agreement: %s", js.String())
	}
	// A report without panels or agreement writes neither key (older
	// readers see the same JSON as before).
	var plain bytes.Buffer
	j = NewJSON(&plain, "s", JSONOptions{})
	j.Finish(NewSummary("s"))
	if strings.Contains(plain.String(), "panels") || strings.Contains(plain.String(), "agreed") {
		t.Errorf("empty report mentions panels or agreement: %s", plain.String())
	}
}
