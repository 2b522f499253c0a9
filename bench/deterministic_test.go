package bench_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
	"github.com/proctorhq/proctor/internal/race"
)

var benchCtx = context.Background()

// sampleOut is a sample with only an output.
func sampleOut(out string) *proctor.Sample { return &proctor.Sample{Output: out} }

func BenchmarkChoice(b *testing.B) {
	proctest.BenchGrade(b, must(proctor.NewChoice(proctor.ChoiceOptions{Expected: "B"})), sampleOut(proctest.Prose1K(" Answer: B")), proctor.StatusPassed)
}

// BenchmarkChoiceBareRegexp is the primitive: one answer-marker regexp over
// the same text.
func BenchmarkChoiceBareRegexp(b *testing.B) {
	re := regexp.MustCompile(`(?i)answer\s*:?\s*\(?([A-E])\b`)
	s := proctest.Prose1K(" Answer: B")
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		re.FindAllStringSubmatch(s, -1)
	}
}

func BenchmarkNumeric(b *testing.B) {
	proctest.BenchGrade(b, must(proctor.NewNumeric(proctor.NumericOptions{Expected: proctor.Ptr(1234.5), AbsTol: 0.01})), sampleOut(proctest.Prose1K(" Total: $1,234.50.")), proctor.StatusPassed)
}

// BenchmarkNumericBareRegexp is the naive primitive: every number by a
// regexp, the last parsed with strconv.
func BenchmarkNumericBareRegexp(b *testing.B) {
	re := regexp.MustCompile(`[-+]?\d[\d,]*(?:\.\d+)?`)
	s := proctest.Prose1K(" Total: $1,234.50.")
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		all := re.FindAllString(s, -1)
		_, _ = strconv.ParseFloat(strings.ReplaceAll(all[len(all)-1], ",", ""), 64)
	}
}

func BenchmarkRefused(b *testing.B) {
	proctest.BenchGrade(b, proctor.NewNotRefused(proctor.RefusedOptions{}), sampleOut(proctest.Prose1K("")), proctor.StatusPassed)
}

// BenchmarkRefusedBareContains is the naive primitive: lower-case the text
// and look for one phrase.
func BenchmarkRefusedBareContains(b *testing.B) {
	s := proctest.Prose1K("")
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = strings.Contains(strings.ToLower(s), "i can't help")
	}
}

func BenchmarkLength(b *testing.B) {
	proctest.BenchGrade(b, must(proctor.NewLength(proctor.LengthOptions{MaxChars: proctor.Ptr(2000), MaxWords: proctor.Ptr(400)})), sampleOut(proctest.Prose1K("")), proctor.StatusPassed)
}

// BenchmarkLengthBare is the primitive: count runes and fields.
func BenchmarkLengthBare(b *testing.B) {
	s := proctest.Prose1K("")
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = utf8.RuneCountInString(s)
		_ = len(strings.Fields(s))
	}
}

func BenchmarkBlocklist(b *testing.B) {
	proctest.BenchGrade(b, must(proctor.NewBlocklist([]string{"darn", "heck", "confidential"}, proctor.BlocklistOptions{})), sampleOut(proctest.Prose1K("")), proctor.StatusPassed)
}

// BenchmarkBlocklistBareRegexp is the primitive: one ASCII-boundary regexp.
func BenchmarkBlocklistBareRegexp(b *testing.B) {
	re := regexp.MustCompile(`(?i)\b(?:darn|heck|confidential)\b`)
	s := proctest.Prose1K("")
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		re.MatchString(s)
	}
}

func BenchmarkLatencyThreshold(b *testing.B) {
	g, _ := proctor.NewLatencyThreshold(time.Second, proctor.LatencyThresholdOptions{})
	s := sampleOut(proctest.Prose1K(""))
	s.Metrics.LatencyMS = proctor.Ptr(120.0)
	proctest.BenchGrade(b, g, s, proctor.StatusPassed)
}

func BenchmarkTokenThreshold(b *testing.B) {
	g, _ := proctor.NewTokenThreshold(500, proctor.TokenThresholdOptions{Field: proctor.TokenTotal})
	s := sampleOut(proctest.Prose1K(""))
	s.Metrics.TotalTokens = proctor.Ptr(260.0)
	proctest.BenchGrade(b, g, s, proctor.StatusPassed)
}

