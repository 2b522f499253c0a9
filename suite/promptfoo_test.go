package suite_test

import (
	"os"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/suite"
)

const promptfooFixture = "testdata/promptfoo/simple-test-promptfooconfig.yaml"

// writePromptfooSuite writes a suite reading tests.yaml (content) through
// cases_promptfoo.
func writePromptfooSuite(t testing.TB, mapping, content string) string {
	t.Helper()
	return writeSuiteWith(t, "subject: {command: [cat]}\ncases_promptfoo: "+mapping+"\n", "tests.yaml", content)
}

// TestPromptfooFileRefused: promptfoo's example as it stands is refused,
// naming its javascript assertion and where it is.
func TestPromptfooFileRefused(t *testing.T) {
	src, err := os.ReadFile(promptfooFixture)
	if err != nil {
		t.Fatal(err)
	}
	_, err = suite.Load(writePromptfooSuite(t, "{file: tests.yaml, input: body}", string(src)), suite.Options{})
	if err == nil || !strings.Contains(err.Error(), `"javascript" has no proctor equivalent`) || !strings.Contains(err.Error(), "tests[3]") || !strings.Contains(err.Error(), "tests.yaml:27") {
		t.Errorf("error %v, want the javascript assertion of tests[3] at tests.yaml:27 named", err)
	}
}

// TestPromptfooFileMapped: the example's first three tests load, their
// vars as item and input, their assertions as proctor checks.
func TestPromptfooFileMapped(t *testing.T) {
	src, err := os.ReadFile(promptfooFixture)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(src), "  - description: Check for semantic similarity")
	s := load(t, writePromptfooSuite(t, "{file: tests.yaml, input: body}", head), suite.Options{})
	cases := collect(t, s)
	if len(cases) != 3 {
		t.Fatalf("%d cases", len(cases))
	}
	want := []struct{ id, input, check string }{
		{"test-1", "Yes", "exact_match"},
		{"test-2", "I'm hungry", "contains"},
		{"test-3", "Output the story of your life in JSON", "json_valid"},
	}
	for i, w := range want {
		c := cases[i]
		if c.ID != w.id || c.Sample.Input != w.input || c.Sample.Item["body"] != w.input || len(c.Checks) != 1 || c.Checks[0].Name() != w.check {
			t.Errorf("case %d: %s %q %v checks %d", i, c.ID, c.Sample.Input, c.Sample.Item, len(c.Checks))
		}
	}
}

// TestPromptfooAssertions: each mapped assertion grades as promptfoo's
// does on a recorded output; others are refused by name.
func TestPromptfooAssertions(t *testing.T) {
	tests := `tests:
  - vars: {q: hi, out: "Ahoy GRUB matey"}
    assert:
      - {type: icontains, value: grub}
      - {type: not-contains, value: GRUB}
      - {type: equals, value: "ahoy grub matey"}
      - {type: regex, value: "G.UB"}
      - {type: starts-with, value: Ahoy}
      - {type: contains-any, value: [x, matey]}
`
	s := load(t, writePromptfooSuite(t, "{file: tests.yaml, input: q, output: out}", tests), suite.Options{})
	cases := collect(t, s)
	if len(cases) != 1 || len(cases[0].Outputs) != 1 {
		t.Fatalf("cases %+v", cases)
	}
	want := []string{"passed", "failed", "failed", "passed", "passed", "passed"}
	for i, ch := range cases[0].Checks {
		g := ch.Grade(t.Context(), &cases[0].Outputs[0])
		if g.Status.String() != want[i] {
			t.Errorf("assert[%d] %s: %s (%s), want %s", i, ch.Name(), g.Status, g.Reason, want[i])
		}
	}
	for _, bad := range []string{"{type: llm-rubric, value: x}", "{type: is-json, value: x}", "{type: icontains}", "{$ref: x}", "{type: contains, value: x, threshold: 2}"} {
		_, err := suite.Load(writePromptfooSuite(t, "{file: tests.yaml}", "- assert: ["+bad+"]\n"), suite.Options{})
		if err == nil || !strings.Contains(err.Error(), "assert[0]") {
			t.Errorf("%s: error %v, want one naming assert[0]", bad, err)
		}
	}
}

// FuzzPromptfooTests: any test file loads into cases or is refused with
// an error; never a panic.
func FuzzPromptfooTests(f *testing.F) {
	f.Add("tests:\n  - vars: {q: a}\n    assert: [{type: contains, value: a}]\n")
	f.Add("- vars: [1]\n")
	f.Add("- assert: {type: x}\n")
	f.Add("tests: 3\n")
	f.Fuzz(func(t *testing.T, content string) {
		s, err := suite.Load(writePromptfooSuite(t, "{file: tests.yaml, input: q}", content), suite.Options{})
		if err == nil {
			s.Close()
		}
	})
}
