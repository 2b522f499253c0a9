package jsonformat

import (
	"testing"
)

// Cases mirror the JSON Schema Test Suite's optional format files
// (testdata/json-schema-test-suite at the commit in its SOURCE.md); the
// suite itself runs through the grader in the root package.
func TestChecks(t *testing.T) {
	tests := []struct {
		check func(string) error
		in    string
		ok    bool
	}{
		{Email, "joe@example.com", true},
		{Email, "@example.com", false},
		{IPv4, "192.168.0.1", true},
		{IPv4, "+1.2.3.4", false},
		{Hostname, "www.example.com", true},
		{Hostname, "example.", false},
		{Hostname, "a--b.com", true},
		{Hostname, "xn--9n2bp8q.xn--9t4b11yi5a", true},
		{Hostname, "xn--X", false},
		{Hostname, "xn--07jt112bpxg.xn--9t4b11yi5a", false}, // U+302E
		{Hostname, "xn--ll-0ea", true},                      // l·l
		{Hostname, "xn--al-0ea", false},                     // MIDDLE DOT without a preceding l
		{Hostname, "XN--aa---o47jg78q", false},              // -- in the U-label's 3rd and 4th place
		{Hostname, "xn--11b2ezcw70k", true},                 // ZWJ after a virama
		{Hostname, "xn--11b2er09f", false},                  // ZWJ without one
		{IDNHostname, "실례.테스트", true},
		{IDNHostname, "〮실례.테스트", false}, // begins with a combining mark
		{URI, "http://example.com/a?b=c#d", true},
		{URI, "http://[2001:db8::1]/x", true},
		{URI, "http://example.com/a b", false},
		{URI, `http://example.com/a\b`, false},
		{URI, "http://example.com/[x]", false},
		{URI, "http://a@b@c.com/", false},
		{URI, "http://example.com/%zz", false},
		{URI, "http://ex.com/é", false},
		{Duration, "P4DT12H30M5S", true},
		{Duration, "P2W", true},
		{Duration, "P1Y2D", false},
		{Duration, "PT1H2S", false},
		{Duration, "P", false},
		{Regex, `^[a-z]+(?<n>\d)\k<n>$`, true},
		{Regex, `(?<=a+)b`, true},
		{Regex, `[^]`, true},
		{Regex, `\cA`, true},
		{Regex, `\a`, false},
		{Regex, `\\a`, true},
		{Regex, `(?i)a`, false},
		{Regex, `(?#x)a`, false},
		{Regex, `(?P<n>a)`, false},
		{Regex, `[a-z`, false},
		{URITemplate, "http://example.com/{id}/{?q,r*}{#frag}{/p:3}", true},
		{URITemplate, "a'b", true},
		{URITemplate, "{}", false},
		{URITemplate, "{a,}", false},
		{URITemplate, "{a..b}", false},
		{URITemplate, "a b", false},
		{URITemplate, "{v:1000}", true},
	}
	for _, tt := range tests {
		if err := tt.check(tt.in); (err == nil) != tt.ok {
			t.Errorf("%q: got %v, want ok=%v", tt.in, err, tt.ok)
		}
	}
}

func TestPunycode(t *testing.T) {
	// RFC 3492 section 7.1 (B): Chinese (simplified), and two ASCII-mixed
	// samples.
	for in, want := range map[string]string{
		"ihqwcrb4cv8a8dqg056pqjye":                 "他们为什么不说中文",
		"3B-ww4c5e180e575a65lsy2b":                 "3年B組金八先生",
		"-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n": "安室奈美恵-with-SUPER-MONKEYS",
	} {
		if got, err := Punycode(in); err != nil || got != want {
			t.Errorf("Punycode(%q) = %q, %v, want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"X", "a-", "99999999999999", "é-a"} {
		if got, err := Punycode(bad); err == nil {
			t.Errorf("Punycode(%q) = %q, want an error", bad, got)
		}
	}
}

func FuzzChecks(f *testing.F) {
	for _, s := range []string{"xn--9n2bp8q", "http://a@b/[x]", "P1Y2M", `(?<n>a)\k<n>`, "{a,b*}", "실례.테스트", "xn--zz9999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range Checks {
			_ = c(s)
		}
		for _, c := range Replacements {
			_ = c(s)
		}
		_ = Regex(s)
		if u, err := Punycode(s); err == nil && len([]rune(u)) > len(s) {
			t.Fatalf("Punycode(%q) = %q: more code points than input bytes", s, u)
		}
	})
}
