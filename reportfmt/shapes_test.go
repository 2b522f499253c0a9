package reportfmt_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
	"github.com/proctorhq/proctor/reports"
)

// TestWriteJSONIsTheStream: WriteJSON of a whole report writes the bytes
// the streamed writer wrote for it (TestJSONRoundTrip's golden file), and
// keeps the report's shard and suite digest unless the options set them.
func TestWriteJSONIsTheStream(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "TestJSONRoundTrip.golden"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := reportfmt.WriteJSON(&b, fixture(), reportfmt.JSONOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), b.String()); d != "" {
		t.Errorf("WriteJSON differs from the streamed report (-want +got):\n%s", d)
	}

	r := fixture()
	r.Shard = &proctor.ReportShard{I: 2, N: 3, Positions: []int{1, 4}}
	r.SuiteDigest = "sha256:report"
	for _, tc := range []struct {
		opts   reportfmt.JSONOptions
		digest string
		shard  int
	}{
		{reportfmt.JSONOptions{}, "sha256:report", 2},
		{reportfmt.JSONOptions{Shard: &proctor.ReportShard{I: 3, N: 3}, SuiteDigest: "sha256:opts"}, "sha256:opts", 3},
	} {
		b.Reset()
		if err := reportfmt.WriteJSON(&b, r, tc.opts); err != nil {
			t.Fatal(err)
		}
		var back proctor.Report
		if err := json.Unmarshal(b.Bytes(), &back); err != nil {
			t.Fatal(err)
		}
		if back.SuiteDigest != tc.digest || back.Shard == nil || back.Shard.I != tc.shard || len(back.Cases) != len(r.Cases) {
			t.Errorf("opts %+v: digest %q, shard %+v, %d cases; want %q, shard %d, %d cases",
				tc.opts, back.SuiteDigest, back.Shard, len(back.Cases), tc.digest, tc.shard, len(r.Cases))
		}
		// The shard and digest come before the cases, for a streaming reader.
		if s := b.String(); strings.Index(s, `"suite_digest"`) > strings.Index(s, `"cases"`) || strings.Index(s, `"shard"`) > strings.Index(s, `"cases"`) {
			t.Errorf("shard or digest written after the cases: %.120s", s)
		}
	}
}

// TestJUnitScratch: the default scratch (memory) and a scratch file give
// the same document, the file read back from its start.
func TestJUnitScratch(t *testing.T) {
	var mem bytes.Buffer
	if err := reportfmt.WriteJUnit(&mem, fixture(), reportfmt.JUnitOptions{}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "scratch.xml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var file bytes.Buffer
	j := reportfmt.NewJUnit(&file, "support-bot", reportfmt.JUnitOptions{Scratch: f})
	for _, c := range fixture().Cases {
		if err := j.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if file.Len() != 0 {
		t.Errorf("JUnit wrote %d bytes to w before Finish", file.Len())
	}
	if err := j.Finish(reportfmt.Summarize(fixture())); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(mem.String(), file.String()); d != "" || !strings.Contains(mem.String(), `<testcase name="order-status"`) {
		t.Errorf("scratch file document differs from the in-memory one (-mem +file):\n%s", d)
	}
}

// TestCompareHTMLAdd: WriteCompareHTML is NewCompareHTML, Add and Finish,
// so it keeps to MaxBytes as the streamed page does: past the bound the
// cases passed in both runs are counted, not embedded.
func TestCompareHTMLAdd(t *testing.T) {
	base, head := proctor.NewReport("s"), proctor.NewReport("s")
	for _, id := range []string{"a", "b", "c", "d"} {
		v := proctor.StatusPassed
		if id == "c" {
			v = proctor.StatusFailed
		}
		base.Add(proctor.CaseResult{ID: id, Verdict: proctor.StatusPassed})
		head.Add(proctor.CaseResult{ID: id, Verdict: v})
	}
	c := reports.Compare(base, head)
	var b bytes.Buffer
	if err := reportfmt.WriteCompareHTML(&b, base, head, c, reportfmt.HTMLOptions{MaxBytes: 1}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	// "a" fills the budget; "b" and "d" passed in both and are left out.
	for id, want := range map[string]bool{"a": true, "b": false, "c": true, "d": false} {
		if got := strings.Contains(page, `{"id":"`+id+`"`); got != want {
			t.Errorf("pair %q embedded = %v, want %v", id, got, want)
		}
	}
	if !strings.Contains(page, `"omitted_passed":2`) {
		t.Errorf("page does not count the 2 pairs left out")
	}

	p := reportfmt.NewCompareHTML(&b, "s", reportfmt.HTMLOptions{})
	if err := p.Add(nil, nil); err == nil {
		t.Error("Add(nil, nil): no error for a pair with no case")
	}
}
