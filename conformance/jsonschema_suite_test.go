package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/schemasuite"
)

// The JSON Schema Test Suite (the repository's
// testdata/json-schema-test-suite; commit and licence in its SOURCE.md)
// runs whole through the json_schema grader's public API:
// proctor.NewJSONSchema with the draft option a user would set for
// schemas without "$schema", each case's data as the sample's output,
// remote "$ref"s served from the vendored remotes/ folder through
// JSONSchemaOptions.Remotes (never the network). Required tests must all
// agree; the optional format tests run with FormatAssertion, and each
// disagreement must be listed in formatKnown with its reason.

// suite is the vendored suite's folder; files are named inside it.
var suite = os.DirFS("../testdata/json-schema-test-suite")

// suiteMiss is a case the grader disagreed with: key is the file's name
// and the case's description ("idn-email|..."), msg says what happened.
type suiteMiss struct{ key, msg string }

// runSuiteFile grades every case of one suite file and returns the cases
// run and the keys ("file/group/case", 0-based) of those that disagreed.
func runSuiteFile(t *testing.T, file, draft string, opts proctor.JSONSchemaOptions) (n int, missed []suiteMiss) {
	t.Helper()
	groups, name := readSuiteFile(t, file)
	opts = suiteOptions(t, opts, draft)
	ctx := context.Background()
	for gi, grp := range groups {
		g, err := proctor.NewJSONSchema(grp.Schema, opts)
		if err != nil {
			missed = append(missed, suiteMiss{name + "|" + grp.Description, fmt.Sprintf("%s/%d: %s: does not compile: %v", name, gi, grp.Description, err)})
			n += len(grp.Tests)
			continue
		}
		for ci, c := range grp.Tests {
			n++
			want := proctor.StatusFailed
			if c.Valid {
				want = proctor.StatusPassed
			}
			// Compact keeps the data's exact text, numbers included.
			var out bytes.Buffer
			if err := json.Compact(&out, c.Data); err != nil {
				t.Fatal(err)
			}
			if got := g.Grade(ctx, &proctor.Sample{Output: out.String()}); got.Status != want {
				missed = append(missed, suiteMiss{name + "|" + c.Description, fmt.Sprintf("%s/%d/%d: %s: %s: got %v (%s), want %v", name, gi, ci, grp.Description, c.Description, got.Status, got.Reason, want)})
			}
		}
	}
	return n, missed
}

func suiteFiles(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := schemasuite.Files(suite, pattern)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestJSONSchemaTestSuite runs every required test of drafts 4, 6, 7,
// 2019-09 and 2020-12; with -v it logs the counts per draft.
func TestJSONSchemaTestSuite(t *testing.T) {
	t.Parallel()
	total := 0
	for _, d := range schemasuite.Drafts() {
		t.Run(d.Dir, func(t *testing.T) {
			n, files := 0, 0
			for _, file := range suiteFiles(t, "tests/"+d.Dir+"/*.json") {
				c, missed := runSuiteFile(t, file, d.Draft, proctor.JSONSchemaOptions{})
				n += c
				files++
				for _, m := range missed {
					t.Error(m.msg)
				}
			}
			// The suite at the vendored commit holds over 700 required
			// cases per draft; a short count means files went missing.
			if n < 500 {
				t.Errorf("ran %d cases, want the whole draft", n)
			}
			total += n
			if !t.Failed() {
				t.Logf("%s: %d required cases in %d files, all agree", d.Dir, n, files)
			}
		})
	}
	t.Logf("all drafts: %d required cases", total)
}

// formatKnown lists the optional format cases the grader disagrees with
// under FormatAssertion, by file and case description, and why. None is
// among the formats the option promises (date, date-time, time, duration,
// email, hostname, ipv4, ipv6, uri, uri-reference, uuid, regex,
// json-pointer): these are the internationalised forms, whose full rules
// need Unicode tables (IDNA 2008 derived properties, Bidi classes) that
// neither the standard library nor the validator carries.
var formatKnown = map[string]string{
	"idn-hostname|zero width non-joiner must pass at every occurrence":                  "needs Unicode joining types (RFC 5892 A.1) for each ZERO WIDTH NON-JOINER",
	"idn-hostname|Bidi domain name with a digit-first label is invalid":                 "the Bidi rule (RFC 5893) needs Bidi classes",
	"idn-hostname|label starting with a digit before a right-to-left letter is invalid": "the Bidi rule (RFC 5893) needs Bidi classes",
	"idn-hostname|left-to-right label containing a right-to-left letter is invalid":     "the Bidi rule (RFC 5893) needs Bidi classes",
	"idn-hostname|right-to-left label mixing both digit types is invalid":               "the Bidi rule (RFC 5893) needs Bidi classes",
	"idn-hostname|A-label that decodes to a Bidi rule violation is invalid":             "the Bidi rule (RFC 5893) needs Bidi classes",
	"idn-hostname|A-label that decodes to a disallowed code point is invalid":           "needs the IDNA 2008 derived property table (RFC 5892)",
	"idn-hostname|a U-label whose A-label form is longer than 63 octets is invalid":     "needs Punycode encoding of U-labels (only decoding is implemented)",
	"idn-hostname|a name longer than 253 characters is invalid":                         "needs Punycode encoding of U-labels (only decoding is implemented)",
	"idn-hostname|non-canonical Punycode that does not re-encode to itself is invalid":  "needs Punycode encoding of U-labels (only decoding is implemented)",
	"idn-email|a fullwidth commercial at is not a local-part separator":                 "the validator has no idn-email check; it stays an annotation",
	"idn-email|an invalid e-mail/idn e-mail address":                                    "the validator has no idn-email check; it stays an annotation",
	"iri|an IPvFuture host with an uppercase version letter is valid":                   "the validator parses IRIs with net/url, which refuses IPvFuture hosts",
}

// TestJSONSchemaTestSuiteFormats runs the optional format tests with
// FormatAssertion; with -v it logs the counts per draft.
func TestJSONSchemaTestSuiteFormats(t *testing.T) {
	for _, d := range schemasuite.Drafts() {
		t.Run(d.Dir, func(t *testing.T) {
			n, agree, known := 0, 0, 0
			for _, file := range suiteFiles(t, "tests/"+d.Dir+"/optional/format/*.json") {
				c, missed := runSuiteFile(t, file, d.Draft, proctor.JSONSchemaOptions{FormatAssertion: true})
				n += c
				agree += c - len(missed)
				for _, m := range missed {
					if _, ok := formatKnown[m.key]; ok {
						known++
						continue
					}
					t.Error(m.msg)
				}
			}
			t.Logf("%s: %d of %d optional format cases agree under format_assertion; %d disagree as formatKnown lists", d.Dir, agree, n, known)
		})
	}
}

// readSuiteFile reads one file of the JSON Schema Test Suite and returns
// its groups and its name without the extension.
func readSuiteFile(t *testing.T, file string) ([]schemasuite.Group, string) {
	t.Helper()
	groups, name, err := schemasuite.Read(suite, file)
	if err != nil {
		t.Fatal(err)
	}
	return groups, name
}

// suiteOptions sets the draft and serves the suite's remote schemas
// (http://localhost:1234/...) from the vendored remotes folder through
// Remotes (never the network).
func suiteOptions(t *testing.T, opts proctor.JSONSchemaOptions, draft string) proctor.JSONSchemaOptions {
	t.Helper()
	opts.Draft = draft
	remotes, err := schemasuite.Remotes(suite)
	if err != nil {
		t.Fatal(err)
	}
	opts.Remotes = remotes
	return opts
}
