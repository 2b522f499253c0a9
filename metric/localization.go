package metric

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/proctorhq/proctor/internal/fence"
	"github.com/proctorhq/proctor/internal/kit"
)

// Locations are cited source lines: for each file, its line ranges,
// sorted and merged. A file cited without lines has no ranges.
type Locations map[string][]LineRange

// LineRange is the inclusive range of lines Start..End, 1-based.
type LineRange struct {
	// Start is the first line of the range and End the last; Start <= End.
	Start, End int
}

func (r LineRange) len() int { return r.End - r.Start + 1 }

// maxLine bounds line numbers so that range arithmetic cannot overflow.
const maxLine = 1 << 40

// citationRE finds path:start-end, path:line, path#Lstart-Lend and
// path#Lline. The path must hold a dot or a slash, so that times (10:30)
// and host:port pairs without one are not taken for citations.
var citationRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([A-Za-z0-9_~@+\-./\\]*[./\\][A-Za-z0-9_~@+\-./\\]*[A-Za-z0-9_\-])(?::(\d+)(?:\s*(?:-|–|\.\.)\s*(\d+))?|#L(\d+)(?:-L?(\d+))?)`)
})

// ErrNoLocations is returned by [ParseLocations] for text that cites no
// file.
var ErrNoLocations = errors.New("metric: no file locations found")

// ParseLocations reads cited locations from s: a JSON object mapping files
// to ranges ({"a.go": [[1, 5], [9, 9]]}; a range may also be [line], a
// number or a "start-end" string; an empty list cites the file alone),
// possibly in a Markdown fence, or else text holding path:start-end,
// path:line, path#L10-L20 or path#L10 citations. A leading "./" is dropped
// and backslashes become slashes. It returns [ErrNoLocations] (wrapped)
// when nothing is cited and an error for a JSON object it cannot read.
func ParseLocations(s string) (Locations, error) {
	t := strings.TrimSpace(fence.JSON(s))
	if strings.HasPrefix(t, "{") {
		locs, err := parseLocationJSON([]byte(t))
		if err != nil {
			return nil, err
		}
		if len(locs) == 0 {
			return nil, fmt.Errorf("%w: empty JSON object", ErrNoLocations)
		}
		return locs, nil
	}
	locs := Locations{}
	for _, m := range citationRE().FindAllStringSubmatch(s, -1) {
		a, b := m[2], m[3]
		if m[4] != "" {
			a, b = m[4], m[5]
		}
		r, ok := parseRange(a, b)
		if !ok {
			continue
		}
		p := cleanPath(m[1])
		locs[p] = append(locs[p], r)
	}
	if len(locs) == 0 {
		return nil, ErrNoLocations
	}
	for p := range locs {
		locs[p] = mergeRanges(locs[p])
	}
	return locs, nil
}

func parseRange(a, b string) (LineRange, bool) {
	start, err := strconv.Atoi(a)
	if err != nil || start < 1 || start > maxLine {
		return LineRange{}, false
	}
	end := start
	if b != "" {
		end, err = strconv.Atoi(b)
		if err != nil || end < start || end > maxLine {
			return LineRange{}, false
		}
	}
	return LineRange{start, end}, true
}

func cleanPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

func parseLocationJSON(b []byte) (Locations, error) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("metric: locations JSON: %w", err)
	}
	locs := Locations{}
	// In key order, so that of several bad entries the same one is named
	// every time.
	for _, file := range slices.Sorted(maps.Keys(raw)) {
		v := raw[file]
		p := cleanPath(strings.TrimSpace(file))
		if p == "" {
			return nil, errors.New("metric: locations JSON: empty file name")
		}
		var items []json.RawMessage
		if !isNull(v) {
			if err := json.Unmarshal(v, &items); err != nil {
				return nil, fmt.Errorf("metric: locations JSON: %q: want a list of ranges: %w", file, err)
			}
		}
		rs := locs[p]
		for _, it := range items {
			r, err := parseJSONRange(it)
			if err != nil {
				return nil, fmt.Errorf("metric: locations JSON: %q: %w", file, err)
			}
			rs = append(rs, r)
		}
		locs[p] = mergeRanges(rs)
	}
	return locs, nil
}

