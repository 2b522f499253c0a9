package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/google/go-cmp/cmp"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/golden/<test name>, rewriting it with
// -update.
func golden(t *testing.T, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", strings.ReplaceAll(t.Name(), "/", "_")+".txt")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("output differs from %s (-want +got):\n%s", path, d)
	}
}

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestGradeGolden(t *testing.T) {
	input := strings.Join([]string{
		`{"id":"a","output":"The capital is Paris."}`,
		`{"id":"b","output":"Rome"}`,
		``,
		`{"id":"c","output":"x",`,
		`{not json`,
		`{"id":"d"}`,
		`{"id":"e","output":null}`,
		`   {"id":"f","output":"paris"}   `,
		`{"id":"g\"q","output":"<Paris & co>"}`,
	}, "\n")
	tests := []struct {
		name     string
		args     []string
		input    string
		wantCode int
	}{
		{"contains", []string{"grade", "--grader", `{"type":"contains","value":"Paris"}`}, input, exitFailed},
		{"contains_ignore_case", []string{"grade", "--grader", `{"type":"contains","value":"paris","case_sensitive":false,"name":"paris"}`}, input, exitFailed},
		{"per_line", []string{"grade"}, strings.Join([]string{
			`{"id":"a","output":"x","grader":{"type":"exact_match","expected":"X"}}`,
			`{"id":"b","output":"y","grader":{"type":"exact_match","expected":"x"}}`,
			`{"id":"c","output":"y","grader":{"type":"nope"}}`,
			`{"id":"d","output":"y"}`,
			`{"id":"e","output":"{\"b\":[1,2],\"a\":1}","expected":{"a":1,"b":[1,2]},"grader":{"type":"exact_match"}}`,
			`{"id":"f","output":"  x ","grader":{ "expected" : "X", "type" : "exact_match" }}`,
		}, "\n"), exitFailed},
		{"exact_no_expected", []string{"grade", "--grader", `{"type":"exact_match"}`}, `{"id":"a","output":"x"}` + "\n" + `{"id":"b","output":"x","expected":"X"}`, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tt.input, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.wantCode, errs)
			}
			for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				var m map[string]any
				if err := json.Unmarshal([]byte(l), &m); err != nil {
					t.Errorf("line %d is not JSON: %q", i, l)
				}
			}
			golden(t, []byte(out))
		})
	}
}

func TestGradeSpecErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // stderr must hold it
	}{
		{"unknown type", []string{"grade", "--grader", `{"type":"nope"}`}, "nope"},
		{"unknown option", []string{"grade", "--grader", `{"type":"contains","value":"x","bogus_option":1}`}, "bogus_option"},
		{"ill-typed option", []string{"grade", "--grader", `{"type":"contains","value":5}`}, `"value"`},
		{"both flags", []string{"grade", "--grader", `{}`, "--grader-file", "x.json"}, "not both"},
		{"missing file", []string{"grade", "--grader-file", "testdata/none.json"}, "none.json"},
		{"bad flag", []string{"grade", "--nope"}, "nope"},
		{"two inputs", []string{"grade", "a", "b"}, "at most one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(t, `{"output":"x"}`+"\n", tt.args...)
			if code != exitUsage || out != "" || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, no output, stderr naming %q", code, out, errs, tt.want)
			}
		})
	}
}

