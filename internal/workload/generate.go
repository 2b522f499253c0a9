package workload

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The benchmark workload: Samples lines, from Seed. SHA256 is the hash of
// the file Generate writes with these values; the benchmarks refuse any
// other file, so every figure in BENCHMARKS.md is measured on these bytes.
const (
	Samples = 20000
	Seed    = 20240611
	SHA256  = "30998d585ee09a3e9433e6597f969085090fcf9d94edbe012c5eebb17d1ccb5a"
)

// Output lengths, in bytes, that every sample's output stays within.
const (
	shortest = 200
	longest  = 2000
)

// Generate writes n samples drawn from seed to w, one JSON object per line
// ({"id","output","expected","kind"}). The bytes depend only on n and seed:
// the generator is its own splitmix64, not math/rand, so that a Go release
// cannot change the workload.
//
// Kinds: "prose" is a Markdown-like answer with a reference answer as
// expected (45% end in an "Answer:" or "Final answer:" line); "json" is a
// bare object of 10 to 40 fields; "json_fenced" is such an object in a
// ```json fence, sometimes with prose around it; "json_invalid" is a
// broken one (cut short, a trailing comma, single quotes, Python
// literals). For the JSON kinds expected is the reference object, compact.
func Generate(w io.Writer, n int, seed uint64) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	g := &gen{state: seed}
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i := range n {
		s := Sample{ID: fmt.Sprintf("s%05d", i)}
		x := g.unit()
		switch {
		case x < 0.50:
			s.Kind = "prose"
			s.Output, s.Expected = g.proseSample()
		case x < 0.75:
			s.Kind = "json"
		case x < 0.92:
			s.Kind = "json_fenced"
		default:
			s.Kind = "json_invalid"
		}
		if s.Kind != "prose" {
			s.Output, s.Expected = g.jsonSample(s.Kind)
		}
		if err := enc.Encode(&s); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// gen is a splitmix64 stream with the helpers the generator draws from.
// Every draw advances the stream, so the order of calls is the format.
type gen struct{ state uint64 }

func (g *gen) u64() uint64 {
	g.state += 0x9E3779B97F4A7C15
	z := g.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// below returns an integer in [0, n).
func (g *gen) below(n int) int { return int((g.u64() >> 11) % uint64(n)) }

// unit returns a float in [0, 1) with 53 random bits.
func (g *gen) unit() float64 { return float64(g.u64()>>11) / (1 << 53) }

// in returns an integer in [lo, hi].
func (g *gen) in(lo, hi int) int { return lo + g.below(hi-lo+1) }

// odds reports true with probability p.
func (g *gen) odds(p float64) bool { return g.unit() < p }

// one returns an element of xs.
func (g *gen) one(xs []string) string { return xs[g.below(len(xs))] }

// expand replaces the placeholders %CITY%, %NUM% and %YEAR% in s, one at a
// time and in that order of kinds.
func (g *gen) expand(s string) string {
	for _, p := range []struct {
		mark string
		draw func() string
	}{
		{"%CITY%", func() string { return g.one(vocab.cities) }},
		{"%NUM%", func() string { return strconv.Itoa(g.in(2, 95)) }},
		{"%YEAR%", func() string { return strconv.Itoa(g.in(2015, 2025)) }},
	} {
		for strings.Contains(s, p.mark) {
			s = strings.Replace(s, p.mark, p.draw(), 1)
		}
	}
	return s
}

// sentence is a connector, subject, verb, object and tail, capitalised.
func (g *gen) sentence() string {
	conn, subj := g.one(vocab.connectors), g.one(vocab.subjects)
	if conn != "" && !strings.HasPrefix(subj, "The city") && !strings.HasPrefix(subj, "The regional") {
		subj = strings.ToLower(subj[:1]) + subj[1:]
	}
	verb := g.one(vocab.verbs)
	obj := g.one(vocab.objects)
	tail := g.one(vocab.tails)
	s := g.expand(conn + subj + " " + verb + " " + obj + tail + ".")
	if c := s[0]; 'a' <= c && c <= 'z' {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

func (g *gen) paragraph() string {
	ss := make([]string, g.in(2, 5))
	for i := range ss {
		ss[i] = g.sentence()
	}
	return strings.Join(ss, " ")
}

func (g *gen) list() string {
	n := g.in(2, 5)
	numbered := g.odds(0.4)
	lines := make([]string, n)
	for i := range lines {
		if numbered {
			lines[i] = strconv.Itoa(i+1) + ". " + g.sentence()
		} else {
			h := g.one(vocab.headings)
			lines[i] = "- **" + h + ":** " + g.sentence()
		}
	}
	return strings.Join(lines, "\n")
}

// answer returns a prose answer of about want bytes, within
// [shortest, longest].
func (g *gen) answer(want int) string {
	parts := []string{g.one(vocab.openers)}
	size := len(parts[0])
	for size < want {
		var p string
		x := g.unit()
		switch {
		case x < 0.6:
			p = g.paragraph()
		case x < 0.85:
			p = g.list()
		default:
			h := g.one(vocab.headings)
			p = "### " + h + "\n" + g.paragraph()
		}
		parts = append(parts, p)
		size += len(p) + 2
	}
	if g.odds(0.5) {
		parts = append(parts, g.one(vocab.closers))
	}
	if g.odds(0.1) {
		// An "Answer:" line mid-text: a trap for an unanchored pattern.
		at := 1 + g.below(len(parts))
		line := "Answer: " + g.expand(g.one(vocab.answers)) + " (see below)"
		parts = append(parts[:at], append([]string{line}, parts[at:]...)...)
	}
	text := g.fit(strings.Join(parts, "\n\n"))
	if !g.odds(0.45) {
		return text
	}
	label := "Final answer"
	if g.odds(0.3) {
		label = "Answer"
	}
	last := "\n\n" + label + ": " + g.expand(g.one(vocab.answers))
	if g.odds(0.5) {
		last += "."
	}
	if g.odds(0.3) {
		last += "\n"
	}
	if len(text)+len(last) > longest {
		text = trimToSpace(text, longest-len(last))
	}
	return text + last
}

// trimToSpace cuts s to at most n bytes, at the last space when that keeps
// at least half, and drops trailing spaces and newlines.
func trimToSpace(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
	}
	return strings.TrimRight(s[:cut], " \n")
}

// fit pads s with sentences up to shortest and cuts it to longest.
func (g *gen) fit(s string) string {
	for len(s) < shortest {
		s += " " + g.sentence()
	}
	return trimToSpace(s, longest)
}

// paraphrase replaces, drops or adds a filler before about rate of the
// words of s.
func (g *gen) paraphrase(s string, rate float64) string {
	words := strings.Split(s, " ")
	out := make([]string, 0, len(words)+8)
	for _, w := range words {
		if !g.odds(rate) {
			out = append(out, w)
			continue
		}
		switch g.below(3) {
		case 0:
			keep := ""
			if i := strings.IndexAny(w, ".,:\n"); i >= 0 {
				keep = w[i:]
			}
			out = append(out, g.one(vocab.fillers)+keep)
		case 1:
		case 2:
			out = append(out, g.one(vocab.fillers), w)
		}
	}
	return strings.Join(out, " ")
}

func (g *gen) proseSample() (output, expected string) {
	ref := g.answer(g.in(shortest, longest))
	x := g.unit()
	switch {
	case x < 0.05:
		return ref, ref
	case x < 0.20:
		return g.answer(g.in(shortest, longest)), ref
	}
	out := g.paraphrase(ref, 0.03+0.3*g.unit())
	for len(out) < shortest {
		out += " " + g.sentence()
	}
	return trimToSpace(out, longest), ref
}

func (g *gen) jsonSample(kind string) (output, expected string) {
	for {
		ref := g.object(g.in(shortest, longest*3/4))
		got := ref
		if g.odds(0.25) {
			got = g.breakSchema(got)
		}
		if k := g.below(5); k > 0 {
			got = g.drift(got, k)
		}
		pretty := g.odds(0.7) || kind == "json_fenced"
		text := got.encode(pretty)
		switch kind {
		case "json_fenced":
			before := g.one(vocab.fenceBefore)
			if !strings.HasSuffix(before, "```json\n") {
				before += "```json\n"
			}
			text = before + text + "\n```" + g.one(vocab.fenceAfter)
		case "json_invalid":
			text = g.corrupt(text)
		}
		if shortest <= len(text) && len(text) <= longest {
			return text, ref.encode(false)
		}
	}
}

// corrupt breaks JSON text in one of four ways a model does.
func (g *gen) corrupt(s string) string {
	switch g.below(4) {
	case 0:
		return s[:len(s)*g.in(50, 95)/100]
	case 1:
		end := strings.LastIndexByte(s, '}')
		return strings.TrimRight(s[:end], " \n") + ",\n}"
	case 2:
		s = strings.Replace(s, `"id"`, `'id'`, 1)
		return strings.Replace(s, `"status"`, `'status'`, 1)
	}
	py := strings.ReplaceAll(strings.ReplaceAll(s, "true", "True"), "null", "None")
	if py == s {
		py = strings.Replace(s, `"ok"`, `ok`, 1)
	}
	if py == s {
		py = s + "}"
	}
	return py
}
