package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"hash/maphash"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ohler55/ojg/oj"
	"github.com/proctorhq/proctor"
)

// line is one decoded `proctor grade` input line.
type line struct {
	sample proctor.Sample
	// hasOutput is false when the line has no "output" string (absent or
	// null): such a line is not graded rather than graded as "".
	hasOutput bool
	// grader is the line's own "grader" value as compact JSON, nil when it
	// has none (or null). It is the key of the compiled-spec cache.
	grader []byte
}

// lineDecoder decodes input lines into samples, the way encoding/json and
// [proctor.Sample.UnmarshalJSON] do (FuzzDecodeLine holds it to that), but
// faster, in three tiers. Most lines are a flat object of strings (id,
// input, output, expected and keys nobody reads); [decodeFlat] takes those
// in one pass. Other lines go to ojg's tokenizer, which feeds a handler
// that fills the Sample's fields directly, without building maps. A line whose shape the handler
// does not take on (item, tool_calls, a non-string expected, id objects in
// references or context, a key that only matches a field ignoring case,
// escaped surrogates, invalid UTF-8, an ill-typed value) is decoded again
// by encoding/json, which then decides. A lineDecoder is reused line after
// line by one goroutine; it is not safe for concurrent use.
type lineDecoder struct {
	tok     oj.Tokenizer
	h       sampleHandler
	scratch []byte // unescaped strings, before they are copied out
}

// errNotObject is the reason for a line that is not a JSON object.
var errNotObject = errors.New("want a JSON object")

// decode decodes b into ln. On error ln.sample.ID holds the line's id when
// it could be read before the error.
func (d *lineDecoder) decode(b []byte, ln *line) error {
	*ln = line{}
	h := &d.h
	h.reset(ln)
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return errNotObject
	}
	if decodeFlat(b, ln, &d.scratch) {
		return nil
	}
	*ln = line{}
	h.reset(ln)
	slow := !utf8.Valid(b) || hasSurrogateEscape(b)
	if !slow {
		if err := d.tok.Parse(b, h); err != nil || !h.closed {
			slow = true
		}
		// The tokenizer is lenient in two ways encoding/json is not: it
		// takes a key with no value, and numbers such as "1." and "1.e5".
		// The first the handler sees; a line with numbers is checked.
		slow = slow || h.slow || h.pending || (h.numbers && !json.Valid(b))
		if !slow {
			return nil
		}
	}
	id := ln.sample.ID
	err := decodeSlow(b, ln)
	if err != nil && ln.sample.ID == "" {
		ln.sample.ID = id
	}
	return err
}

// hasSurrogateEscape reports whether b holds a \uD800-\uDFFF escape, which
// the tokenizer does not pair the way encoding/json does. (A false alarm,
// such as an escaped backslash before "ud", only costs the slow path.)
func hasSurrogateEscape(b []byte) bool {
	for {
		i := bytes.Index(b, []byte(`\u`))
		if i < 0 {
			return false
		}
		if i+2 < len(b) && b[i+2]|0x20 == 'd' {
			return true
		}
		b = b[i+2:]
	}
}

// decodeSlow decodes b with encoding/json: the reference behaviour.
func decodeSlow(b []byte, ln *line) error {
	*ln = line{}
	var extra struct {
		Output *string         `json:"output"`
		Grader json.RawMessage `json:"grader"`
	}
	if err := json.Unmarshal(b, &ln.sample); err != nil {
		var idOnly struct {
			ID any `json:"id"`
		}
		if json.Unmarshal(b, &idOnly) == nil {
			if s, ok := idOnly.ID.(string); ok {
				ln.sample.ID = s
			}
		}
		return err
	}
	if err := json.Unmarshal(b, &extra); err != nil {
		return err
	}
	if err := checkDuplicateKeys(b); err != nil {
		if err.(*duplicateKeyError).key == "id" {
			ln.sample.ID = "" // which one is meant is not known
		}
		return err
	}
	ln.hasOutput = extra.Output != nil
	if g := bytes.TrimSpace(extra.Grader); len(g) > 0 && string(g) != "null" {
		var buf bytes.Buffer
		if err := json.Compact(&buf, g); err != nil {
			return err
		}
		ln.grader = buf.Bytes()
	}
	return nil
}

