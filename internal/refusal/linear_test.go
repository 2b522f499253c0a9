package refusal

import (
	"fmt"
	"strings"
	"testing"
)

// quoteEndQuadratic is the former quotation finder, which searched the
// rest of the paragraph from every opener: the reference that
// quoteScanner.end must agree with.
func quoteEndQuadratic(s string, i int) int {
	var closer string
	n := 1
	switch {
	case s[i] == '"':
		closer = "\""
	case s[i] == '`':
		closer = "`"
	case strings.HasPrefix(s[i:], "\u201c"):
		closer, n = "\u201d", len("\u201c")
	default:
		return -1
	}
	rest := s[i+n:]
	para := len(rest)
	if k := strings.Index(rest, "\n\n"); k >= 0 {
		para = k
	}
	j := strings.Index(rest[:para], closer)
	if closer == "\u201d" {
		if k := strings.Index(rest[:para], "\""); k >= 0 && (j < 0 || k < j) {
			j, closer = k, "\""
		}
	} else if closer == "\"" {
		if k := strings.Index(rest[:para], "\u201d"); k >= 0 && (j < 0 || k < j) {
			j, closer = k, "\u201d"
		}
	}
	if j < 0 {
		return -1
	}
	return i + n + j + len(closer)
}

// FuzzQuoteScanner checks the one-pass scanner against the reference on
// the offsets unquote visits.
func FuzzQuoteScanner(f *testing.F) {
	for _, s := range []string{`a "b" c`, "“x” “y\n\nz”", "`a` \"b”", "\"\"\"", "“\"”"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := quoteScanner{s: s, next: map[string]int{}}
		for i := 0; i < len(s); {
			got, want := q.end(i), quoteEndQuadratic(s, i)
			if got != want {
				t.Fatalf("%q at %d: end %d, want %d", s, i, got, want)
			}
			if got < 0 {
				i++
			} else {
				i = got
			}
		}
	})
}

// BenchmarkDetectUnpairedQuotes times Detect on text of unpaired opening
// quote marks, 75 KB, 300 KB and 1.2 MB: ns/byte stays flat when the
// work is linear (the quadratic finder took 36 s at 1.2 MB).
func BenchmarkDetectUnpairedQuotes(b *testing.B) {
	for _, scale := range []int{1, 4, 16} {
		for name, unit := range map[string]string{"curly": "\u201c", "straight": `x"`, "mixed": "I can't “help` with \"that. "} {
			text := strings.Repeat(unit, scale*75_000/len(unit))
			b.Run(fmt.Sprintf("%s/%dx", name, scale), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					Detect(text)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(text)), "ns/byte")
			})
		}
	}
}
