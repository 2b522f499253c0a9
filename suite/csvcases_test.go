package suite_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/suite"
)

// writeSuiteWith writes a suite (yaml) and the data file it reads (name,
// content) into a new folder and returns the suite's path.
func writeSuiteWith(t testing.TB, yaml, name, content string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "suite.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeCSVSuite writes a suite and its cases.csv.
func writeCSVSuite(t testing.TB, yaml, csv string) string {
	t.Helper()
	return writeSuiteWith(t, yaml, "cases.csv", csv)
}

// TestCSVCasesPromptfooFile reads promptfoo's own CSV test file
// (testdata/csv/*.SOURCE.md) with its columns mapped to input and item.
func TestCSVCasesPromptfooFile(t *testing.T) {
	src, err := os.ReadFile("testdata/csv/promptfoo-csv-metadata-tests.csv")
	if err != nil {
		t.Fatal(err)
	}
	path := writeCSVSuite(t, `name: from-csv
graders: [{type: contains, value: "a"}]
subject: {command: ["cat"]}
cases_csv:
  file: cases.csv
  input: topic
  item: ["__metadata:category", "__metadata:tags[]"]
`, string(src))
	s := load(t, path, suite.Options{})
	cases := collect(t, s)
	if len(cases) != 3 || s.Total != 3 {
		t.Fatalf("%d cases of %d", len(cases), s.Total)
	}
	c := cases[1]
	if c.ID != "row-2" || c.Sample.Input != "quantum physics" || c.Sample.Item["__metadata:category"] != "science" ||
		c.Sample.Item["__metadata:tags[]"] != `physics,advanced\,theory,quantum` || len(c.Checks) != 1 {
		t.Errorf("case 2: %+v", c)
	}
}

// TestCSVCasesColumns: id, input, expected, output and split columns make
// a case with its recorded output; quoted fields keep their newlines.
func TestCSVCasesColumns(t *testing.T) {
	path := writeCSVSuite(t, `cases_csv: {file: cases.csv, id: key, input: q, expected: a, output: answer, split: set}
graders: [{type: exact_match}]
`, "key,q,a,answer,set\r\nk1,Capital of France?,Paris,Paris,dev\r\nk2,\"two\nlines\",x,y,holdout\r\n")
	s := load(t, path, suite.Options{Split: "holdout"})
	cases := collect(t, s)
	if len(cases) != 1 || s.Total != 2 {
		t.Fatalf("%d cases of %d", len(cases), s.Total)
	}
	c := cases[0]
	if c.ID != "k2" || c.Sample.Input != "two\nlines" || c.Sample.Expected == nil || *c.Sample.Expected != "x" || len(c.Outputs) != 1 || c.Outputs[0].Output != "y" || c.Split != "holdout" {
		t.Errorf("case %+v", c)
	}
	if !intsEqual(s.Positions(), []int{1}) {
		t.Errorf("positions %v", s.Positions())
	}
}

func intsEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestCSVCasesRefused(t *testing.T) {
	for name, tc := range map[string]struct{ yaml, csv, want string }{
		"unknown column": {"cases_csv: {file: cases.csv, input: question}\n", "q,a\nx,y\n", `no column "question" (its columns: q, a)`},
		"bad CSV":        {"cases_csv: {file: cases.csv, input: q}\n", "q,a\nx,y\nz\n", "line 3: not valid CSV"},
		"empty":          {"cases_csv: {file: cases.csv}\n", "", "empty"},
		"both":           {"cases: []\ncases_csv: {file: cases.csv}\n", "q\nx\n", "not both"},
		"no file":        {"cases_csv: {input: q}\n", "q\nx\n", "cases_csv.file: missing"},
		"outside":        {"cases_csv: {file: ../x.csv}\n", "q\nx\n", "cannot read"},
		"unknown key":    {"cases_csv: {file: cases.csv, inptu: q}\n", "q\nx\n", "inptu"},
		"duplicate id":   {"cases_csv: {file: cases.csv, id: q, output: q}\n", "q\nx\nx\n", `"x" is also used`},
		"header twice":   {"cases_csv: {file: cases.csv}\n", "q,q\nx,y\n", `"q" appears twice`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := suite.Load(writeCSVSuite(t, tc.yaml, tc.csv), suite.Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// FuzzCSVCases: any CSV file loads into cases or is refused with an
// error; never a panic.
func FuzzCSVCases(f *testing.F) {
	f.Add("q,a\nx,y\n")
	f.Add("q,a\n\"x\ny\",z\n")
	f.Add("\xef\xbb\xbfq\n\"unterminated\n")
	f.Add("q,a\r\n,\r\n")
	f.Fuzz(func(t *testing.T, csv string) {
		path := writeCSVSuite(t, "cases_csv: {file: cases.csv, input: q, output: a, item: [a]}\n", csv)
		s, err := suite.Load(path, suite.Options{})
		if err != nil {
			return
		}
		defer s.Close()
		n := 0
		for _, err := range s.Cases() {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n != s.Count {
			t.Fatalf("%d cases yielded, Count %d", n, s.Count)
		}
	})
}

// TestCSVCasesDigest: the suite digest follows the CSV file.
func TestCSVCasesDigest(t *testing.T) {
	const yaml = "cases_csv: {file: cases.csv, input: q, output: a}\n"
	digest := func(csv string) string {
		s := load(t, writeCSVSuite(t, yaml, csv), suite.Options{})
		d, err := s.Digest()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if a, b := digest("q,a\nx,y\n"), digest("q,a\nx,z\n"); a == b {
		t.Error("another CSV row: digest unchanged")
	}
	if a, b := digest("q,a\nx,y\n"), digest("q,a\r\nx,y\r\n"); a != b {
		t.Error("CRLF CSV: digest changed")
	}
}
