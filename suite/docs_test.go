package suite

import (
	"os"
	"strings"
	"testing"
)

// TestSuiteKeysDocumented fails when a key a suite file may hold has no
// entry in docs/suite.md or docs/formats.md.
func TestSuiteKeysDocumented(t *testing.T) {
	var docs strings.Builder
	for _, f := range []string{"../docs/suite.md", "../docs/formats.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs.Write(b)
	}
	text := docs.String()
	for _, keys := range [][]string{suiteKeys, caseKeys, sampleKeys, metricKeys, dataSourceKeys} {
		for _, k := range keys {
			if !strings.Contains(text, "`"+k+"`") {
				t.Errorf("key %s is not documented (docs/suite.md, docs/formats.md)", k)
			}
		}
	}
}
