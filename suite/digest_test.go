package suite_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/suite"
)

func digestOf(t *testing.T, name, content string, opts suite.Options) (string, *suite.Suite) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	s := load(t, path, opts)
	d, err := s.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return d, s
}

// TestDigest: the digest follows the suite's content, not its line ends,
// byte order mark, folder or shard; a changed case, split or grader file
// changes it.
func TestDigest(t *testing.T) {
	const src = "name: d\ncases:\n  - {id: a, outputs: [x], checks: [{type: contains, value: x}]}\n  - {id: b, outputs: [y], checks: [{type: contains, value: x}]}\n"
	base, _ := digestOf(t, "s.yaml", src, suite.Options{})
	if !strings.HasPrefix(base, "sha256:") || len(base) != len("sha256:")+64 {
		t.Fatalf("digest %q", base)
	}
	same := map[string]string{
		"CRLF":       strings.ReplaceAll(src, "\n", "\r\n"),
		"BOM":        "\xef\xbb\xbf" + src,
		"BOM + CRLF": "\xef\xbb\xbf" + strings.ReplaceAll(src, "\n", "\r\n"),
	}
	for name, text := range same {
		if d, _ := digestOf(t, "s.yaml", text, suite.Options{}); d != base {
			t.Errorf("%s: digest %s, want %s", name, d, base)
		}
	}
	if d, s := digestOf(t, "s.yaml", src, suite.Options{Shard: suite.Shard{I: 2, N: 2}}); d != base || s.Count == s.Total {
		t.Errorf("shard 2/2: digest %s (want %s), %d of %d cases", d, base, s.Count, s.Total)
	}
	differ := map[string]string{
		"a changed output": strings.Replace(src, "[y]", "[z]", 1),
		"a lone CR":        strings.Replace(src, "\n", "\r", 1),
		"a case less":      src[:strings.LastIndex(src[:len(src)-1], "\n")+1],
	}
	for name, text := range differ {
		if d, _ := digestOf(t, "s.yaml", text, suite.Options{}); d == base {
			t.Errorf("%s: digest unchanged", name)
		}
	}
	if d, _ := digestOf(t, "s.yaml", strings.ReplaceAll(src, "[y]", "[y], split: holdout"), suite.Options{}); d == base {
		t.Error("a split key added: digest unchanged")
	}
}

// TestDigestJSONL: a .jsonl suite's digest covers its --grader-file and
// the split selected; Positions are the selected cases' places.
func TestDigestJSONL(t *testing.T) {
	dir := t.TempDir()
	graders := filepath.Join(dir, "g.json")
	os.WriteFile(graders, []byte(`{"type":"contains","value":"x"}`), 0o644)
	lines := `{"id":"a","outputs":["x"]}` + "\n" + `{"id":"b","outputs":["x"],"split":"dev"}` + "\n" + `{"id":"c","outputs":["y"],"split":"dev"}` + "\n"
	d1, s := digestOf(t, "s.jsonl", lines, suite.Options{GraderFile: graders})
	if got := s.Positions(); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("positions %v", got)
	}
	d2, s := digestOf(t, "s.jsonl", lines, suite.Options{GraderFile: graders, Split: "dev"})
	if d2 == d1 || !slices.Equal(s.Positions(), []int{1, 2}) {
		t.Errorf("split dev: digest %s (whole %s), positions %v", d2, d1, s.Positions())
	}
	os.WriteFile(graders, []byte(`{"type":"contains","value":"y"}`), 0o644)
	if d3, _ := digestOf(t, "s.jsonl", lines, suite.Options{GraderFile: graders}); d3 == d1 {
		t.Error("another grader file: digest unchanged")
	}
}
