// Package detect finds personal data (emails, phone numbers, SSNs, card
// numbers, IBANs, IP addresses) and credentials (provider API keys, private
// keys, JWTs, high-entropy assignments) in text, and masks what it finds so
// that no caller has to print a found value in full.
//
// Detectors are tables of (kind, pattern, validator): a regular expression
// (RE2, linear time) proposes candidates and a validator keeps the real ones
// (Luhn, mod-97, octet ranges, placeholder words). Every pattern is compiled
// once, on first use; importing the package does no work. All functions are
// safe for concurrent use.
package detect

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Finding is one value found in a text.
type Finding struct {
	// Kind names what was found: a PII kind ("email", "credit_card") or a
	// secret detector ("aws_access_key_id", "jwt").
	Kind string
	// Start and End are byte offsets into the text: text[Start:End] is the
	// value.
	Start, End int
	// RuneStart and RuneEnd are the same span counted in runes (code
	// points), for people.
	RuneStart, RuneEnd int
	// Masked is the value with most of it hidden, safe to print.
	Masked string
}

// detector is one row of a detector table.
type detector struct {
	kind string
	// quick is a byte that every match contains, checked before running
	// the regular expression (0: none).
	quick func(text string) bool
	re    func() *regexp.Regexp
	// windows returns the next region of text worth matching that ends
	// after from (nil: the whole text is one region). The pattern runs on
	// the regions only, so a long text costs a byte scan, not a regexp
	// scan.
	windows func(text string, from int) (s, e int, ok bool)
	// group is the submatch holding the value (0: the whole match).
	group int
	// accept validates a candidate; it may shrink it, returning the value's
	// offsets relative to the candidate. ok false drops it.
	accept func(text string, start, end int) (s, e int, ok bool)
	mask   func(value string) string
	// generic marks a detector that finds any value in a secret-looking
	// place (an assignment): its findings give way to a specific
	// detector's (a provider token) that overlaps them.
	generic bool
	// gate, when not 0, is 1 + the index of this detector's row in the
	// provider table: the row runs only when presence found one of its
	// anchors, in the one pass over the text that replaces a literal
	// search per row.
	gate int
}

// scan runs the detectors over text and returns findings sorted by start,
// with findings that overlap an earlier, longer one dropped.
func scan(text string, dets []*detector) []Finding {
	var out []Finding
	var present [maxProviders]bool
	presence := false
	for _, d := range dets {
		if d.gate > 0 {
			if !presence {
				providerPresence(text, &present)
				presence = true
			}
			if !present[d.gate-1] {
				continue
			}
		}
		if d.quick != nil && !d.quick(text) {
			continue
		}
		re := d.re()
		if d.windows == nil {
			out = matchInto(out, d, re, text, 0, len(text))
			continue
		}
		for from := 0; ; {
			ws, we, ok := d.windows(text, from)
			if !ok {
				break
			}
			out = matchInto(out, d, re, text, max(ws, from), we)
			from = we
		}
	}
	if len(out) == 0 {
		return nil
	}
	out = dropGeneric(out, dets)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Start != out[j].Start {
			return out[i].Start < out[j].Start
		}
		return out[i].End > out[j].End
	})
	// Drop findings inside an earlier one (an IPv4 inside an IPv6, a JWT
	// inside an assignment).
	kept := out[:0]
	end := -1
	for _, f := range out {
		if f.Start < end {
			continue
		}
		kept = append(kept, f)
		end = f.End
	}
	out = kept
	// Rune offsets, walking the text once.
	pos, runes := 0, 0
	for i := range out {
		f := &out[i]
		runes += utf8.RuneCountInString(text[pos:f.Start])
		f.RuneStart = runes
		runes += utf8.RuneCountInString(text[f.Start:f.End])
		f.RuneEnd = runes
		pos = f.End
		for _, d := range dets {
			if d.kind == f.Kind {
				f.Masked = d.mask(text[f.Start:f.End])
				break
			}
		}
	}
	return out
}

// matchInto appends d's accepted matches in text[ws:we] to out.
func matchInto(out []Finding, d *detector, re *regexp.Regexp, text string, ws, we int) []Finding {
	if ws >= we {
		return out
	}
	for _, m := range re.FindAllStringSubmatchIndex(text[ws:we], -1) {
		st, en := m[2*d.group], m[2*d.group+1]
		if st < 0 {
			continue
		}
		st, en = st+ws, en+ws
		if d.accept != nil {
			s, e, ok := d.accept(text, st, en)
			if !ok {
				continue
			}
			st, en = s, e
		}
		out = append(out, Finding{Kind: d.kind, Start: st, End: en})
	}
	return out
}