// Field states of the handler: which top-level value the next token
// belongs to.
const (
	fNone = iota
	fID
	fInput
	fOutput
	fExpected
	fReferences
	fContext
	fMetrics
	fHTTPStatus
	fModel
	fGrader
	fSkip // a key the sample does not read
	fSlow // a key the handler leaves to encoding/json
)

var topFields = map[string]int{
	"id": fID, "input": fInput, "output": fOutput, "expected": fExpected,
	"references": fReferences, "context": fContext, "metrics": fMetrics,
	"http_status": fHTTPStatus, "model": fModel, "grader": fGrader,
	"item": fSlow, "tool_calls": fSlow,
}

var topFieldNames = []string{"id", "input", "output", "expected", "references", "context",
	"metrics", "http_status", "model", "grader", "item", "tool_calls"}

// sampleHandler is the oj.TokenHandler that fills a line.
type sampleHandler struct {
	ln      *line
	depth   int    // object/array nesting; the line's object is depth 1
	field   int    // the top-level field being read
	sub     string // key inside metrics or model
	slow    bool   // leave this line to encoding/json
	closed  bool   // the line's object has ended
	pending bool   // a key was read and its value not yet
	numbers bool   // the line holds a number
	// strs collects references or context; a fresh slice for each array,
	// since the sample keeps it.
	strs []string
	// capture re-encodes the grader value.
	capture []byte
	first   []bool // per capture level: no member written yet
	afterKy bool
	// keys holds a hash of each key of the open objects, those of the
	// object opened at depth d from bases[d-1] on, to find a key given
	// twice (a hash match sends the line to encoding/json, which decides).
	keys  []uint64
	bases []int
	seed  maphash.Seed
}

func (h *sampleHandler) reset(ln *line) {
	seed := h.seed
	if seed == (maphash.Seed{}) {
		seed = maphash.MakeSeed()
	}
	*h = sampleHandler{ln: ln, capture: h.capture[:0], first: h.first[:0], keys: h.keys[:0], bases: h.bases[:0], seed: seed}
}

// maxScannedKeys is the most keys of one object compared one by one; an
// object with more goes to encoding/json.
const maxScannedKeys = 32

// sawKey records k in the innermost open object, sending the line to
// encoding/json when it may be there already.
func (h *sampleHandler) sawKey(k string) {
	if len(h.bases) == 0 {
		return
	}
	base := h.bases[len(h.bases)-1]
	if len(h.keys)-base >= maxScannedKeys {
		h.slow = true
		return
	}
	x := maphash.String(h.seed, k)
	for _, y := range h.keys[base:] {
		if x == y {
			h.slow = true
			return
		}
	}
	h.keys = append(h.keys, x)
}

// top reports whether a value token is the value of a top-level key.
func (h *sampleHandler) top() bool { return h.depth == 1 }

func (h *sampleHandler) after() {
	if h.closed {
		h.slow = true // data after the object
	}
}

func (h *sampleHandler) Null() {
	h.after()
	h.pending = false
	if h.field == fGrader && !h.top() {
		h.capValue("null")
		return
	}
	if !h.top() {
		switch {
		case h.field == fMetrics && h.depth == 2:
			h.setMetric(nil)
		case h.field == fReferences || h.field == fContext:
			h.slow = true // encoding/json refuses null items
		}
		return
	}
	switch h.field {
	case fOutput:
		h.ln.sample.Output, h.ln.hasOutput = "", false
	case fExpected:
		h.ln.sample.Expected = nil
	case fReferences:
		h.ln.sample.References = nil
	case fContext:
		h.ln.sample.Context = nil
	case fGrader:
		h.ln.grader = nil
	}
	// id, input, metrics, http_status, model: null leaves them as they are.
}

func (h *sampleHandler) Bool(v bool) {
	h.after()
	h.pending = false
	if h.field == fGrader && !h.top() {
		h.capValue(strconv.FormatBool(v))
		return
	}
	h.scalarMismatch()
}

// scalarMismatch handles a number or boolean where the handler reads
// something else: inside an unknown key's value it is nothing, otherwise
// encoding/json decides (mostly an error).
func (h *sampleHandler) scalarMismatch() {
	switch h.field {
	case fSkip, fNone:
		return
	case fModel, fMetrics:
		if h.depth == 2 {
			h.slow = h.slow || h.knownSub(h.subFields())
			return
		}
		if h.depth > 2 {
			return // inside an unknown member; a known one is slow already
		}
	}
	h.slow = true
}

