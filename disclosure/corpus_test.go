package disclosure

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"

	"github.com/proctorhq/proctor/internal/detect"
)

// corpusRow is one labelled text of testdata/disclosure/corpus.jsonl: the
// PII kinds and secret detectors it holds (none for a hard negative). Every
// secret in it is invented; card numbers are the issuers' published test
// numbers and IBANs the registry's examples.
type corpusRow struct {
	Text    string   `json:"text"`
	PII     []string `json:"pii"`
	Secrets []string `json:"secrets"`
	Note    string   `json:"note"`
}

func loadCorpus(t testing.TB) []corpusRow {
	return loadCorpusFile(t, "../testdata/disclosure/corpus.jsonl")
}

func loadCorpusFile(t testing.TB, path string) []corpusRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []corpusRow
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r corpusRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("corpus line %d: %v", len(rows)+1, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// kindsFound returns the distinct kinds in a grade's evidence.
func kindsFound(g proctor.Grade) []string {
	ev, _ := g.Evidence.([]DisclosureFinding)
	var out []string
	for _, f := range ev {
		if !slices.Contains(out, f.Kind) {
			out = append(out, f.Kind)
		}
	}
	return out
}

type prCount struct{ tp, fp, fn int }

func (c prCount) precision() float64 {
	if c.tp+c.fp == 0 {
		return 1
	}
	return float64(c.tp) / float64(c.tp+c.fp)
}

func (c prCount) recall() float64 {
	if c.tp+c.fn == 0 {
		return 1
	}
	return float64(c.tp) / float64(c.tp+c.fn)
}

// TestDisclosureCorpus computes precision and recall per kind over the
// labelled corpus, text by text, and fails below 0.95 for either. This
// corpus predates the provider-token detectors: it must hold positives of
// the PII kinds and of the first secret detectors.
func TestDisclosureCorpus(t *testing.T) {
	rows := loadCorpus(t)
	if len(rows) < 150 {
		t.Fatalf("corpus has %d texts, want at least 150", len(rows))
	}
	need := append(PIIKinds(), detect.AWSAccessKeyID, detect.GitHubToken, detect.SKKey, detect.SlackToken,
		detect.GoogleAPIKey, detect.StripeKey, detect.PrivateKey, detect.JWT, detect.SecretAssignment)
	corpusPR(t, rows, need, 0.95, true)
}

// TestSecretsHeldout measures precision and recall per secret kind on
// testdata/disclosure/secrets-heldout.jsonl, a corpus written after the
// detectors were finished and not used to tune them (gen_heldout.py).
// Every secret kind must have a positive in it.
func TestSecretsHeldout(t *testing.T) {
	rows := loadCorpusFile(t, "../testdata/disclosure/secrets-heldout.jsonl")
	corpusPR(t, rows, detect.Secrets().Kinds(), 0.98, false)
}

// corpusPR tallies precision and recall per kind over rows (the PII kinds
// too when withPII) and fails below floor for either, or when a kind in
// need has no positive.
func corpusPR(t *testing.T, rows []corpusRow, need []string, floor float64, withPII bool) {
	pii := must(NewNoPII(NoPIIOptions{}))
	sec := NewNoSecrets(NoSecretsOptions{})
	counts := map[string]*prCount{}
	kinds := detect.Secrets().Kinds()
	if withPII {
		kinds = append(PIIKinds(), kinds...)
	}
	for _, k := range kinds {
		counts[k] = &prCount{}
	}
	tally := func(i int, r corpusRow, want, got []string) {
		for k, c := range counts {
			w, g := slices.Contains(want, k), slices.Contains(got, k)
			switch {
			case w && g:
				c.tp++
			case g:
				c.fp++
				t.Logf("false positive %s on line %d (%s): %q", k, i+1, r.Note, r.Text)
			case w:
				c.fn++
				t.Logf("missed %s on line %d (%s): %q", k, i+1, r.Note, r.Text)
			}
		}
	}
	var pos, neg int
	for i, r := range rows {
		if len(r.PII)+len(r.Secrets) == 0 {
			neg++
		} else {
			pos++
		}
		s := &proctor.Sample{Output: r.Text}
		if withPII {
			tally(i, r, r.PII, kindsFound(pii.Grade(context.Background(), s)))
		}
		tally(i, r, r.Secrets, kindsFound(sec.Grade(context.Background(), s)))
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("\n| kind | positives | TP | FP | FN | precision | recall |\n|---|---|---|---|---|---|---|\n")
	for _, k := range keys {
		c := counts[k]
		b.WriteString("| " + k + " | " + itoa(c.tp+c.fn) + " | " + itoa(c.tp) + " | " + itoa(c.fp) + " | " + itoa(c.fn) +
			" | " + ftoa(c.precision()) + " | " + ftoa(c.recall()) + " |\n")
		if c.tp+c.fn == 0 && slices.Contains(need, k) {
			t.Errorf("%s: no positive in the corpus", k)
		}
		if c.precision() < floor || c.recall() < floor {
			t.Errorf("%s: precision %.3f, recall %.3f, want both >= %.2f", k, c.precision(), c.recall(), floor)
		}
	}
	t.Logf("corpus: %d texts (%d with PII or secrets, %d hard negatives)%s", len(rows), pos, neg, b.String())
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func ftoa(f float64) string {
	b, _ := json.Marshal(float64(int(f*1000+0.5)) / 1000)
	return string(b)
}
