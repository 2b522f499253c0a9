package reportfmt_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

// TestJSONNotHTMLEscaped: a JSON report keeps "<", ">" and "&" as the
// text has them (encoding/json would write \u003c), in the suite name,
// reasons, evidence, outputs and caveats, and still reads back.
func TestJSONNotHTMLEscaped(t *testing.T) {
	out := "<b> & </b>"
	c := proctor.CaseResult{ID: "a<b", Verdict: proctor.StatusFailed, Attempts: []proctor.AttemptResult{{
		Verdict: proctor.StatusFailed,
		Grades:  []proctor.Grade{{Grader: "g", Status: proctor.StatusFailed, Reason: "score < 0.5 & > 0", Evidence: map[string]string{"seen": "<x>"}}},
		Output:  &out,
	}}}
	var buf bytes.Buffer
	j := reportfmt.NewJSON(&buf, "s<&>", reportfmt.JSONOptions{})
	if err := j.Add(c); err != nil {
		t.Fatal(err)
	}
	sum := reportfmt.NewSummary("s<&>")
	sum.Add(c)
	sum.AddCaveat("judge a > judge b")
	if err := j.Finish(sum); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	if strings.Contains(got, `\u003c`) || strings.Contains(got, `\u003e`) || strings.Contains(got, `\u0026`) {
		t.Errorf("report escapes HTML characters:\n%s", got)
	}
	for _, w := range []string{`"s<&>"`, `"score < 0.5 & > 0"`, `"<x>"`, `"<b> & </b>"`, `"judge a > judge b"`} {
		if !strings.Contains(got, w) {
			t.Errorf("report lacks %s:\n%s", w, got)
		}
	}
	var r proctor.Report
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil || r.Suite != "s<&>" || len(r.Cases) != 1 {
		t.Errorf("report does not read back: %v %+v", err, r)
	}
	b, err := r.MarshalJSON()
	if err != nil || bytes.Contains(b, []byte(`\u003c`)) {
		t.Errorf("Report.MarshalJSON escapes HTML: %s %v", b, err)
	}
}
