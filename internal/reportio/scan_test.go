package reportio

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// chunkReader hands its data over n bytes at a time, so values straddle
// the scanner's reads.
type chunkReader struct {
	data []byte
	n    int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.data)
	c.data = c.data[k:]
	return k, nil
}

// scanAll reads data as a stream of JSON values with the scanner, n bytes
// a read.
func scanAll(data []byte, n int) (vals []string, err error) {
	s := newScanner(&chunkReader{data: data, n: n})
	s.buf = make([]byte, 0, 8) // small, to grow
	for {
		if _, err := s.peek(); err == io.EOF {
			return vals, nil
		}
		v, err := s.value()
		if err != nil {
			return vals, err
		}
		vals = append(vals, string(v))
	}
}

// decodeAll reads data as a stream of JSON values with encoding/json's
// Decoder.
func decodeAll(data []byte) (vals []string, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err == io.EOF {
			return vals, nil
		} else if err != nil {
			return vals, err
		}
		vals = append(vals, string(v))
	}
}

// errText is an error's message as encoding/json and the scanner share it.
func errText(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected EOF"
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	return strings.TrimPrefix(msg, "not valid JSON: ")
}

func TestScanner(t *testing.T) {
	for _, in := range []string{
		`{"a":[1,-2.5e+3,"x\"\\\u00e9",true,false,null,{}],"b":{"c":[]}}`,
		` 1 2 [3]"s"{} `,
		`[1,]`, `{"a":1,}`, `{"a" 1}`, `{"a":1 "b":2}`, `[1 2]`, `01`, `-`, `1.`, `1e`, `1e+`, `-x`,
		`tru`, `trux`, `nul`, `"\x"`, `"\u12g4"`, "\"\x01\"", `"abc`, `[`, `{`, `{"a"`, `]`, `}`, `,`,
		"\"\xff\xfe\"", strings.Repeat("[", 10001), strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	} {
		for _, n := range []int{1, 3, 1 << 20} {
			got, gerr := scanAll([]byte(in), n)
			want, werr := decodeAll([]byte(in))
			if strings.Join(got, "\x00") != strings.Join(want, "\x00") || (gerr == nil) != (werr == nil) ||
				(gerr != nil && errText(gerr) != errText(werr)) {
				t.Errorf("%.40q by %d: scanner %q, %v; encoding/json %q, %v", in, n, got, gerr, want, werr)
			}
		}
	}
}

// FuzzScanner: the scanner splits any bytes into the values
// encoding/json's Decoder reads, and fails where it fails, with its
// message; it never panics or hangs.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e3,"x\"y"]}`, `[1,]`, ` 1 2 "s"`, `{"a":tru}`, `"\u00zz"`, `[[[]]]`, `-0.0e-0`} {
		f.Add([]byte(s), uint8(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		got, gerr := scanAll(data, int(n)+1)
		want, werr := decodeAll(data)
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("scanner %q, encoding/json %q", got, want)
		}
		if (gerr == nil) != (werr == nil) || (gerr != nil && errText(gerr) != errText(werr)) {
			t.Fatalf("scanner error %v, encoding/json %v", gerr, werr)
		}
	})
}

// FuzzDecodeVerdict: for any valid JSON, DecodeVerdict gives what
// encoding/json decodes into a Verdict, or fails where it fails.
func FuzzDecodeVerdict(f *testing.F) {
	for _, s := range []string{`{"id":"a","verdict":"passed"}`, `{"ID":"a","verdict":"failed"}`, `{"id":"\u00e9","verdict":"passed","id":"b"}`,
		`{"verdict":"passed","x":[1,{"id":"no"}],"id":"c"}`, `{"id":null,"verdict":"passed"}`, `{"Verdict":"failed","verdict":"passed","id":"d"}`,
		`{"id":"e","verdict":"nope"}`, `{"id":"f","severity":"high","split":"dev","cluster":"k"}`, `{"id":7}`, `{"split":null,"severity":""}`, `[1]`, " \n {\"id\":\"g\"} "} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want Verdict
		werr := json.Unmarshal(data, &want)
		if _, err := scanValue(bytes.TrimLeft(data, " \t\r\n"), true); err != nil && werr == nil {
			t.Fatalf("scanner refuses what encoding/json reads: %v", err)
		}
		if !json.Valid(data) {
			return
		}
		got, err := DecodeVerdict(data)
		if (err == nil) != (werr == nil) || (err == nil && got != want) {
			t.Fatalf("DecodeVerdict %+v, %v; encoding/json %+v, %v", got, err, want, werr)
		}
		id, passed, _ := IDVerdict(data)
		if err == nil && (id != want.ID || passed != (want.Verdict == proctor.StatusPassed)) {
			t.Fatalf("IDVerdict %q %v, want %q %v", id, passed, want.ID, want.Verdict)
		}
	})
}