// subFields returns the member names of the object field being read.
func (h *sampleHandler) subFields() []string {
	if h.field == fModel {
		return modelFields
	}
	return metricFields
}

// nested handles an object or array opening inside the line's object,
// outside the grader.
func (h *sampleHandler) nested(obj bool) {
	switch h.depth {
	case 2:
		switch h.field {
		case fSkip:
		case fMetrics, fModel:
			h.slow = h.slow || !obj
		case fReferences, fContext:
			if obj {
				h.slow = true
			} else {
				h.strs = h.strs[:0]
			}
		default:
			h.slow = true
		}
	case 3:
		switch h.field {
		case fMetrics, fModel:
			h.slow = h.slow || h.knownSub(h.subFields())
		case fReferences, fContext:
			h.slow = true
		}
	}
}

var (
	metricFields = []string{"latency_ms", "input_tokens", "output_tokens", "total_tokens", "cost_usd"}
	modelFields  = []string{"name", "family"}
)

// knownSub reports whether the current key inside metrics or model is one
// of names; a key that matches one only ignoring case makes the line slow.
func (h *sampleHandler) knownSub(names []string) bool {
	for _, n := range names {
		if h.sub == n {
			return true
		}
	}
	for _, n := range names {
		if strings.EqualFold(h.sub, n) {
			h.slow = true
			return false
		}
	}
	return false
}

func (h *sampleHandler) Int(v int64) {
	h.after()
	h.pending, h.numbers = false, true
	switch {
	case h.field == fGrader && !h.top():
		h.capValue(strconv.FormatInt(v, 10))
	case h.field == fHTTPStatus && h.top():
		h.ln.sample.HTTPStatus = int(v)
	case h.field == fMetrics && h.depth == 2:
		f := float64(v)
		h.setMetric(&f)
	default:
		h.scalarMismatch()
	}
}

func (h *sampleHandler) Float(v float64) {
	h.after()
	h.pending, h.numbers = false, true
	switch {
	case h.field == fGrader && !h.top():
		if math.IsInf(v, 0) || math.IsNaN(v) {
			h.slow = true
			return
		}
		h.capValue(strconv.FormatFloat(v, 'g', -1, 64))
	case h.field == fMetrics && h.depth == 2:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			h.slow = true // encoding/json refuses a number out of range
			return
		}
		h.setMetric(&v)
	default:
		h.scalarMismatch()
	}
}

func (h *sampleHandler) Number(v string) {
	h.after()
	h.pending, h.numbers = false, true
	if h.field == fGrader && !h.top() {
		h.capValue(v)
		return
	}
	if h.field == fSkip || (h.field == fModel && h.depth > 2) {
		return
	}
	h.slow = true // a number beyond int64 and float64 where a field reads it
}

// setMetric sets the metric named by h.sub (nil for null).
func (h *sampleHandler) setMetric(v *float64) {
	if !h.knownSub(metricFields) {
		return
	}
	m := &h.ln.sample.Metrics
	switch h.sub {
	case "latency_ms":
		m.LatencyMS = v
	case "input_tokens":
		m.InputTokens = v
	case "output_tokens":
		m.OutputTokens = v
	case "total_tokens":
		m.TotalTokens = v
	case "cost_usd":
		m.CostUSD = v
	}
}

func (h *sampleHandler) String(v string) {
	h.after()
	h.pending = false
	if h.field == fGrader && !h.top() {
		h.capString(v)
		return
	}
	if !h.top() {
		switch {
		case (h.field == fReferences || h.field == fContext) && h.depth == 2:
			h.strs = append(h.strs, v)
		case h.field == fModel && h.depth == 2:
			if h.knownSub(modelFields) {
				if h.sub == "name" {
					h.ln.sample.Model.Name = v
				} else {
					h.ln.sample.Model.Family = v
				}
			}
		case h.field == fMetrics && h.depth == 2:
			if h.knownSub(metricFields) {
				h.slow = true
			}
		}
		return
	}
	switch h.field {
	case fID:
		h.ln.sample.ID = v
	case fInput:
		h.ln.sample.Input = v
	case fOutput:
		h.ln.sample.Output, h.ln.hasOutput = v, true
	case fExpected:
		h.ln.sample.Expected = &v
	case fSkip, fNone:
	case fGrader:
		h.slow = true
	default:
		h.slow = true // a string where an object, array or number belongs
	}
}

