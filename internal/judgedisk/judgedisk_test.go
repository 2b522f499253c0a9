package judgedisk

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/internal/readfile"
)

const promptVersion = "proctor-judge/1"

func TestEntryMAC(t *testing.T) {
	secret := []byte("0123456789abcdef")
	e := Entry{Judge: "j", PromptVersion: promptVersion, Text: `{"verdict":"fail"}`}
	mac := e.mac(secret, "k1")
	for name, other := range map[string]string{
		"another key":    Entry{Judge: "j", PromptVersion: promptVersion, Text: e.Text}.mac(secret, "k2"),
		"another text":   Entry{Judge: "j", PromptVersion: promptVersion, Text: `{"verdict":"pass"}`}.mac(secret, "k1"),
		"another secret": e.mac([]byte("fedcba9876543210"), "k1"),
	} {
		if other == mac {
			t.Errorf("%s gives the same MAC", name)
		}
	}
	e.MAC = "ignored"
	if e.mac(secret, "k1") != mac {
		t.Error("the MAC covers its own field")
	}
}

// The bytes on disk are the cache's format: caches written by earlier
// releases must still be read, and entries written now must read the same
// to them. This entry was written by the judge pool before the format
// moved to this package.
func TestWriteFormat(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	e := Entry{Judge: "j1", Model: "m-1", PromptVersion: promptVersion, Text: "{\"verdict\":\"pass\"} <é>&",
		Tokens: 42, CostUSD: 0.00123, Reasoning: "because\n\"x\"", Probability: 0.75}
	const want = "{\"judge\":\"j1\",\"model\":\"m-1\",\"prompt_version\":\"proctor-judge/1\",\"text\":\"{\\\"verdict\\\":\\\"pass\\\"} \\u003cé\\u003e\\u0026\",\"tokens\":42,\"cost_usd\":0.00123,\"reasoning\":\"because\\n\\\"x\\\"\",\"verdict_probability\":0.75,\"mac\":\"fe83ae4d52f8eca08d5e93b37c3c67fa9f9ecd47eaa2be13786cca2d70a40c80\"}"
	dir := filepath.Join(t.TempDir(), "cache")
	if err := Write(dir, "abc123", secret, e); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "abc123.json"))
	if err != nil || string(b) != want {
		t.Fatalf("entry on disk %q, %v\nwant %q", b, err, want)
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 1 {
		t.Errorf("the folder holds %d files, want only the entry (no temporary file left)", len(files))
	}
	got, err := Read(dir, "abc123", secret)
	e.MAC = got.MAC
	if err != nil || got != e || got.MAC == "" {
		t.Errorf("Read = %+v, %v; want %+v", got, err, e)
	}
}

// What is not the cache's own entry is an error the caller can tell
// apart: missing, not JSON, edited, under another key or cache key, not a
// regular file, too big.
func TestReadRefuses(t *testing.T) {
	secret := []byte("0123456789abcdef")
	dir := t.TempDir()
	e := Entry{Judge: "j", PromptVersion: promptVersion, Text: `{"verdict":"pass"}`}
	if err := Write(dir, "k1", secret, e); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(filepath.Join(dir, "k1.json"))
	put := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("moved", string(good)) // the entry of k1 under another cache key
	put("edited", strings.Replace(string(good), "pass", "fail", 1))
	put("notjson", "{not json")
	put("big", `{"text":"`+strings.Repeat("a", maxEntry)+`"}`)
	if err := os.Mkdir(filepath.Join(dir, "dir.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		key    string
		secret []byte
		want   error
	}{
		{"missing", secret, fs.ErrNotExist},
		{"notjson", secret, ErrNotJSON},
		{"edited", secret, ErrBadMAC},
		{"moved", secret, ErrBadMAC},
		{"k1", []byte("fedcba9876543210"), ErrBadMAC},
		{"dir", secret, readfile.ErrNotRegular},
		{"big", secret, readfile.ErrTooLarge},
	} {
		if _, err := Read(dir, tt.key, tt.secret); !errors.Is(err, tt.want) {
			t.Errorf("Read(%s) = %v, want %v", tt.key, err, tt.want)
		}
	}
	if _, err := Read(dir, "k1", secret); err != nil {
		t.Errorf("the good entry: %v", err)
	}
}

// A folder that cannot be made is Write's error.
func TestWriteFails(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(file, "cache"), "k", []byte("0123456789abcdef"), Entry{}); err == nil {
		t.Error("Write under a regular file succeeded")
	}
}

func TestLoadKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	path := filepath.Join(dir, ".proctor-cache-key")
	k1, err := LoadKey(path)
	if err != nil || len(k1) != 32 {
		t.Fatalf("LoadKey = %x, %v", k1, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file %v, %v: want mode 0600", fi, err)
	}
	if b, _ := os.ReadFile(path); len(b) != 64 {
		t.Errorf("key file holds %d bytes, want 32 bytes in hex", len(b))
	}
	k2, err := LoadKey(path)
	if err != nil || string(k1) != string(k2) {
		t.Errorf("second load gave another key: %v", err)
	}
	os.WriteFile(path, []byte("abcd"), 0o600)
	if _, err := LoadKey(path); err == nil {
		t.Error("a 2-byte key was accepted")
	}
	os.WriteFile(path, []byte(strings.Repeat("zz", 16)), 0o600)
	if _, err := LoadKey(path); err == nil {
		t.Error("a key that is not hex was accepted")
	}
}
