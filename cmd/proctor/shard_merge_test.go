package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// shardReport is what the merge tests read back from a report.
type shardReport struct {
	Shard *struct {
		I, N      int
		Positions []int
	}
	SuiteDigest string `json:"suite_digest"`
	Totals      struct{ Passed, Failed int }
	Cases       []struct{ ID string }
	Caveats     []string
}

func readShardReport(t *testing.T, data []byte) shardReport {
	t.Helper()
	var r shardReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	return r
}

func (r shardReport) ids() []string {
	var ids []string
	for _, c := range r.Cases {
		ids = append(ids, c.ID)
	}
	return ids
}

// runShards runs path as n shards into dir and returns the report files.
func runShards(t *testing.T, path, dir string, n int) []string {
	t.Helper()
	var files []string
	for i := 1; i <= n; i++ {
		out := filepath.Join(dir, fmt.Sprintf("s%d.json", i))
		if code, _, errs := runCLI(t, "", "run", path, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", out); code > exitFailed {
			t.Fatalf("shard %d: exit %d: %s", i, code, errs)
		}
		files = append(files, out)
	}
	return files
}

// TestShardMergeOrderAndRecord: a shard report records its shard, its
// cases' places and the suite digest; the merge of every shard, given in
// any order, lists the cases in the whole run's order.
func TestShardMergeOrderAndRecord(t *testing.T) {
	clearShardEnv(t)
	dir := t.TempDir()
	path := writeShardSuite(t, 40, 3)
	whole := filepath.Join(dir, "whole.json")
	if code, _, errs := runCLI(t, "", "run", path, "--out", whole); code != exitFailed {
		t.Fatalf("whole run: exit %d: %s", code, errs)
	}
	data, _ := os.ReadFile(whole)
	w := readShardReport(t, data)
	files := runShards(t, path, dir, 3)
	var digest string
	for i, f := range files {
		data, _ := os.ReadFile(f)
		r := readShardReport(t, data)
		if r.Shard == nil || r.Shard.I != i+1 || r.Shard.N != 3 || len(r.Shard.Positions) != len(r.Cases) {
			t.Fatalf("%s records shard %+v for %d cases", f, r.Shard, len(r.Cases))
		}
		for k, p := range r.Shard.Positions {
			if w.Cases[p].ID != r.Cases[k].ID {
				t.Errorf("%s: case %s at position %d, the whole run has %s there", f, r.Cases[k].ID, p, w.Cases[p].ID)
			}
		}
		if !strings.HasPrefix(r.SuiteDigest, "sha256:") || (digest != "" && r.SuiteDigest != digest) {
			t.Errorf("%s: suite digest %q, the first shard's %q", f, r.SuiteDigest, digest)
		}
		digest = r.SuiteDigest
	}
	slices.Reverse(files)
	code, out, errs := runCLI(t, "", append([]string{"report", "merge"}, files...)...)
	if code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	m := readShardReport(t, []byte(out))
	if !slices.Equal(m.ids(), w.ids()) || m.Totals != w.Totals || m.Shard != nil || m.SuiteDigest != digest {
		t.Errorf("merged: %v %+v shard %v digest %q\nwhole: %v %+v", m.ids(), m.Totals, m.Shard, m.SuiteDigest, w.ids(), w.Totals)
	}
}

// TestShardMergeRefuses: an incomplete set, a repeated shard and shards of
// different suites are refused with the files named; --allow-partial
// merges an incomplete set and says so in the caveats.
func TestShardMergeRefuses(t *testing.T) {
	clearShardEnv(t)
	dir := t.TempDir()
	path := writeShardSuite(t, 30, 0)
	files := runShards(t, path, dir, 3)
	// The same suite name with one output changed: another suite.
	other := filepath.Join(t.TempDir(), "suite.yaml")
	src, _ := os.ReadFile(path)
	os.WriteFile(other, bytes.Replace(src, []byte("outputs: [ok]"), []byte("outputs: [ok!]"), 1), 0o644)
	odir := t.TempDir()
	ofiles := runShards(t, other, odir, 3)
	tests := []struct {
		name  string
		files []string
		want  []string // in stderr
	}{
		{"missing", files[:2], []string{"shards 3/3 missing"}},
		{"repeated", []string{files[0], files[1], files[1], files[2]}, []string{files[1] + " and " + files[1], "both shard 2/3"}},
		{"other suite", []string{files[0], files[1], ofiles[2]}, []string{ofiles[2], files[0], "suite digest", "different suites"}},
		{"whole and shard", []string{files[0], filepath.Join(dir, "whole.json")}, []string{"whole run"}},
	}
	if code, _, errs := runCLI(t, "", "run", path, "--out", filepath.Join(dir, "whole.json")); code > exitFailed {
		t.Fatal(errs)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(t, "", append([]string{"report", "merge"}, tt.files...)...)
			if code != exitUsage || out != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
		})
	}
	code, out, errs := runCLI(t, "", "report", "merge", "--allow-partial", files[0], files[2])
	if code != exitOK {
		t.Fatalf("--allow-partial: exit %d: %s", code, errs)
	}
	m := readShardReport(t, []byte(out))
	if !slices.ContainsFunc(m.Caveats, func(c string) bool { return strings.Contains(c, "partial merge: shards 2/3 of 3 missing") }) {
		t.Errorf("--allow-partial caveats %q name no missing shard", m.Caveats)
	}
	if code, _, _ := runCLI(t, "", "report", "merge", "--allow-partial", files[0], files[0]); code != exitUsage {
		t.Errorf("--allow-partial merged a repeated shard: exit %d", code)
	}
}
