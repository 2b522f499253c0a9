package disclosure

import (
	"context"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"

	"github.com/proctorhq/proctor/internal/detect"
)

// benchText returns about n bytes of an assistant-style answer: prose,
// numbers, dates, versions and code, with one email, one phone number and
// one key-shaped value per kilobyte, so both the hot scan and the
// validators run.
func benchText(n int) string {
	const para = "Thanks for reaching out. I checked order 88213 placed on 2024-03-15 and it shipped " +
		"with version 1.2.3 of the firmware; build 10.0.19041.1 is also fine. The total was $1,234.56 " +
		"across 3 items, and the tracking page updates every 4 hours. If you need more help, write to " +
		"ana.lopez@corp-mail.io or call (415) 555-0132 between 9:00 and 17:00. Your config has " +
		"api_key = settings.API_KEY and max_tokens = 4096, which look right; the sample key " +
		"AKIAIOSFODNN7EXAMPLE from the docs is not a real one. Run `go test ./...` and compare the " +
		"results with the table in section 3.2. Zoë from support will follow up tomorrow with the " +
		"refund details, ratio 16:9, coordinates 37.7749, -122.4194, and ticket INV-2024-000123. "
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(para)
	}
	return b.String()[:n]
}

var benchSizes = []struct {
	name string
	n    int
}{{"1KB", 1 << 10}, {"64KB", 64 << 10}}

func BenchmarkNoPII(b *testing.B) {
	g := must(NewNoPII(NoPIIOptions{}))
	for _, sz := range benchSizes {
		s := &proctor.Sample{Output: benchText(sz.n)}
		b.Run(sz.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(sz.n))
			for b.Loop() {
				g.Grade(context.Background(), s)
			}
		})
	}
}

func BenchmarkNoSecrets(b *testing.B) {
	g := NewNoSecrets(NoSecretsOptions{})
	for _, sz := range benchSizes {
		s := &proctor.Sample{Output: benchText(sz.n)}
		b.Run(sz.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(sz.n))
			for b.Loop() {
				g.Grade(context.Background(), s)
			}
		})
	}
}

// BenchmarkDetectFind is the bare primitive under the two graders: the
// detector sets' Find, without building a Grade.
func BenchmarkDetectFind(b *testing.B) {
	pii, _ := detect.PII()
	sets := []struct {
		name string
		set  *detect.Set
	}{{"pii", pii}, {"secrets", detect.Secrets()}}
	for _, st := range sets {
		for _, sz := range benchSizes {
			text := benchText(sz.n)
			b.Run(st.name+"/"+sz.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(sz.n))
				for b.Loop() {
					st.set.Find(text)
				}
			})
		}
	}
}

func BenchmarkForbidden(b *testing.B) {
	g := must(NewForbidden([]string{"Globex", "Initech", "Zoë", "New York"}, ForbiddenOptions{}))
	for _, sz := range benchSizes {
		s := &proctor.Sample{Output: benchText(sz.n)}
		b.Run(sz.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(sz.n))
			for b.Loop() {
				g.Grade(context.Background(), s)
			}
		})
	}
}

// BenchmarkForbiddenWhiteSpace: an entity that starts with white space, on
// 64 KiB of spaces. Each run of white space is matched once from its
// start, so this costs about what ordinary text does (it took seconds when
// every space of the run started a match that read the rest of the run).
func BenchmarkForbiddenWhiteSpace(b *testing.B) {
	g := must(NewForbidden([]string{" x", "a b"}, ForbiddenOptions{}))
	s := &proctor.Sample{Output: strings.Repeat(" ", 64<<10)}
	b.SetBytes(int64(len(s.Output)))
	for b.Loop() {
		g.Grade(context.Background(), s)
	}
}
