package workload

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// member is one key of a JSON object; obj keeps the keys in order.
type member struct {
	key string
	val any // nil, bool, int, float64, string, []any or obj
}

type obj []member

// fields are the optional members of a generated object, each with how its
// value is drawn. An object takes a random selection of them in a random
// order.
var fields = []struct {
	key  string
	draw func(g *gen) any
}{
	{"name", func(g *gen) any { return g.person() }},
	{"title", func(g *gen) any { return g.phrase() }},
	{"summary", func(g *gen) any { return g.sentence() }},
	{"description", func(g *gen) any { return g.paragraph() }},
	{"category", func(g *gen) any { return g.one(vocab.words) }},
	{"priority", func(g *gen) any { return g.one([]string{"low", "medium", "high", "urgent"}) }},
	{"created_at", func(g *gen) any { return g.timestamp() }},
	{"updated_at", func(g *gen) any { return g.timestamp() }},
	{"owner", func(g *gen) any { return g.person() }},
	{"email", func(g *gen) any {
		first := strings.ToLower(g.one(vocab.firstNames))
		last := strings.ToLower(g.one(vocab.lastNames))
		return first + "." + last + "@example.com"
	}},
	{"country", func(g *gen) any { return g.one([]string{"FR", "JP", "DE", "ES", "PT", "KE", "CA", "AU", "KR", "PE"}) }},
	{"city", func(g *gen) any { return g.one(vocab.cities) }},
	{"language", func(g *gen) any { return g.one([]string{"en", "fr", "ja", "de", "es", "pt"}) }},
	{"confidence", func(g *gen) any { return g.milli() }},
	{"tokens_used", func(g *gen) any { return g.in(50, 8000) }},
	{"is_active", func(g *gen) any { return g.odds(0.7) }},
	{"retries", func(g *gen) any { return g.below(4) }},
	{"tags", func(g *gen) any { return g.words(g.in(1, 6), vocab.words) }},
	{"rating", func(g *gen) any { return float64(g.in(10, 50)) / 10 }},
	{"price", func(g *gen) any { return g.amount() }},
	{"currency", func(g *gen) any { return g.one([]string{"EUR", "USD", "JPY", "GBP"}) }},
	{"quantity", func(g *gen) any { return g.in(1, 250) }},
	{"sku", func(g *gen) any { return fmt.Sprintf("SKU-%05d", g.below(100000)) }},
	{"notes", func(g *gen) any { return g.paragraph() }},
	{"source", func(g *gen) any { return g.one([]string{"web", "email", "api", "chat", "phone"}) }},
	{"url", func(g *gen) any {
		w := g.one(vocab.words)
		return "https://example.com/" + w + "/" + strconv.Itoa(g.below(10000))
	}},
	{"version", func(g *gen) any {
		major := g.below(4)
		minor := g.below(20)
		return fmt.Sprintf("%d.%d.%d", major, minor, g.below(50))
	}},
	{"region", func(g *gen) any { return g.one([]string{"eu-west-1", "us-east-1", "ap-northeast-1", "sa-east-1"}) }},
	{"sentiment", func(g *gen) any { return g.one([]string{"positive", "neutral", "negative"}) }},
	{"entities", func(g *gen) any { return g.words(g.in(1, 5), vocab.cities) }},
	{"steps", func(g *gen) any { return g.list2(g.in(2, 4), g.phrase) }},
	{"duration_ms", func(g *gen) any { return g.in(5, 30000) }},
	{"error", func(g *gen) any {
		if g.odds(0.8) {
			return nil
		}
		return "timeout after " + strconv.Itoa(g.in(1, 60)) + "s"
	}},
	{"warnings", func(g *gen) any { return g.list2(g.below(3), g.phrase) }},
	{"count", func(g *gen) any { return g.below(1000) }},
	{"total", func(g *gen) any { return g.amount() }},
	{"address", func(g *gen) any {
		number := g.in(1, 300)
		street := fmt.Sprintf("%d %s Street", number, g.one(vocab.lastNames))
		city := g.one(vocab.cities)
		return obj{{"street", street}, {"city", city}, {"zip", fmt.Sprintf("%05d", g.below(100000))}}
	}},
	{"user", func(g *gen) any {
		name := g.person()
		role := g.one([]string{"admin", "editor", "viewer"})
		return obj{{"name", name}, {"role", role}, {"verified", g.odds(0.5)}}
	}},
	{"usage", func(g *gen) any {
		prompt := g.in(10, 4000)
		completion := g.in(10, 1500)
		return obj{{"prompt_tokens", prompt}, {"completion_tokens", completion}, {"total_tokens", prompt + completion}}
	}},
	{"location", func(g *gen) any {
		lat := float64(g.in(-9000, 9000)) / 100
		return obj{{"lat", lat}, {"lon", float64(g.in(-18000, 18000)) / 100}}
	}},
	{"scores", func(g *gen) any {
		xs := make([]any, g.in(2, 6))
		for i := range xs {
			xs[i] = g.milli()
		}
		return xs
	}},
	{"phone", func(g *gen) any {
		cc := g.in(1, 99)
		area := g.below(1000)
		return fmt.Sprintf("+%d %03d %04d", cc, area, g.below(10000))
	}},
	{"department", func(g *gen) any { return g.one([]string{"sales", "support", "engineering", "finance"}) }},
	{"reason", func(g *gen) any { return g.sentence() }},
	{"answer", func(g *gen) any { return g.expand(g.one(vocab.answers)) }},
	{"explanation", func(g *gen) any { return g.paragraph() }},
	{"references", func(g *gen) any {
		return g.list2(g.in(1, 3), func() string { return "https://example.org/doc/" + strconv.Itoa(g.below(999)) })
	}},
	{"label", func(g *gen) any { return g.one([]string{"spam", "ham", "unsure"}) }},
	{"verified", func(g *gen) any { return g.odds(0.5) }},
	{"cached", func(g *gen) any { return g.odds(0.3) }},
	{"parent_id", func(g *gen) any {
		if g.odds(0.6) {
			return nil
		}
		return g.requestID()
	}},
	{"keywords", func(g *gen) any { return g.words(g.in(2, 6), vocab.words) }},
	{"department_code", func(g *gen) any { return g.in(100, 999) }},
	{"discount", func(g *gen) any { return g.milli() }},
	{"in_stock", func(g *gen) any { return g.odds(0.8) }},
	{"timezone", func(g *gen) any { return g.one([]string{"Europe/Paris", "Asia/Tokyo", "UTC", "America/Toronto"}) }},
	{"subtitle", func(g *gen) any { return g.phrase() }},
	{"weight_kg", func(g *gen) any { return float64(g.in(1, 5000)) / 100 }},
	{"color", func(g *gen) any { return g.one([]string{"red", "green", "blue", "black", "white"}) }},
	{"attempt", func(g *gen) any { return g.in(1, 5) }},
}