// IsWord reports whether r is part of a word: a Unicode letter, digit or
// mark, or an underscore.
func IsWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// before returns the rune before offset i (utf8.RuneError at the start).
func before(text string, i int) rune {
	if i <= 0 {
		return utf8.RuneError
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return r
}

// after returns the rune at offset i (utf8.RuneError at the end).
func after(text string, i int) rune {
	if i >= len(text) {
		return utf8.RuneError
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return r
}

// bounded reports whether text[s:e] is not glued to a word or to any of
// the runes in extra on either side.
func bounded(text string, s, e int, extra string) bool {
	b, a := before(text, s), after(text, e)
	if s > 0 && (IsWord(b) || containsRune(extra, b)) {
		return false
	}
	if e < len(text) && (IsWord(a) || containsRune(extra, a)) {
		return false
	}
	return true
}

func containsRune(s string, r rune) bool {
	for _, c := range s {
		if c == r {
			return true
		}
	}
	return false
}

// digitsOf returns the ASCII digits of s, appended to buf.
func digitsOf(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= '0' && c <= '9' {
			buf = append(buf, c)
		}
	}
	return buf
}

// kindsOf returns the kinds of a table, in table order, without repeats.
func kindsOf(dets []*detector) []string {
	var out []string
	for _, d := range dets {
		if !slices.Contains(out, d.kind) {
			out = append(out, d.kind)
		}
	}
	return out
}

// byteSet is a set of ASCII bytes.
type byteSet [256]bool

func setOf(chars string, ranges ...[2]byte) *byteSet {
	var s byteSet
	for i := 0; i < len(chars); i++ {
		s[chars[i]] = true
	}
	for _, r := range ranges {
		for c := int(r[0]); c <= int(r[1]); c++ {
			s[c] = true
		}
	}
	return &s
}

var (
	digits    = [2]byte{'0', '9'}
	lowers    = [2]byte{'a', 'z'}
	uppers    = [2]byte{'A', 'Z'}
	hexLowers = [2]byte{'a', 'f'}
	hexUppers = [2]byte{'A', 'F'}
)

// runsOf proposes maximal runs of bytes in set at least minLen long that
// keep (nil: all).
func runsOf(set *byteSet, minLen int, keep func(run string) bool) func(string, int) (int, int, bool) {
	return func(text string, from int) (int, int, bool) {
		for i := from; i < len(text); {
			if !set[text[i]] {
				i++
				continue
			}
			j := i + 1
			for j < len(text) && set[text[j]] {
				j++
			}
			if j-i >= minLen && (keep == nil || keep(text[i:j])) {
				return i, j, true
			}
			i = j
		}
		return 0, 0, false
	}
}

// around proposes, for the first occurrence of an anchor at or after from,
// the region reaching back over at most left bytes of lset and forward
// over at most right bytes of rset (nil sets: any byte).
func around(anchors []string, lset *byteSet, left int, rset *byteSet, right int) func(string, int) (int, int, bool) {
	var first byteSet
	for _, a := range anchors {
		first[a[0]] = true
	}
	return func(text string, from int) (int, int, bool) {
		p, k, _ := nextAnchor(text, from, anchors, &first)
		if p < 0 {
			return 0, 0, false
		}
		s := p
		for s > 0 && p-s < left && (lset == nil || lset[text[s-1]]) {
			s--
		}
		e := p + len(anchors[k])
		for e < len(text) && e-p < right && (rset == nil || rset[text[e]]) {
			e++
		}
		return s, e, true
	}
}

// nextAnchor returns the offset of the first anchor at or after from and
// its index (-1, -1 when there is none), and how many bytes it searched.
// It looks no further than the anchor it returns, so a scan that resumes
// past each anchor reads the text once however many anchors are missing
// from it. (Searching the rest of the text for each anchor in turn, and
// keeping the earliest, made a text full of one anchor and missing
// another quadratic.) first holds the anchors' first bytes.
func nextAnchor(text string, from int, anchors []string, first *byteSet) (p, k, searched int) {
	if len(anchors) == 1 {
		n := strings.Index(text[from:], anchors[0])
		if n < 0 {
			return -1, -1, len(text) - from
		}
		return from + n, 0, n + len(anchors[0])
	}
	for i := from; i < len(text); i++ {
		if !first[text[i]] {
			continue
		}
		for j, a := range anchors {
			if strings.HasPrefix(text[i:], a) {
				return i, j, i - from + len(a)
			}
		}
	}
	return -1, -1, len(text) - from
}

// dropGeneric removes the findings of generic detectors that overlap a
// finding of a specific one.
func dropGeneric(out []Finding, dets []*detector) []Finding {
	generic := map[string]bool{}
	for _, d := range dets {
		if d.generic {
			generic[d.kind] = true
		}
	}
	if len(generic) == 0 {
		return out
	}
	// Specific spans by start, with the furthest end reached so far: a
	// generic finding overlaps one when some span starting before its end
	// ends after its start. n log n, however many findings.
	var spans [][2]int
	for _, f := range out {
		if !generic[f.Kind] {
			spans = append(spans, [2]int{f.Start, f.End})
		}
	}
	if len(spans) == 0 {
		return out
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	reach := make([]int, len(spans))
	for i, sp := range spans {
		reach[i] = sp[1]
		if i > 0 {
			reach[i] = max(reach[i], reach[i-1])
		}
	}
	kept := out[:0]
	for _, f := range out {
		if generic[f.Kind] {
			n := sort.Search(len(spans), func(i int) bool { return spans[i][0] >= f.End })
			if n > 0 && reach[n-1] > f.Start {
				continue
			}
		}
		kept = append(kept, f)
	}
	return kept
}
