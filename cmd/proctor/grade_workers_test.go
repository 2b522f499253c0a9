package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// siblingsSource is a python grader that scores the number of python
// processes sharing its parent (the live workers of this test process),
// in thousandths.
const siblingsSource = `import os
def grade(sample, item):  # %d
    me, n = os.getppid(), 0
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            with open('/proc/%%s/stat' %% p) as f:
                st = f.read()
        except OSError:
            continue
        if int(st[st.rindex(')') + 2:].split()[1]) == me and 'python' in st[:st.rindex(')')]:
            n += 1
    return n / 1000.0
`

// TestGradeLiveWorkersBounded: twelve lines with twelve different python
// specs leave at most liveWorkerSpecs (plus the one grading) workers
// running, not twelve: the workers of the least recently used spec are
// closed.
func TestGradeLiveWorkersBounded(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH")
	}
	var in strings.Builder
	const n = 12
	for i := range n {
		spec, _ := json.Marshal(map[string]any{"type": "python", "source": fmt.Sprintf(siblingsSource, i), "pass_threshold": 0})
		fmt.Fprintf(&in, `{"id":"%d","output":"x","grader":%s}`+"\n", i, spec)
	}
	_, out, errOut := runCLI(t, in.String(), "grade", "--concurrency", "1")
	peak := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			Status   string
			Evidence struct{ Score float64 }
			Reason   string
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Status != "passed" {
			t.Fatalf("result %q (stderr %q): want passed", l, errOut)
		}
		peak = max(peak, int(r.Evidence.Score*1000+0.5))
	}
	if peak > liveWorkerSpecs+1 {
		t.Errorf("%d python workers ran at once over %d per-line specs, want at most %d", peak, n, liveWorkerSpecs+1)
	}
	if peak < 2 {
		t.Errorf("at most %d workers seen: the count does not work", peak)
	}
}
