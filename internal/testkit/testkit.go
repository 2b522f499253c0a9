// Package testkit holds test doubles and checks that tests of several
// packages share and that must import nothing of the module, so that the
// root package's own tests and those of the internal packages it imports
// can use them too: a scripted embedder and the round trip of a text enum.
package testkit

import (
	"context"
	"encoding"
	"sync/atomic"
	"testing"
)

// FakeEmbedder maps texts to fixed vectors and records its calls. It is
// an embedding provider (Embed) for tests: Err fails every call, Short
// returns one vector too few, and Gate, when set, holds each call until it
// is closed or the call's context ends.
type FakeEmbedder struct {
	Vecs  map[string][]float32
	Err   error
	Short bool
	Gate  chan struct{}
	// Calls and Texts count the calls made and the texts asked for.
	Calls atomic.Int32
	Texts atomic.Int32
}

// Embed returns the vector of each text, nil for a text Vecs lacks.
func (f *FakeEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	f.Calls.Add(1)
	f.Texts.Add(int32(len(texts)))
	if f.Gate != nil {
		select {
		case <-f.Gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if f.Err != nil {
		return nil, f.Err
	}
	out := make([][]float32, 0, len(texts))
	for _, t := range texts {
		out = append(out, f.Vecs[t])
	}
	if f.Short {
		out = out[1:]
	}
	return out, nil
}

// BatchFake is a FakeEmbedder that asks for batches of at most N texts.
type BatchFake struct {
	*FakeEmbedder
	N int
}

// MaxBatch returns b.N.
func (b BatchFake) MaxBatch() int { return b.N }

// Enum is a value that encodes as a word.
type Enum interface {
	encoding.TextMarshaler
	encoding.TextUnmarshaler
}

// EnumText round-trips every value of an enum through MarshalText and
// UnmarshalText: words[i] is the word of value(i), fresh returns a zero
// value to decode into. It also checks that an unknown word is an error
// that leaves the value unchanged, and that an unknown value (200) never
// encodes as one of the words.
func EnumText(t *testing.T, words []string, fresh func() Enum, value func(i int) Enum) {
	t.Helper()
	for i, w := range words {
		b, err := value(i).MarshalText()
		if err != nil || string(b) != w {
			t.Errorf("value %d: MarshalText got %q, %v, want %q", i, b, err, w)
		}
		got := fresh()
		if err := got.UnmarshalText([]byte(w)); err != nil {
			t.Errorf("UnmarshalText(%q): %v", w, err)
			continue
		}
		back, _ := got.MarshalText()
		if string(back) != w {
			t.Errorf("UnmarshalText(%q) decoded a value that encodes as %q", w, back)
		}
	}
	got := value(1)
	before, _ := got.MarshalText()
	if err := got.UnmarshalText([]byte("nonsense")); err == nil {
		t.Errorf("UnmarshalText(nonsense): got nil error, want one")
	}
	if after, _ := got.MarshalText(); string(after) != string(before) {
		t.Errorf("after a failed UnmarshalText got %q, want %q unchanged", after, before)
	}
	b, _ := value(200).MarshalText()
	for _, w := range words {
		if string(b) == w {
			t.Errorf("value 200 encodes as the word %q", w)
		}
	}
}

// TemplateItem is a sample's "item" field, as JSON text to splice into a
// sample, that the template tests of the root package and of the family
// packages read the values they compare with from ({{item.answer}} is
// Paris).
const TemplateItem = `"item":{"answer":"Paris","prefix":"Dear","sign":"Regards.","code":"A-17","letter":"C","n":"1,234.5","num":42,"ref":"the cat sat on the mat","aliases":["Paris","Lutetia"],"empty":"","regex":"a.+b","loc":"src/auth.go:10-24","obj":{"a":1}}`
