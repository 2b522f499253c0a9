package main

import (
	"strconv"
	"strings"
	"testing"
)

// BenchmarkScanStringEscapes measures the fast path's string scanner on a
// line-sized string dense with one-letter escapes, beside strconv.Unquote
// on the same text (its escapes mean the same in Go and JSON).
func BenchmarkScanStringEscapes(b *testing.B) {
	s := `"` + strings.Repeat(`say \"hi\"\n\tand a path a\/b\\c; `, 64) + `"`
	b.Run("scanString", func(b *testing.B) {
		var scratch []byte
		b.SetBytes(int64(len(s)))
		in := []byte(s)
		for b.Loop() {
			if _, _, ok := scanString(in, 0, &scratch); !ok {
				b.Fatal("not decoded")
			}
		}
	})
	b.Run("strconv.Unquote", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			if _, err := strconv.Unquote(strings.ReplaceAll(s, `\/`, `/`)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
