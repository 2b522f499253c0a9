package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/suite"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// TestShardAuto: --shard auto turns the variables each engine sets into
// shard I/N, 1-based, and refuses what is missing or out of range.
func TestShardAuto(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want suite.Shard
		from string
		err  string // a part of the error; "" for none
	}{
		{"explicit", map[string]string{"PROCTOR_SHARD": "3/8"}, suite.Shard{I: 3, N: 8}, "PROCTOR_SHARD", ""},
		{"explicit wins", map[string]string{"PROCTOR_SHARD": "1/2", "JOB_COMPLETION_INDEX": "3", "PROCTOR_SHARD_COUNT": "4"}, suite.Shard{I: 1, N: 2}, "PROCTOR_SHARD", ""},
		{"explicit bad", map[string]string{"PROCTOR_SHARD": "0/2"}, suite.Shard{}, "", "PROCTOR_SHARD"},
		{"k8s first", map[string]string{"JOB_COMPLETION_INDEX": "0", "PROCTOR_SHARD_COUNT": "4"}, suite.Shard{I: 1, N: 4}, "JOB_COMPLETION_INDEX and PROCTOR_SHARD_COUNT", ""},
		{"k8s last", map[string]string{"JOB_COMPLETION_INDEX": "3", "PROCTOR_SHARD_COUNT": "4"}, suite.Shard{I: 4, N: 4}, "JOB_COMPLETION_INDEX and PROCTOR_SHARD_COUNT", ""},
		{"k8s past the end", map[string]string{"JOB_COMPLETION_INDEX": "4", "PROCTOR_SHARD_COUNT": "4"}, suite.Shard{}, "", "from 0 to 3"},
		{"k8s negative", map[string]string{"JOB_COMPLETION_INDEX": "-1", "PROCTOR_SHARD_COUNT": "4"}, suite.Shard{}, "", "from 0 to 3"},
		{"k8s without count", map[string]string{"JOB_COMPLETION_INDEX": "2"}, suite.Shard{}, "", "PROCTOR_SHARD_COUNT is not"},
		{"count without index", map[string]string{"PROCTOR_SHARD_COUNT": "4"}, suite.Shard{}, "", "JOB_COMPLETION_INDEX is not"},
		{"zero count", map[string]string{"JOB_COMPLETION_INDEX": "0", "PROCTOR_SHARD_COUNT": "0"}, suite.Shard{}, "", ">= 1"},
		{"not a number", map[string]string{"JOB_COMPLETION_INDEX": "two", "PROCTOR_SHARD_COUNT": "4"}, suite.Shard{}, "", `"two"`},
		{"gitlab 1-based", map[string]string{"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "5"}, suite.Shard{I: 2, N: 5}, "CI_NODE_INDEX and CI_NODE_TOTAL", ""},
		{"gitlab zero", map[string]string{"CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "5"}, suite.Shard{}, "", "from 1 to 5"},
		{"circleci", map[string]string{"CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "3"}, suite.Shard{I: 2, N: 3}, "CIRCLE_NODE_INDEX and CIRCLE_NODE_TOTAL", ""},
		{"buildkite", map[string]string{"BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "2"}, suite.Shard{I: 1, N: 2}, "BUILDKITE_PARALLEL_JOB and BUILDKITE_PARALLEL_JOB_COUNT", ""},
		{"nothing", map[string]string{"HOME": "/root"}, suite.Shard{}, "", "no shard in the environment: set PROCTOR_SHARD=I/N"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, from, err := parseShardFlag("auto", envOf(tt.env))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want || from != tt.from {
				t.Fatalf("= %+v, %q, %v; want %+v, %q", got, from, err, tt.want, tt.from)
			}
		})
	}
}

// TestShardAutoCoversEveryCase: the shards an Indexed Job of N pods selects
// through --shard auto hold every case of a suite exactly once.
func TestShardAutoCoversEveryCase(t *testing.T) {
	const n = 4
	ids := make([]string, 200)
	for i := range ids {
		ids[i] = "case-" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('0'+i%10)) + strings.Repeat("y", i/26)
	}
	held := map[string]int{}
	for idx := range n {
		s, _, err := parseShardFlag("auto", envOf(map[string]string{"JOB_COMPLETION_INDEX": string(rune('0' + idx)), "PROCTOR_SHARD_COUNT": "4"}))
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if s.Holds(id) {
				held[id]++
			}
		}
	}
	for _, id := range ids {
		if held[id] != 1 {
			t.Errorf("case %s is held by %d shards, want 1", id, held[id])
		}
	}
}

func TestShardFlag(t *testing.T) {
	if s, _, err := parseShardFlag("", envOf(nil)); err != nil || s != (suite.Shard{}) {
		t.Errorf(`"" = %+v, %v; want the whole suite`, s, err)
	}
	if s, _, err := parseShardFlag("2/3", envOf(map[string]string{"PROCTOR_SHARD": "1/2"})); err != nil || s != (suite.Shard{I: 2, N: 3}) {
		t.Errorf(`"2/3" = %+v, %v; the flag's value, not the environment's`, s, err)
	}
	if _, _, err := parseShardFlag("3/2", envOf(nil)); err == nil {
		t.Error(`"3/2" accepted`)
	}
}

// clearShardEnv unsets, for the test, every variable --shard auto reads.
func clearShardEnv(t *testing.T) {
	for _, e := range shardEnvs {
		t.Setenv(e.index, "")
		t.Setenv(e.count, "")
	}
	t.Setenv("PROCTOR_SHARD", "")
}

// writeShardSuite writes a suite of n cases with recorded outputs, every
// failEvery-th of which fails (none when 0), and returns its path.
func writeShardSuite(t *testing.T, n, failEvery int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("name: sharded\ncases:\n")
	for i := range n {
		out := "ok"
		if failEvery > 0 && i%failEvery == 0 {
			out = "no"
		}
		fmt.Fprintf(&b, "  - {id: case-%d, outputs: [%s], checks: [{type: contains, value: ok}]}\n", i, out)
	}
	path := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunShardAuto runs proctor run --shard auto through the main entry:
// the shard comes from the environment, and without one the run stops
// with exit 2 and says what to set.
func TestRunShardAuto(t *testing.T) {
	clearShardEnv(t)
	path := writeShardSuite(t, 12, 0)
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"run", path, "--shard", "auto"}, strings.NewReader(""), &out, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), "--shard auto: no shard in the environment") {
		t.Fatalf("no environment: exit %d, stderr %q", code, errb.String())
	}
	t.Setenv("JOB_COMPLETION_INDEX", "1")
	t.Setenv("PROCTOR_SHARD_COUNT", "3")
	out.Reset()
	errb.Reset()
	code = run(context.Background(), []string{"run", path, "--shard", "auto"}, strings.NewReader(""), &out, &errb)
	if code != exitOK || !strings.Contains(errb.String(), "shard 2/3: ") {
		t.Fatalf("Indexed Job pod 1 of 3: exit %d, stderr %q", code, errb.String())
	}
}

// TestShardAutoMergeEqualsWholeRun does what examples/sharding does: N
// pods of an Indexed Job each run --shard auto and write a report, the
// merge step joins them, and the merged report holds every case once with
// the verdict the whole run gives it.
func TestShardAutoMergeEqualsWholeRun(t *testing.T) {
	clearShardEnv(t)
	dir := t.TempDir()
	path := writeShardSuite(t, 30, 4)
	verdicts := func(file string) map[string]string {
		t.Helper()
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Cases []struct{ ID, Verdict string }
		}
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, c := range r.Cases {
			if _, dup := m[c.ID]; dup {
				t.Errorf("%s: case %s twice", file, c.ID)
			}
			m[c.ID] = c.Verdict
		}
		return m
	}
	runQuiet := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
		return code, out.String() + errb.String()
	}
	whole := filepath.Join(dir, "whole.json")
	if code, msg := runQuiet("run", path, "--out", whole); code != exitFailed {
		t.Fatalf("whole run: exit %d: %s", code, msg)
	}
	const pods = 3
	t.Setenv("PROCTOR_SHARD_COUNT", strconv.Itoa(pods))
	shards := []string{"report", "merge"}
	for i := range pods {
		t.Setenv("JOB_COMPLETION_INDEX", strconv.Itoa(i))
		out := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		if code, msg := runQuiet("run", path, "--shard", "auto", "--out", out); code > exitFailed {
			t.Fatalf("pod %d: exit %d: %s", i, code, msg)
		}
		shards = append(shards, out)
	}
	var merged bytes.Buffer
	if code := run(context.Background(), shards, strings.NewReader(""), &merged, io.Discard); code != exitOK {
		t.Fatalf("report merge: exit %d", code)
	}
	mergedPath := filepath.Join(dir, "report.json")
	if err := os.WriteFile(mergedPath, merged.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	want, got := verdicts(whole), verdicts(mergedPath)
	if len(want) != 30 || !maps.Equal(got, want) {
		t.Errorf("merged shards %v\nwant the whole run's %v", got, want)
	}
}

// FuzzShardFromEnv: whatever the variables hold, --shard auto gives a
// valid shard or an error, never a panic or an index outside 1..N.
func FuzzShardFromEnv(f *testing.F) {
	f.Add("", "3", "4", "2", "5")
	f.Add("2/3", "", "", "", "")
	f.Add("", "-1", "4", "", "")
	f.Add("", "", "", "0", "9999999999999999999999")
	f.Fuzz(func(t *testing.T, explicit, k8sIndex, k8sCount, glIndex, glCount string) {
		env := map[string]string{"PROCTOR_SHARD": explicit, "JOB_COMPLETION_INDEX": k8sIndex, "PROCTOR_SHARD_COUNT": k8sCount,
			"CI_NODE_INDEX": glIndex, "CI_NODE_TOTAL": glCount}
		s, from, err := parseShardFlag("auto", envOf(env))
		if err != nil {
			return
		}
		if s.N < 1 || s.I < 1 || s.I > s.N || from == "" {
			t.Fatalf("shard %+v from %q: out of range", s, from)
		}
	})
}