func (g *gen) person() string {
	first := g.one(vocab.firstNames)
	return first + " " + g.one(vocab.lastNames)
}

// phrase is a sentence, cut short half the time.
func (g *gen) phrase() string {
	s := g.sentence()
	if g.odds(0.5) {
		s = trimToSpace(s, g.in(15, 40))
	}
	return s
}

func (g *gen) timestamp() string {
	y := g.in(20, 25)
	mo := g.in(1, 12)
	d := g.in(1, 28)
	h := g.below(24)
	mi := g.below(60)
	return fmt.Sprintf("20%02d-%02d-%02dT%02d:%02d:%02dZ", y, mo, d, h, mi, g.below(60))
}

func (g *gen) requestID() string { return fmt.Sprintf("req-%08x", g.u64()&0xffffffff) }

// amount is a price with cents, from 1.00 to 999.99.
func (g *gen) amount() any { return float64(g.in(100, 99999)) / 100 }

// milli is a number in [0, 1] with three decimals.
func (g *gen) milli() any { return float64(g.below(1001)) / 1000 }

func (g *gen) words(n int, from []string) []any {
	return g.list2(n, func() string { return g.one(from) })
}

func (g *gen) list2(n int, draw func() string) []any {
	xs := make([]any, n)
	for i := range xs {
		xs[i] = draw()
	}
	return xs
}

