package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestBinaryJudgeMisconfigured: a judge whose endpoint refuses the key or
// does not know the model ends proctor run and proctor grade at once,
// exit 2, with a message naming the judge, after at most one call per
// case in flight (the concurrency).
func TestBinaryJudgeMisconfigured(t *testing.T) {
	for _, status := range []int{401, 404} {
		var n atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			http.Error(w, `{"error":{"message":"The model m does not exist","code":"model_not_found"}}`, status)
		}))
		cfg := writeFile(t, "c.json", fmt.Sprintf(`{"judges":[{"name":"typo-judge","family":"f","model":"m","base_url":%q,"structured":"off"}]}`, srv.URL+"/v1"))
		var suite, lines strings.Builder
		suite.WriteString("name: s\ncases:\n")
		for i := range 10 {
			fmt.Fprintf(&suite, "  - {id: c%d, outputs: [answer %d], checks: [{type: llm_judge, rubric: polite}]}\n", i, i)
			fmt.Fprintf(&lines, `{"id":"c%d","output":"answer %d"}`+"\n", i, i)
		}
		runs := [][]string{
			{"run", "--config", cfg, "--concurrency", "4", writeSuite(t, "s.yaml", suite.String())},
			{"grade", "--config", cfg, "--concurrency", "4", "--grader", `{"type":"llm_judge","rubric":"polite"}`},
		}
		for _, args := range runs {
			t.Run(fmt.Sprintf("%d/%s", status, args[0]), func(t *testing.T) {
				n.Store(0)
				code, _, stderr := bin(t, lines.String(), nil, args...)
				if code != exitUsage {
					t.Errorf("exit %d, want 2\n%s", code, stderr)
				}
				if !strings.Contains(stderr, "judge typo-judge is misconfigured") || !strings.Contains(stderr, fmt.Sprint(status)) {
					t.Errorf("standard error does not name the judge and status: %s", stderr)
				}
				if got := n.Load(); got > 4 || got < 1 {
					t.Errorf("%d requests, want 1 to 4 (the calls in flight)", got)
				}
			})
		}
		srv.Close()
	}
}

// TestBinaryPanelCannotBeSeated: judges of one family warn at load, and
// the report's caveats say the panel cannot be seated.
func TestBinaryPanelCannotBeSeated(t *testing.T) {
	judge := func(name string) string {
		return fmt.Sprintf(`{"name":%q,"family":"openai","type":"scripted","replies":[{"reply":{"verdict":"pass","confidence":"low"}}]}`, name)
	}
	cfg := writeFile(t, "c.json", `{"judges":[`+judge("a")+","+judge("b")+","+judge("c")+`]}`)
	suite := writeSuite(t, "s.yaml", "name: s\ncases:\n  - {id: a, outputs: [hi], checks: [{type: llm_judge, rubric: polite}]}\n")
	_, stdout, stderr := bin(t, "", nil, "run", "--config", cfg, suite)
	if !strings.Contains(stderr, "warning: judge panel cannot be seated") {
		t.Errorf("standard error has no warning: %s", stderr)
	}
	if !strings.Contains(stdout, "cannot be seated") {
		t.Errorf("the report's caveats do not say so:\n%s", stdout)
	}
	_, _, stderr = bin(t, `{"id":"a","output":"hi"}`+"\n", nil, "grade", "--config", cfg, "--grader", `{"type":"llm_judge","rubric":"polite"}`)
	if !strings.Contains(stderr, "warning: judge panel cannot be seated") {
		t.Errorf("grade: standard error has no warning: %s", stderr)
	}
}
