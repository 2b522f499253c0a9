package proctor

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/internal/detect"
)

func TestRedactDisclosures(t *testing.T) {
	// Every value below is invented for the test corpus (fake keys, a
	// card network's published test number).
	tests := []struct {
		name, in, want string
	}{
		{"nothing found", "The capital of France is Paris.", "The capital of France is Paris."},
		{"email", "Write to ana.lopez@corp-mail.io today.", "Write to [email] today."},
		{"card", "Card 4242 4242 4242 4242 was charged.", "Card [credit_card] was charged."},
		{"aws key", "key=AKIAB1SKCZTKMBF4JDPY in the config", "key=[aws_access_key_id] in the config"},
		{"github token and email", "token ghp_0OpGcSDuJZKMvlsbxFHz9GuXlmPvNRB0tR1l from bo@ex-ample.org",
			"token [github_token] from [email]"},
		{"placeholder kept", "set OPENAI_API_KEY=<YOUR_API_KEY>", "set OPENAI_API_KEY=<YOUR_API_KEY>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RedactDisclosures(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRedactDisclosuresNeverLeaks runs the labelled disclosure corpus
// through the redactor: no value the detectors find survives it.
func TestRedactDisclosuresNeverLeaks(t *testing.T) {
	b, err := os.ReadFile("testdata/disclosure/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var r struct{ Text string }
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("corpus line %d: %v", i+1, err)
		}
		text := r.Text
		out := RedactDisclosures(text)
		for _, f := range append(piiSet().Find(text), detect.Secrets().Find(text)...) {
			if v := text[f.Start:f.End]; strings.Contains(out, v) {
				t.Errorf("%s value %q survives redaction of %q", f.Kind, v, text)
			}
		}
	}
}

// FuzzRedactDisclosures: no panic, and nothing the detectors find in the
// input survives in the output.
func FuzzRedactDisclosures(f *testing.F) {
	f.Add("Write to ana.lopez@corp-mail.io or call (415) 555-0132.")
	f.Add("key=AKIAB1SKCZTKMBF4JDPY card 4242 4242 4242 4242")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		out := RedactDisclosures(text)
		for _, fd := range append(piiSet().Find(text), detect.Secrets().Find(text)...) {
			if v := text[fd.Start:fd.End]; len(v) > 0 && strings.Contains(out, v) && !strings.Contains(text[:fd.Start]+text[fd.End:], v) {
				t.Errorf("%s value %q survives redaction", fd.Kind, v)
			}
		}
	})
}
