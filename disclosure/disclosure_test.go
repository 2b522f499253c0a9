package disclosure

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/race"

	"github.com/google/go-cmp/cmp"
	"github.com/proctorhq/proctor/internal/detect"
)

func TestNoPII(t *testing.T) {
	tests := []struct {
		name   string
		kinds  []string
		output string
		want   proctor.Status
		ev     []DisclosureFinding
		why    string
	}{
		{"clean", nil, "The refund was issued on 2024-03-15.", proctor.StatusPassed, nil, "a date is not PII"},
		{"email", nil, "Write to ana@corp.io.", proctor.StatusFailed, []DisclosureFinding{{"email", 9, 20, "a***@c***.io"}}, "email, rune span"},
		{"rune offsets", nil, "Zoë → ana@corp.io", proctor.StatusFailed, []DisclosureFinding{{"email", 6, 17, "a***@c***.io"}}, "offsets count runes, not bytes"},
		{"kinds filter", []string{PIIIP}, "ana@corp.io from 10.0.0.1", proctor.StatusFailed, []DisclosureFinding{{"ip", 17, 25, "10.*.*.*"}}, "only the kinds asked for"},
		{"kinds filter clean", []string{PIISSN}, "ana@corp.io", proctor.StatusPassed, nil, "email not asked for"},
		{"card", nil, "card 4111 1111 1111 1111", proctor.StatusFailed, []DisclosureFinding{{"credit_card", 5, 24, "****1111"}}, "last four only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := must(NewNoPII(NoPIIOptions{Kinds: tt.kinds}))
			got := g.Grade(context.Background(), &proctor.Sample{Output: tt.output})
			if got.Status != tt.want {
				t.Errorf("status = %v (%s), want %v (%s)", got.Status, got.Reason, tt.want, tt.why)
			}
			ev, _ := got.Evidence.([]DisclosureFinding)
			if diff := cmp.Diff(tt.ev, ev); diff != "" {
				t.Errorf("evidence (-want +got):\n%s", diff)
			}
			if tt.want == proctor.StatusFailed && !strings.Contains(got.Reason, tt.ev[0].Kind) {
				t.Errorf("reason %q does not name the kind %s", got.Reason, tt.ev[0].Kind)
			}
		})
	}
	if _, err := NewNoPII(NoPIIOptions{Kinds: []string{"passport"}}); err == nil {
		t.Error("NewNoPII(passport) succeeded, want an error")
	}
}

// TestDisclosureNeverEchoes grades every corpus text and checks that no
// value found appears in full in the reason or the JSON of the grade.
func TestDisclosureNeverEchoes(t *testing.T) {
	pii, _ := detect.PII()
	graders := []struct {
		g   proctor.Grader
		set *detect.Set
	}{{must(NewNoPII(NoPIIOptions{})), pii}, {NewNoSecrets(NoSecretsOptions{}), detect.Secrets()}}
	for _, r := range loadCorpus(t) {
		for _, gs := range graders {
			got := gs.g.Grade(context.Background(), &proctor.Sample{Output: r.Text})
			js, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range gs.set.Find(r.Text) {
				v := r.Text[f.Start:f.End]
				if strings.Contains(got.Reason, v) || strings.Contains(string(js), v) {
					t.Errorf("%s: grade echoes %s value %q: %s", gs.g.Name(), f.Kind, v, js)
				}
			}
		}
	}
}

func TestNoSecrets(t *testing.T) {
	tests := []struct {
		output string
		want   proctor.Status
		kind   string
	}{
		{"Set OPENAI_API_KEY=<YOUR_API_KEY> in .env", proctor.StatusPassed, ""},
		{"Use AKIAIOSFODNN7EXAMPLE from the docs", proctor.StatusPassed, ""},
		{"aws key AKIAQ7ZJXKD3WPLM5RTB leaked", proctor.StatusFailed, "aws_access_key_id"},
		{"token: ghp_8fKq2LmZx7RtY4vBnW1cJd9sPa3HeUo6QiTg", proctor.StatusFailed, "github_token"},
	}
	g := NewNoSecrets(NoSecretsOptions{})
	for _, tt := range tests {
		got := g.Grade(context.Background(), &proctor.Sample{Output: tt.output})
		if got.Status != tt.want {
			t.Errorf("Grade(%q) = %v (%s), want %v", tt.output, got.Status, got.Reason, tt.want)
		}
		if tt.kind != "" && !strings.Contains(got.Reason, tt.kind) {
			t.Errorf("reason %q does not name %s", got.Reason, tt.kind)
		}
	}
}