func (h *sampleHandler) ObjectStart() {
	h.after()
	h.pending = false
	h.depth++
	h.bases = append(h.bases, len(h.keys))
	switch {
	case h.depth == 1:
	case h.field == fGrader:
		h.capOpen('{')
	default:
		h.nested(true)
	}
}

func (h *sampleHandler) ObjectEnd() {
	if h.pending {
		h.slow = true // the last key had no value
	}
	if h.field == fGrader && h.depth > 1 {
		h.capClose('}')
	}
	if n := len(h.bases); n > 0 {
		h.keys, h.bases = h.keys[:h.bases[n-1]], h.bases[:n-1]
	}
	h.depth--
	if h.depth == 0 {
		h.closed = true
	}
}

func (h *sampleHandler) Key(k string) {
	if h.pending {
		h.slow = true // the previous key had no value
	}
	h.pending = true
	h.sawKey(k)
	if h.field == fGrader && h.depth > 1 {
		h.capKey(k)
		return
	}
	if h.depth == 1 {
		f, ok := topFields[k]
		switch {
		case ok:
			h.field = f
		case foldsToTopField(k):
			h.field, h.slow = fSlow, true
		default:
			h.field = fSkip
		}
		if f == fSlow {
			h.slow = true
		}
		if f == fGrader {
			h.ln.grader = nil
			h.capture, h.first, h.afterKy = h.capture[:0], h.first[:0], false
		}
		return
	}
	if h.depth == 2 {
		h.sub = k
	}
}

// foldsToTopField reports whether k matches a field only ignoring case,
// which encoding/json accepts and the handler leaves to it.
func foldsToTopField(k string) bool {
	for _, n := range topFieldNames {
		if strings.EqualFold(k, n) {
			return true
		}
	}
	return false
}

func (h *sampleHandler) ArrayStart() {
	h.after()
	h.pending = false
	h.depth++
	switch {
	case h.depth == 1:
		h.slow = true // not an object
	case h.field == fGrader:
		h.capOpen('[')
	default:
		h.nested(false)
	}
}

func (h *sampleHandler) ArrayEnd() {
	switch {
	case h.field == fGrader && h.depth > 1:
		h.capClose(']')
	case h.depth == 2 && h.field == fReferences:
		h.ln.sample.References = h.takeStrs()
	case h.depth == 2 && h.field == fContext:
		h.ln.sample.Context = h.takeStrs()
	}
	h.depth--
}

// takeStrs returns the strings collected, nil when there were none (as
// encoding/json leaves an empty array of references).
func (h *sampleHandler) takeStrs() []string {
	if len(h.strs) == 0 {
		return nil
	}
	out := h.strs
	h.strs = nil
	return out
}

// The grader value is re-encoded as compact JSON as its tokens arrive.

func (h *sampleHandler) capSep() {
	if h.afterKy {
		h.afterKy = false
		return
	}
	if n := len(h.first); n > 0 {
		if !h.first[n-1] {
			h.capture = append(h.capture, ',')
		}
		h.first[n-1] = false
	}
}

func (h *sampleHandler) capValue(v string) {
	h.capSep()
	h.capture = append(h.capture, v...)
}

func (h *sampleHandler) capString(v string) {
	h.capSep()
	h.capture = appendJSONString(h.capture, v)
}

func (h *sampleHandler) capKey(k string) {
	h.capSep()
	h.capture = appendJSONString(h.capture, k)
	h.capture = append(h.capture, ':')
	h.afterKy = true
}

func (h *sampleHandler) capOpen(c byte) {
	h.capSep()
	h.capture = append(h.capture, c)
	h.first = append(h.first, true)
}

func (h *sampleHandler) capClose(c byte) {
	h.capture = append(h.capture, c)
	h.first = h.first[:len(h.first)-1]
	if len(h.first) == 0 {
		h.ln.grader = h.capture
	}
}