func parseJSONRange(it json.RawMessage) (LineRange, error) {
	var nums []json.Number
	var n json.Number
	var s string
	switch {
	case json.Unmarshal(it, &nums) == nil && (len(nums) == 1 || len(nums) == 2):
		b := ""
		if len(nums) == 2 {
			b = nums[1].String()
		}
		if r, ok := parseRange(nums[0].String(), b); ok {
			return r, nil
		}
	case json.Unmarshal(it, &n) == nil:
		if r, ok := parseRange(n.String(), ""); ok {
			return r, nil
		}
	case json.Unmarshal(it, &s) == nil:
		a, b, _ := strings.Cut(strings.TrimPrefix(s, "L"), "-")
		if r, ok := parseRange(strings.TrimSpace(a), strings.TrimSpace(strings.TrimPrefix(b, "L"))); ok {
			return r, nil
		}
	}
	return LineRange{}, fmt.Errorf("bad range %s: want [start, end], [line], a line number or \"start-end\" with 1 <= start <= end", kit.Quote(string(it)))
}

// isNull reports whether r is the JSON literal null.
func isNull(r json.RawMessage) bool { return string(bytes.TrimSpace(r)) == "null" }

func mergeRanges(rs []LineRange) []LineRange {
	if len(rs) == 0 {
		return rs
	}
	slices.SortFunc(rs, func(a, b LineRange) int { return a.Start - b.Start })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if r.Start <= last.End+1 {
			last.End = max(last.End, r.End)
			continue
		}
		out = append(out, r)
	}
	return out
}

func (l Locations) lines() int {
	n := 0
	for _, rs := range l {
		for _, r := range rs {
			n += r.len()
		}
	}
	return n
}

func overlap(a, b []LineRange) int {
	n := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].Start, b[j].Start), min(a[i].End, b[j].End)
		if lo <= hi {
			n += hi - lo + 1
		}
		if a[i].End < b[j].End {
			i++
		} else {
			j++
		}
	}
	return n
}

// LocalizationScore is what [Localization] returns: how well cited
// locations match expected ones.
type LocalizationScore struct {
	// Score is what the threshold is compared with: the mean of FileF1
	// and LineF1, or FileF1 alone when the expected locations name no
	// lines.
	Score float64 `json:"score"`
	// File* compare the sets of files.
	FilePrecision float64 `json:"file_precision"`
	FileRecall    float64 `json:"file_recall"`
	FileF1        float64 `json:"file_f1"`
	// Line* compare the sets of (file, line) pairs.
	LinePrecision float64 `json:"line_precision"`
	LineRecall    float64 `json:"line_recall"`
	LineF1        float64 `json:"line_f1"`
	// LinesScored is false when the expected locations name no lines.
	LinesScored bool `json:"lines_scored"`
}

func f1(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Localization compares got with want: file-level precision, recall
// and F1, line-level ones over (file, line) pairs, and their mean (file F1
// alone when want names no lines).
func Localization(got, want Locations) LocalizationScore {
	var s LocalizationScore
	commonFiles, commonLines := 0, 0
	for f, rs := range got {
		if ws, ok := want[f]; ok {
			commonFiles++
			commonLines += overlap(rs, ws)
		}
	}
	s.FilePrecision, s.FileRecall = ratio(commonFiles, len(got)), ratio(commonFiles, len(want))
	s.FileF1 = f1(s.FilePrecision, s.FileRecall)
	s.Score = s.FileF1
	if wl := want.lines(); wl > 0 {
		s.LinesScored = true
		s.LinePrecision, s.LineRecall = ratio(commonLines, got.lines()), ratio(commonLines, wl)
		s.LineF1 = f1(s.LinePrecision, s.LineRecall)
		s.Score = (s.FileF1 + s.LineF1) / 2
	}
	return s
}