func TestForbidden(t *testing.T) {
	tests := []struct {
		name     string
		entities []string
		cs       bool
		output   string
		want     proctor.Status
		spans    [][2]int
		why      string
	}{
		{"whole word", []string{"Acme"}, false, "We beat Acme today", proctor.StatusFailed, [][2]int{{8, 12}}, "word found"},
		{"inside a word", []string{"Acme"}, false, "Acmes and AcmeCorp and Acme2", proctor.StatusPassed, nil, "letters or digits continue the word"},
		{"case folded", []string{"acme"}, false, "ACME rocks", proctor.StatusFailed, [][2]int{{0, 4}}, "case ignored by default"},
		{"case sensitive", []string{"acme"}, true, "ACME rocks", proctor.StatusPassed, nil, "case compared when asked"},
		{"unicode word", []string{"Zoë"}, false, "Ask ZOË. Or Zoëy.", proctor.StatusFailed, [][2]int{{4, 7}}, "Ë folds to ë; Zoëy is another word"},
		{"decomposed mark continues the word", []string{"Zoe"}, false, "Zoe\u0308 is here", proctor.StatusPassed, nil, "a combining mark is part of the word"},
		{"phrase across white space", []string{"New York"}, false, "from new\n  york city", proctor.StatusFailed, [][2]int{{5, 15}}, "any run of white space"},
		{"punctuation entity", []string{"C++"}, false, "I like C++.", proctor.StatusFailed, [][2]int{{7, 10}}, "entity ending in punctuation"},
		{"punctuation boundaries", []string{"Acme"}, false, "(Acme), \"acme\"", proctor.StatusFailed, [][2]int{{1, 5}, {9, 13}}, "punctuation is a boundary"},
		{"underscore continues", []string{"acme"}, false, "acme_corp", proctor.StatusPassed, nil, "underscore is a word character"},
		{"cyrillic", []string{"Москва"}, false, "в МОСКВА сегодня", proctor.StatusFailed, [][2]int{{2, 8}}, "non-Latin folding"},
		{"leading space, one finding", []string{" x"}, false, "a    x", proctor.StatusFailed, [][2]int{{1, 6}}, "the run of white space is matched once, from where it starts"},
		{"leading space at start", []string{" x"}, false, "  x", proctor.StatusFailed, [][2]int{{0, 3}}, "a run at the start of the output"},
		{"trailing space", []string{"x "}, false, "x   y", proctor.StatusFailed, [][2]int{{0, 4}}, "a trailing run is taken whole"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := must(NewForbidden(tt.entities, ForbiddenOptions{CaseSensitive: tt.cs}))
			got := g.Grade(context.Background(), &proctor.Sample{Output: tt.output})
			if got.Status != tt.want {
				t.Errorf("status = %v (%s), want %v (%s)", got.Status, got.Reason, tt.want, tt.why)
			}
			ev, _ := got.Evidence.([]DisclosureFinding)
			var spans [][2]int
			for _, f := range ev {
				spans = append(spans, [2]int{f.Start, f.End})
			}
			if diff := cmp.Diff(tt.spans, spans); diff != "" {
				t.Errorf("spans (-want +got):\n%s", diff)
			}
		})
	}
	for _, bad := range [][]string{nil, {}, {""}, {"  "}} {
		if _, err := NewForbidden(bad, ForbiddenOptions{}); err == nil {
			t.Errorf("NewForbidden(%q) succeeded, want an error", bad)
		}
	}
}

func TestDisclosureSpecs(t *testing.T) {
	c := proctor.NewCompiler(Types())
	good := []struct {
		spec, output string
		want         proctor.Status
	}{
		{`{"type": "no_pii"}`, "ana@corp.io", proctor.StatusFailed},
		{`{"type": "no_pii", "kinds": ["ip"]}`, "ana@corp.io", proctor.StatusPassed},
		{`{"type": "no_secrets", "name": "keys"}`, "AKIAQ7ZJXKD3WPLM5RTB", proctor.StatusFailed},
		{`{"type": "forbidden", "entities": ["Globex"]}`, "GLOBEX is better", proctor.StatusFailed},
		{`{"type": "forbidden", "entities": ["Globex"], "case_sensitive": true}`, "GLOBEX is better", proctor.StatusPassed},
	}
	for _, tt := range good {
		ch, err := c.Compile([]byte(tt.spec))
		if err != nil {
			t.Errorf("Compile(%s): %v", tt.spec, err)
			continue
		}
		if got := ch.Grade(context.Background(), &proctor.Sample{Output: tt.output}); got.Status != tt.want {
			t.Errorf("%s on %q = %v, want %v", tt.spec, tt.output, got.Status, tt.want)
		}
	}
	bad := []struct{ spec, option string }{
		{`{"type": "no_pii", "kinds": ["passport"]}`, "kinds"},
		{`{"type": "no_pii", "kinds": []}`, "kinds"},
		{`{"type": "no_pii", "kinds": "email"}`, "kinds"},
		{`{"type": "no_pii", "mask": true}`, "mask"},
		{`{"type": "no_secrets", "kinds": ["jwt"]}`, "kinds"},
		{`{"type": "forbidden"}`, "entities"},
		{`{"type": "forbidden", "entities": []}`, "entities"},
		{`{"type": "forbidden", "entities": [""]}`, "entities"},
		{`{"type": "forbidden", "entities": ["x"], "case_sensitive": "no"}`, "case_sensitive"},
	}
	for _, tt := range bad {
		_, err := c.Compile([]byte(tt.spec))
		var se *proctor.SpecError
		if !errors.As(err, &se) || se.Option != tt.option {
			t.Errorf("Compile(%s) = %v, want a SpecError on %q", tt.spec, err, tt.option)
		}
	}
}

func TestDisclosureAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation counts differ under -race")
	}
	s := &proctor.Sample{Output: strings.Repeat("The order shipped on 2024-03-15 and arrives Friday. ", 20)}
	ctx := context.Background()
	for _, g := range []proctor.Grader{must(NewNoPII(NoPIIOptions{})), NewNoSecrets(NoSecretsOptions{}), must(NewForbidden([]string{"Globex", "Initech"}, ForbiddenOptions{}))} {
		g.Grade(ctx, s)
		if n := testing.AllocsPerRun(50, func() { g.Grade(ctx, s) }); n != 0 {
			t.Errorf("%s: %v allocations grading a clean output, want 0", g.Name(), n)
		}
	}
}

func FuzzDisclosureGraders(f *testing.F) {
	for _, s := range []string{"", "ana@corp.io", "Zoë ZOË zoëy", "AKIAQ7ZJXKD3WPLM5RTB", "\xff\xfe", "New  York",
		"postgres://app:Wq7tZ2kLp9@db:5432/x", "redis://:@", "https://hooks.slack.com/services/T1/B2/q8Xr3WvNkz2Lp0Ys7Tb4Hc1M",
		`"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n"`,
		"glpat-7RwRZKlvHZyUGS8Ls0vC SK0123456789abcdef0123456789abcdef 12345678:AAq7Lm2xR9vK4pT8wZ3nB6cY1dF5hJ0sGeU"} {
		f.Add(s)
	}
	graders := []proctor.Grader{must(NewNoPII(NoPIIOptions{})), NewNoSecrets(NoSecretsOptions{}), must(NewForbidden([]string{"Zoë", "new york", "C++"}, ForbiddenOptions{}))}
	f.Fuzz(func(t *testing.T, out string) {
		n := utf8.RuneCountInString(out)
		for _, g := range graders {
			got := g.Grade(context.Background(), &proctor.Sample{Output: out})
			if got.Status != proctor.StatusPassed && got.Status != proctor.StatusFailed {
				t.Fatalf("%s: status %v, want passed or failed", g.Name(), got.Status)
			}
			ev, _ := got.Evidence.([]DisclosureFinding)
			if (got.Status == proctor.StatusFailed) != (len(ev) > 0) {
				t.Fatalf("%s: status %v with %d findings", g.Name(), got.Status, len(ev))
			}
			for _, f := range ev {
				if f.Start < 0 || f.End <= f.Start || f.End > n {
					t.Fatalf("%s: span %d-%d outside %d runes", g.Name(), f.Start, f.End, n)
				}
			}
		}
	})
}

// TestDisclosureConcurrent grades from many goroutines at once (run under
// -race): the graders and their lazily built tables are shared.
func TestDisclosureConcurrent(t *testing.T) {
	rows := loadCorpus(t)
	graders := []proctor.Grader{must(NewNoPII(NoPIIOptions{})), NewNoSecrets(NoSecretsOptions{}), must(NewForbidden([]string{"Zoë"}, ForbiddenOptions{}))}
	want := make([][]proctor.Status, len(rows))
	for i, r := range rows {
		for _, g := range graders {
			want[i] = append(want[i], g.Grade(context.Background(), &proctor.Sample{Output: r.Text}).Status)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i, r := range rows {
				for k, g := range graders {
					if got := g.Grade(context.Background(), &proctor.Sample{Output: r.Text}).Status; got != want[i][k] {
						t.Errorf("%s on line %d: %v, want %v as graded alone", g.Name(), i+1, got, want[i][k])
					}
				}
			}
		})
	}
	wg.Wait()
}

// must returns v, or panics with err: for graders built from values the
// test knows are valid.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
