package proctor

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRepositoryStandsAlone fails when a file of the repository points
// outside it, to a development tree's sibling folder or spec file: what a
// user needs must be in the clone. (The patterns are split so that this
// file does not match itself.)
func TestRepositoryStandsAlone(t *testing.T) {
	banned := []string{"../" + "shared", "SPEC" + ".md", "shared" + "/bench", "shared" + " bench", "shared" + "/contract"}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") && name != ".github" && name != ".ci" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 4<<20 {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(data)
		for _, b := range banned {
			if i := strings.Index(text, b); i >= 0 {
				line := strings.Count(text[:i], "\n") + 1
				t.Errorf("%s:%d refers to %q, outside the repository", path, line, b)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDocsLinks checks that the relative links of README.md and docs/
// lead to files of the repository.
func TestDocsLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	files, _ := filepath.Glob(filepath.Join("docs", "*.md"))
	files = append(files, "README.md", "BENCHMARKS.md")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(f), target)); err != nil {
				t.Errorf("%s links to %s, which does not exist", f, target)
			}
		}
	}
}