func TestGradeGraderFileYAML(t *testing.T) {
	dir := t.TempDir()
	yml := filepath.Join(dir, "g.yaml")
	if err := os.WriteFile(yml, []byte("type: contains\nvalues: [alpha, beta]\nmode: any\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, `{"id":"1","output":"only beta"}`+"\n"+`{"id":"2","output":"gamma"}`+"\n", "grade", "--grader-file", yml)
	if code != exitFailed || !strings.Contains(out, `"id":"1","grader":"contains","status":"passed"`) || !strings.Contains(out, `"id":"2","grader":"contains","status":"failed"`) {
		t.Errorf("exit %d, out %q, err %q", code, out, errs)
	}
	bad := filepath.Join(dir, "bad.yml")
	if err := os.WriteFile(bad, []byte("type: contains\nvalue: a\nvalue: b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCLI(t, "", "grade", "--grader-file", bad)
	if code != exitUsage || !strings.Contains(errs, "line 3") {
		t.Errorf("duplicate YAML key: exit %d, stderr %q; want 2 naming line 3", code, errs)
	}
}

func TestGradeLongLine(t *testing.T) {
	long := `{"id":"big","output":"` + strings.Repeat("x", 5000) + `"}`
	in := `{"id":"a","output":"x"}` + "\n" + long + "\n" + `{"id":"b","output":"x"}` + "\n"
	code, out, _ := runCLI(t, in, "grade", "--max-line", "1000", "--grader", `{"type":"contains","value":"x"}`)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || len(lines) != 3 {
		t.Fatalf("exit %d, %d lines, want 0 and 3:\n%s", code, len(lines), out)
	}
	if !strings.Contains(lines[1], `"id":"big"`) || !strings.Contains(lines[1], `"not_graded"`) || !strings.Contains(lines[1], "longer than 1000") {
		t.Errorf("long line result %s: want not_graded with its id and the limit", lines[1])
	}
	if !strings.Contains(lines[2], `"id":"b"`) || !strings.Contains(lines[2], `"passed"`) {
		t.Errorf("the line after a long one: got %s, want b passed", lines[2])
	}
	// No trailing newline: the last line is still read.
	code, out, _ = runCLI(t, `{"id":"z","output":"x"}`, "grade", "--grader", `{"type":"contains","value":"x"}`)
	if code != exitOK || !strings.Contains(out, `"id":"z"`) {
		t.Errorf("last line without newline: exit %d, %q", code, out)
	}
}

func TestGradeOrderAcrossBatches(t *testing.T) {
	var in strings.Builder
	const n = 3000
	for i := range n {
		out := "miss"
		if i%3 == 0 {
			out = "hit"
		}
		fmt.Fprintf(&in, `{"id":"%d","output":"%s"}`+"\n", i, out)
	}
	code, out, _ := runCLI(t, in.String(), "grade", "--concurrency", "4", "--grader", `{"type":"contains","value":"hit"}`)
	if code != exitFailed {
		t.Errorf("exit %d, want 1", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != n {
		t.Fatalf("%d results, want %d", len(lines), n)
	}
	for i, l := range lines {
		var r struct{ ID, Status string }
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.ID != fmt.Sprint(i) {
			t.Fatalf("result %d is %q: want id %d, in input order", i, l, i)
		}
		if want := map[bool]string{true: "passed", false: "failed"}[i%3 == 0]; r.Status != want {
			t.Fatalf("result %d status %s, want %s", i, r.Status, want)
		}
	}
}

func TestGradeCancel(t *testing.T) {
	base := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"grade", "--grader", `{"type":"contains","value":"x"}`}, strings.NewReader(strings.Repeat(`{"output":"x"}`+"\n", 1000)), &out, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), "canceled") {
		t.Errorf("exit %d, stderr %q; want 2 saying the run was cancelled", code, errb.String())
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left, want %d", runtime.NumGoroutine(), base)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestSpecCache(t *testing.T) {
	var builds atomic.Int32
	comp := proctor.NewCompiler()
	comp.Register("counted", func(o *proctor.SpecOptions) (proctor.Grader, error) {
		builds.Add(1)
		v := o.String("v", "")
		return proctor.Func(o.Name(), func(context.Context, *proctor.Sample) proctor.Grade { return proctor.Pass(v) }), o.Err()
	})
	c := newSpecCache(2, "test", comp, allowAll)
	defer c.closeAll()
	for range 5 {
		cc, err := c.get(context.Background(), []byte(`{"type":"counted","v":"a"}`))
		if err != nil {
			t.Fatal(err)
		}
		cc.release()
	}
	if n := builds.Load(); n != 1 {
		t.Errorf("compiled %d times, want once for one repeated spec", n)
	}
	for i := range 10 {
		if cc, err := c.get(context.Background(), []byte(fmt.Sprintf(`{"type":"counted","v":"%d"}`, i))); err == nil {
			cc.release()
		}
	}
	if len(c.m) > 2 {
		t.Errorf("cache holds %d entries, want at most 2", len(c.m))
	}
	_, err := c.get(context.Background(), []byte(`{"type":"counted","bad":1}`))
	_, err2 := c.get(context.Background(), []byte(`{"type":"counted","bad":1}`))
	if err == nil || err2 == nil {
		t.Errorf("a bad spec must stay an error when cached: %v, %v", err, err2)
	}
}

// lineSource generates n input lines of about size bytes on the fly,
// checking the heap as it goes, so the test can tell whether grading keeps
// memory flat while the input is far larger than any buffer.
type lineSource struct {
	n, size, i int
	pending    []byte
	peak       uint64
}

func (r *lineSource) Read(p []byte) (int, error) {
	if len(r.pending) == 0 {
		if r.i == r.n {
			return 0, io.EOF
		}
		if r.i%2000 == 0 {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			r.peak = max(r.peak, ms.HeapInuse)
		}
		r.pending = fmt.Appendf(nil, `{"id":"%d","output":"%s Paris"}`+"\n", r.i, strings.Repeat("word ", r.size/5))
		r.i++
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

func TestGradeMemoryFlat(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("streams 100 MB")
	}
	src := &lineSource{n: 50000, size: 2000}
	var out countWriter
	code := run(context.Background(), []string{"grade", "--grader", `{"type":"contains","value":"Paris"}`}, src, &out, io.Discard)
	if code != exitOK || out.lines != src.n {
		t.Fatalf("exit %d, %d results; want 0 and %d", code, out.lines, src.n)
	}
	t.Logf("heap in use peaked at %.1f MiB", float64(src.peak)/(1<<20))
	if src.peak > 48<<20 {
		t.Errorf("heap in use peaked at %d MiB while streaming 100 MB: want it flat (under 48 MiB)", src.peak>>20)
	}
}

type countWriter struct{ lines int }

func (w *countWriter) Write(p []byte) (int, error) {
	w.lines += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}

func TestGradeMaxLineIsExclusiveOfNewline(t *testing.T) {
	line := `{"id":"a","output":"x"}` // 23 bytes
	code, out, _ := runCLI(t, line+"\n"+line+"\r\n", "grade", "--max-line", fmt.Sprint(len(line)), "--grader", `{"type":"contains","value":"x"}`)
	if code != exitOK || strings.Count(out, `"passed"`) != 1 || strings.Count(out, `"not_graded"`) != 1 {
		t.Errorf("exit %d:\n%s\nwant the line of exactly --max-line bytes graded and the one with a CR over the limit", code, out)
	}
}