func BenchmarkCostThreshold(b *testing.B) {
	g, _ := proctor.NewCostThreshold(0.05, proctor.CostThresholdOptions{})
	s := sampleOut(proctest.Prose1K(""))
	s.Metrics.CostUSD = proctor.Ptr(0.0143)
	proctest.BenchGrade(b, g, s, proctor.StatusPassed)
}

func BenchmarkHTTPStatus(b *testing.B) {
	g, _ := proctor.NewHTTPStatus([]int{200, 201}, proctor.HTTPStatusOptions{})
	s := sampleOut(proctest.Prose1K(""))
	s.HTTPStatus = 201
	proctest.BenchGrade(b, g, s, proctor.StatusPassed)
}

func BenchmarkTemplateRender(b *testing.B) {
	t := proctor.MustTemplate("Question: {{input}}\nReference: {{item.section}}\nAnswer: {{sample.output_text}}")
	s := &proctor.Sample{Input: "Summarise the section.", Output: proctest.Prose1K(""), Item: map[string]any{"section": "Section 4.2 text"}}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = t.Render(s)
	}
}

// BenchmarkTemplateRenderBareReplacer is the primitive: a strings.Replacer
// built per sample.
func BenchmarkTemplateRenderBareReplacer(b *testing.B) {
	src := "Question: {{input}}\nReference: {{item.section}}\nAnswer: {{sample.output_text}}"
	out := proctest.Prose1K("")
	b.ReportAllocs()
	for b.Loop() {
		strings.NewReplacer("{{input}}", "Summarise the section.", "{{item.section}}", "Section 4.2 text", "{{sample.output_text}}", out).Replace(src)
	}
}

func BenchmarkParseTemplate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = proctor.ParseTemplate("Section:\n{ {item.section} }\n\nSummary:\n{{ sample.output_text }}")
	}
}

// TestDeterministicAllocs pins the allocation promises of the passing path.
func TestDeterministicAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation counts differ under -race")
	}
	lat, _ := proctor.NewLatencyThreshold(time.Second, proctor.LatencyThresholdOptions{})
	s := sampleOut(proctest.Prose1K(""))
	s.Metrics.LatencyMS = proctor.Ptr(120.0)
	s.Item = map[string]any{"answer": s.Output}
	tests := []struct {
		name string
		g    proctor.Grader
		max  float64
	}{
		{"length", must(proctor.NewLength(proctor.LengthOptions{MaxChars: proctor.Ptr(2000), MaxWords: proctor.Ptr(400)})), 0},
		{"latency_threshold", lat, 0},
		{"blocklist", must(proctor.NewBlocklist([]string{"darn", "heck"}, proctor.BlocklistOptions{})), 0},
	}
	for _, tt := range tests {
		got := testing.AllocsPerRun(20, func() { tt.g.Grade(benchCtx, s) })
		if got > tt.max {
			t.Errorf("%s: %v allocations per passing grade, want at most %v", tt.name, got, tt.max)
		}
	}
}

// BenchmarkRefusedScaling grades not_refused on 1x, 4x and 16x 16 KiB of
// prose and of curly quote marks (the shape that made the grader
// quadratic). ns/op and B/op per input byte must stay flat across sizes.
func BenchmarkRefusedScaling(b *testing.B) {
	g := proctor.NewNotRefused(proctor.RefusedOptions{})
	for _, shape := range []string{"prose", "quotes"} {
		for _, k := range []int{1, 4, 16} {
			n := 16 << 10 * k
			out := strings.Repeat(proctest.Prose1K(""), n/1024+1)[:n]
			if shape == "quotes" {
				out = strings.Repeat("\u201c", n/3)
			}
			s := sampleOut(out)
			b.Run(fmt.Sprintf("%s/%dx", shape, k), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(out)))
				for b.Loop() {
					g.Grade(b.Context(), s)
				}
			})
		}
	}
}

// must returns v, or panics with err: for graders built from values the
// benchmark knows are valid.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