// object returns an object of 10 to 40 members whose compact encoding is
// about size bytes: id, status and metadata (which the benchmark schema
// checks), then optional fields in random order.
func (g *gen) object(size int) obj {
	id := g.requestID()
	status := g.one(vocab.statuses)
	model := g.one(vocab.models)
	version := g.in(1, 5)
	score := g.milli()
	o := obj{
		{"id", id},
		{"status", status},
		{"metadata", obj{{"model", model}, {"version", version}, {"score", score}, {"latency_ms", g.in(20, 9000)}}},
	}
	order := make([]int, len(fields))
	for i := range order {
		order[i] = i
	}
	for i := len(order) - 1; i > 0; i-- {
		j := g.below(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	for _, i := range order {
		if len(o) >= 40 || len(o) >= 10 && len(o.encode(false)) >= size {
			break
		}
		o = append(o, member{fields[i].key, fields[i].draw(g)})
	}
	return o
}

// breakSchema returns a copy of o that the benchmark schema refuses.
func (g *gen) breakSchema(o obj) obj {
	o = o.clone()
	switch g.below(6) {
	case 0:
		o[1].val = "unknown"
	case 1:
		o[2].val.(obj)[1].val = "2"
	case 2:
		o[2].val.(obj)[2].val = 1.25
	case 3:
		if len(o) > 10 {
			o = append(o[:2:2], o[3:]...)
		} else {
			o[1].val = "done"
		}
	case 4:
		o[0].val = "request-" + strconv.Itoa(g.below(1000))
	case 5:
		o[1].val = 404
	}
	return o
}

// drift returns a copy of o with k optional values drawn again, as a model
// answer strays from its reference.
func (g *gen) drift(o obj, k int) obj {
	o = o.clone()
	for range k {
		at := 3 + g.below(len(o)-3)
		for _, f := range fields {
			if f.key == o[at].key {
				o[at].val = f.draw(g)
				break
			}
		}
	}
	return o
}

func (o obj) clone() obj {
	c := make(obj, len(o))
	for i, m := range o {
		if sub, ok := m.val.(obj); ok {
			m.val = sub.clone()
		}
		c[i] = m
	}
	return c
}

// encode writes o as JSON: compact, or indented by two spaces.
func (o obj) encode(pretty bool) string {
	var b strings.Builder
	writeJSON(&b, o, pretty, 0)
	return b.String()
}

func writeJSON(b *strings.Builder, v any, pretty bool, depth int) {
	newline := func(d int) {
		if pretty {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat("  ", d))
		}
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case float64:
		b.WriteString(strconv.FormatFloat(x, 'f', -1, 64))
	case string:
		writeString(b, x)
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(depth + 1)
			writeJSON(b, e, pretty, depth+1)
		}
		newline(depth)
		b.WriteByte(']')
	case obj:
		b.WriteByte('{')
		for i, m := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(depth + 1)
			writeString(b, m.key)
			b.WriteByte(':')
			if pretty {
				b.WriteByte(' ')
			}
			writeJSON(b, m.val, pretty, depth+1)
		}
		newline(depth)
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("workload: no JSON form for %T", v))
	}
}

// writeString quotes s as encoding/json does by default (HTML characters
// escaped), which the recorded workload bytes depend on.
func writeString(b *strings.Builder, s string) {
	q, _ := json.Marshal(s)
	b.Write(q)
}
