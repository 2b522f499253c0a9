package reportfmt

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"html"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
	"github.com/proctorhq/proctor/reports"
)

//go:embed html/report.css
var htmlCSS string

//go:embed html/report.js
var htmlJS string

//go:embed html/report.html
var htmlPage string

// DefaultHTMLMaxBytes bounds the case data an [HTML] report embeds when
// [HTMLOptions.MaxBytes] is zero: past it, passed cases are counted but
// not embedded, so a very large run still gives a file a browser opens.
const DefaultHTMLMaxBytes = 90 << 20

// HTMLOptions say what an HTML page ([HTML], [CompareHTML]) shows beside
// the results; the zero value shows no time or version and embeds up to
// [DefaultHTMLMaxBytes].
type HTMLOptions struct {
	// Generated is when the run ended, shown in the header; the zero time
	// shows none.
	Generated time.Time
	// Version is the proctor version that wrote the report, shown in the
	// header when set.
	Version string
	// MaxBytes bounds the JSON of the embedded cases (default
	// [DefaultHTMLMaxBytes]). Past it, passed cases are counted in the
	// totals and charts but left out of the case table, and the page says
	// how many were; cases that did not pass are always embedded. On a
	// compare page the cases left out are those passed in both runs.
	MaxBytes int
}

// HTML writes a report as one self-contained HTML page: inline CSS,
// script and SVG charts, no request to any network or file, so the file
// opens from disk. The results are embedded once, as JSON in a
// <script type="application/json"> element, and rendered in the browser:
// the totals with the pass rate's Wilson interval, charts by split,
// grader, score and judge, a filterable and sortable case table, and each
// case's attempts and checks with the judges' votes.
//
// Cases are written as they are added, so a run of any size is written in
// constant memory but for the per-grader score lists. Cases must already
// be redacted as the suite asks (a holdout split's outputs): the page shows
// what it is given. An HTML is not safe for concurrent use.
type HTML struct {
	bw      *bufio.Writer
	opts    HTMLOptions
	suite   string
	first   bool
	bytes   int
	omitted int
	graders map[string]*graderTally
	order   []string
	buf     bytes.Buffer // one case's JSON
	err     error
}

// graderTally counts one grader's statuses and keeps its scores for the
// histogram Finish adds.
type graderTally struct {
	htmlGrader
	passScore []float64 // scores of passed grades
	failScore []float64 // scores of failed grades
}

// NewHTML starts an HTML report of the named suite on w.
func NewHTML(w io.Writer, suite string, opts HTMLOptions) *HTML {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultHTMLMaxBytes
	}
	h := &HTML{bw: bufio.NewWriterSize(w, 64<<10), opts: opts, suite: suite, first: true, graders: map[string]*graderTally{}}
	h.start("report", suite)
	h.write(`{"cases":[`)
	return h
}

// start writes the page up to the opening of the data element.
func (h *HTML) start(kind, title string) {
	head, _, _ := strings.Cut(htmlPage, "{{DATA}}")
	head = strings.ReplaceAll(head, "{{TITLE}}", html.EscapeString("proctor "+kind+": "+title))
	head = strings.ReplaceAll(head, "{{CSS}}", htmlCSS)
	h.write(head)
}

// finish writes the page after the data element.
func (h *HTML) finish() error {
	_, tail, _ := strings.Cut(htmlPage, "{{DATA}}")
	h.write(strings.ReplaceAll(tail, "{{JS}}", htmlJS))
	if h.err != nil {
		return h.err
	}
	return h.bw.Flush()
}

func (h *HTML) write(s string) {
	if h.err == nil {
		_, h.err = h.bw.WriteString(s)
	}
}

func (h *HTML) writeBytes(b []byte) {
	if h.err == nil {
		_, h.err = h.bw.Write(b)
	}
}

// addJSON writes v, after a comma unless it is the first.
func (h *HTML) addJSON(v any) error {
	h.buf.Reset()
	if err := json.NewEncoder(&h.buf).Encode(v); err != nil {
		if h.err == nil {
			h.err = err
		}
		return err
	}
	if !h.first {
		h.write(",\n")
	}
	h.first = false
	// Encode ends the value with a newline.
	h.writeBytes(bytes.TrimSuffix(h.buf.Bytes(), []byte("\n")))
	return h.err
}

// SetGenerated sets the time the header shows, for a run whose end is
// known only when its last case is added; call it before [HTML.Finish].
func (h *HTML) SetGenerated(t time.Time) { h.opts.Generated = t }

// EmbedsPassed reports whether [HTML.Add] would embed a passed case given
// to it now. Once it would not, Add reads of a passed case only its
// grades' graders, statuses and scores (for the charts), so a caller
// decoding cases can decode just those.
func (h *HTML) EmbedsPassed() bool { return h.bytes < h.opts.MaxBytes }

// Add counts one case result in the charts and embeds it if there is room.
func (h *HTML) Add(c proctor.CaseResult) error {
	h.tally(c)
	if c.Verdict == proctor.StatusPassed && h.bytes >= h.opts.MaxBytes {
		h.omitted++
		return h.err
	}
	err := h.addJSON(c)
	h.bytes += h.buf.Len()
	return err
}

// tally counts c's grades in the grader charts.
func (h *HTML) tally(c proctor.CaseResult) {
	for _, a := range c.Attempts {
		for _, g := range a.Grades {
			t := h.graders[g.Grader]
			if t == nil {
				t = &graderTally{htmlGrader: htmlGrader{Name: g.Grader}}
				h.graders[g.Grader] = t
				h.order = append(h.order, g.Grader)
			}
			switch g.Status {
			case proctor.StatusPassed:
				t.Passed++
				if g.HasScore {
					t.passScore = append(t.passScore, g.Score)
				}
			case proctor.StatusFailed:
				t.Failed++
				if g.HasScore {
					t.failScore = append(t.failScore, g.Score)
				}
			default:
				t.NotGraded++
			}
		}
	}
}

// HTMLCaseJSON returns the JSON [HTML.Add] embeds for c, for a caller
// that encodes cases on several goroutines and adds them with
// [HTML.AddEncoded].
func HTMLCaseJSON(c proctor.CaseResult) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(c); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// AddEncoded is [HTML.Add] for a case whose JSON is already encoded: js
// must be what [HTMLCaseJSON] returns for c. Only its grades are read of
// c, for the charts, so c may hold just those and its verdict.
func (h *HTML) AddEncoded(c proctor.CaseResult, js []byte) error {
	h.tally(c)
	if c.Verdict == proctor.StatusPassed && h.bytes >= h.opts.MaxBytes {
		h.omitted++
		return h.err
	}
	if !h.first {
		h.write(",\n")
	}
	h.first = false
	h.writeBytes(js)
	h.bytes += len(js) + 1 // as Add counts it, with the encoder's newline
	return h.err
}

// htmlSummary is the part of the embedded data that follows the cases.
type htmlSummary struct {
	Kind      string               `json:"kind"`
	Suite     string               `json:"suite"`
	Generated string               `json:"generated,omitempty"`
	Version   string               `json:"version,omitempty"`
	Totals    proctor.Totals       `json:"totals"`
	PassRate  *htmlRate            `json:"pass_rate"`
	FlakyRate *htmlRate            `json:"flaky_rate"`
	PassAtK   []htmlPassAtK        `json:"pass_at_k"`
	Splits    []SplitTotals        `json:"splits"`
	Groups    []htmlGroup          `json:"groups,omitempty"`
	GroupBy   string               `json:"group_by,omitempty"`
	Clustered *ClusteredRate       `json:"clustered_se,omitempty"`
	Corrected []CorrectedRate      `json:"judge_corrected,omitempty"`
	Graders   []htmlGrader         `json:"graders"`
	Judges    []proctor.JudgeStats `json:"judges"`
	Caveats   []string             `json:"caveats"`
	Reasons   []htmlReason         `json:"not_graded_reasons"`
	Omitted   int                  `json:"omitted_passed"`
}

// htmlGroup is one group of the group_by breakdown: its counts and
// clustered SE, the name the page prints and its pass rate with the
// Wilson interval (nil when no case passed or failed).
type htmlGroup struct {
	GroupTotals
	Name     string    `json:"name"`
	PassRate *htmlRate `json:"pass_rate"`
}

// htmlGroups is the page's group_by breakdown; nil without group_by.
func htmlGroups(s *Summary) []htmlGroup {
	var out []htmlGroup
	for _, g := range s.Groups() {
		h := htmlGroup{GroupTotals: g, Name: s.groupName(g.Group)}
		if _, d, ok := g.Totals.PassRate(); ok {
			h.PassRate = rateOf(g.Totals.Passed, d)
		}
		out = append(out, h)
	}
	return out
}

// htmlRate is a rate with its denominator and 95% Wilson interval.
type htmlRate struct {
	Rate        float64 `json:"rate"`
	Numerator   int     `json:"numerator"`
	Denominator int     `json:"denominator"`
	Low         float64 `json:"low"`
	High        float64 `json:"high"`
}

type htmlPassAtK struct {
	K       int     `json:"k"`
	PassAt  float64 `json:"pass_at_k"`
	PassHat float64 `json:"pass_hat_k"`
	Cases   int     `json:"cases"`
}

type htmlReason struct {
	Reason string `json:"reason"`
	Cases  int    `json:"cases"`
}

// htmlGrader is one grader's statuses and score distribution.
type htmlGrader struct {
	Name      string `json:"name"`
	Passed    int    `json:"passed"`
	Failed    int    `json:"failed"`
	NotGraded int    `json:"not_graded"`
	// Scores is the histogram of the grader's scores, nil when it gave
	// none or only 0 and 1.
	Scores *htmlHistogram `json:"scores,omitempty"`
}

// htmlHistogram counts passed and failed scores in equal bins from Min to
// Max. Threshold is the lowest passing score when every failed score is
// below it (the pass mark the grades imply), nil otherwise.
type htmlHistogram struct {
	Min       float64  `json:"min"`
	Max       float64  `json:"max"`
	Passed    []int    `json:"passed"`
	Failed    []int    `json:"failed"`
	Threshold *float64 `json:"threshold"`
}

const histBins = 20

func histogram(pass, fail []float64) *htmlHistogram {
	// A pass/fail grader that scores 0 or 1 has no distribution to show.
	if !slices.ContainsFunc(slices.Concat(pass, fail), func(s float64) bool { return s != 0 && s != 1 }) {
		return nil
	}
	lo, hi := 0.0, 1.0
	for _, s := range slices.Concat(pass, fail) {
		if !math.IsNaN(s) && !math.IsInf(s, 0) {
			lo, hi = min(lo, s), max(hi, s)
		}
	}
	h := &htmlHistogram{Min: lo, Max: hi, Passed: make([]int, histBins), Failed: make([]int, histBins)}
	bin := func(s float64) int {
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return -1
		}
		return min(histBins-1, int((s-lo)/(hi-lo)*histBins))
	}
	for _, s := range pass {
		if i := bin(s); i >= 0 {
			h.Passed[i]++
		}
	}
	for _, s := range fail {
		if i := bin(s); i >= 0 {
			h.Failed[i]++
		}
	}
	if len(pass) > 0 && len(fail) > 0 {
		minPass, maxFail := slices.Min(pass), slices.Max(fail)
		if maxFail < minPass {
			h.Threshold = &minPass
		}
	}
	return h
}

// Finish writes the totals, rates, charts' data, judges, caveats and
// not-graded reasons from s, and the script that renders the page. It
// flushes but does not close the writer.
func (h *HTML) Finish(s *Summary) error {
	h.write("\n],\n\"summary\":")
	sum := htmlSummary{Kind: "report", Suite: s.Suite, Version: h.opts.Version, Totals: s.Totals,
		Judges: s.Judges, Caveats: s.Caveats, Splits: s.Splits(), Omitted: h.omitted,
		PassAtK: []htmlPassAtK{}, Graders: []htmlGrader{}, Reasons: []htmlReason{},
		Groups: htmlGroups(s), GroupBy: s.GroupBy, Clustered: s.ClusteredRate(), Corrected: s.Corrected()}
	if !h.opts.Generated.IsZero() {
		sum.Generated = h.opts.Generated.UTC().Format(time.RFC3339)
	}
	if _, d, ok := s.PassRate(); ok {
		sum.PassRate = rateOf(s.Totals.Passed, d)
	}
	if _, d, ok := s.FlakyRate(); ok {
		sum.FlakyRate = rateOf(s.Totals.Flaky, d)
	}
	if n := s.MaxAttempts(); n > 1 {
		for k := 1; k <= n; k++ {
			at, hat, cases := s.PassAtK(k)
			if cases > 0 {
				sum.PassAtK = append(sum.PassAtK, htmlPassAtK{K: k, PassAt: at, PassHat: hat, Cases: cases})
			}
		}
	}
	if sum.Splits == nil {
		sum.Splits = []SplitTotals{}
	}
	if sum.Judges == nil {
		sum.Judges = []proctor.JudgeStats{}
	}
	if sum.Caveats == nil {
		sum.Caveats = []string{}
	}
	for _, name := range h.order {
		t := h.graders[name]
		g := t.htmlGrader
		g.Scores = histogram(t.passScore, t.failScore)
		sum.Graders = append(sum.Graders, g)
	}
	for _, r := range s.NotGradedReasons() {
		sum.Reasons = append(sum.Reasons, htmlReason{r.Reason, r.Cases})
	}
	b, err := scriptJSON(sum)
	if err != nil {
		return err
	}
	h.writeBytes(b)
	h.write("}")
	return h.finish()
}

func rateOf(num, den int) *htmlRate {
	lo, hi := metric.Wilson(num, den)
	return &htmlRate{Rate: float64(num) / float64(den), Numerator: num, Denominator: den, Low: lo, High: hi}
}

// WriteHTML writes a whole report as [HTML] writes it: NewHTML, Add for
// each case, and Finish with [Summarize] of r.
func WriteHTML(w io.Writer, r *proctor.Report, opts HTMLOptions) error {
	h := NewHTML(w, r.Suite, opts)
	for _, c := range r.Cases {
		if err := h.Add(c); err != nil {
			return err
		}
	}
	return h.Finish(Summarize(r))
}

// htmlRun is one side of a comparison as the compare page shows it.
type htmlRun struct {
	Suite    string               `json:"suite"`
	Totals   proctor.Totals       `json:"totals"`
	PassRate *htmlRate            `json:"pass_rate"`
	Judges   []proctor.JudgeStats `json:"judges"`
}

// htmlPair is one case id with its result in each run (null where absent).
type htmlPair struct {
	ID   string              `json:"id"`
	Base *proctor.CaseResult `json:"base"`
	Head *proctor.CaseResult `json:"head"`
}

func runOf(r *proctor.Report) htmlRun {
	run := htmlRun{Suite: r.Suite, Totals: r.Totals, Judges: r.Judges}
	if _, d, ok := r.PassRate(); ok {
		run.PassRate = rateOf(r.Totals.Passed, d)
	}
	if run.Judges == nil {
		run.Judges = []proctor.JudgeStats{}
	}
	return run
}

// WriteCompareHTML writes the comparison c of base and head (as
// [reports.Compare] returns it) as [CompareHTML] writes it:
// NewCompareHTML, Add for each case id (those of base in base's order,
// then those only in head in head's order), and Finish.
func WriteCompareHTML(w io.Writer, base, head *proctor.Report, c *reports.Comparison, opts HTMLOptions) error {
	p := NewCompareHTML(w, base.Suite, opts)
	headBy := make(map[string]int, len(head.Cases))
	for i, hc := range head.Cases {
		headBy[hc.ID] = i
	}
	seen := make(map[string]bool, len(base.Cases))
	for i := range base.Cases {
		b, h := &base.Cases[i], (*proctor.CaseResult)(nil)
		seen[b.ID] = true
		if j, ok := headBy[b.ID]; ok {
			h = &head.Cases[j]
		}
		if err := p.Add(b, h); err != nil {
			return err
		}
	}
	for i := range head.Cases {
		if !seen[head.Cases[i].ID] {
			if err := p.Add(nil, &head.Cases[i]); err != nil {
				return err
			}
		}
	}
	return p.Finish(base, head, c)
}

// finishCompare writes the compare page's summary after its pairs and
// the script; omitted counts the pairs passed in both runs left out.
func finishCompare(h *HTML, base, head *proctor.Report, c *reports.Comparison, omitted int) error {
	data := struct {
		Kind       string              `json:"kind"`
		Suite      string              `json:"suite"`
		Generated  string              `json:"generated,omitempty"`
		Version    string              `json:"version,omitempty"`
		Base       htmlRun             `json:"base"`
		Head       htmlRun             `json:"head"`
		Comparison *reports.Comparison `json:"comparison"`
		Omitted    int                 `json:"omitted_passed,omitempty"`
	}{Kind: "compare", Suite: base.Suite, Version: h.opts.Version, Base: runOf(base), Head: runOf(head), Comparison: c, Omitted: omitted}
	if !h.opts.Generated.IsZero() {
		data.Generated = h.opts.Generated.UTC().Format(time.RFC3339)
	}
	b, err := scriptJSON(data)
	if err != nil {
		return err
	}
	h.write("\n],\n\"summary\":")
	h.writeBytes(b)
	h.write("}")
	return h.finish()
}

// CompareHTML writes a comparison of two runs as one self-contained HTML
// page, as [HTML] writes a run: regressions and fixes first, the McNemar
// test, the warnings that judges or prompt versions changed, and every
// case's verdict before and after, each case's checks in both runs a
// click away. Cases are embedded pair by pair as they are added ([Add]
// the results, [AddRaw] the JSON the reports hold), so two reports of any
// size are compared in flat memory. Past [HTMLOptions.MaxBytes] of
// embedded pairs, a case that passed in both runs is counted, not
// embedded, and the page says how many were; every other pair is always
// embedded. A CompareHTML is not safe for concurrent use.
//
// [Add]: CompareHTML.Add
// [AddRaw]: CompareHTML.AddRaw
type CompareHTML struct {
	h       *HTML
	omitted int
}

// NewCompareHTML starts the compare page of the named suite on w.
func NewCompareHTML(w io.Writer, suite string, opts HTMLOptions) *CompareHTML {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultHTMLMaxBytes
	}
	h := &HTML{bw: bufio.NewWriterSize(w, 64<<10), opts: opts, first: true}
	h.start("compare", suite)
	h.write(`{"cases":[`)
	return &CompareHTML{h: h}
}

// Add embeds the results of one case id in base and head (nil where the
// run has no such case; not both).
func (p *CompareHTML) Add(base, head *proctor.CaseResult) error {
	if base == nil && head == nil {
		return errors.New("reportfmt: compare page: a pair with neither a base nor a head case")
	}
	h := p.h
	if base != nil && head != nil && base.Verdict == proctor.StatusPassed && head.Verdict == proctor.StatusPassed && h.bytes >= h.opts.MaxBytes {
		p.omitted++
		return h.err
	}
	pair := &htmlPair{Base: base, Head: head}
	if base != nil {
		pair.ID = base.ID
	} else {
		pair.ID = head.ID
	}
	err := h.addJSON(pair)
	h.bytes += h.buf.Len()
	return err
}

// AddRaw embeds the results of case id in base and head, each the case's
// JSON object as its report holds it (nil where the run has no such
// case); passedBoth says it passed in both runs. The JSON must be valid
// (the caller has checked it): it is written as given but for "<", ">"
// and "&", escaped as [CompareHTML.Add] escapes them, so for a report
// proctor wrote the page is byte for byte the one Add writes.
func (p *CompareHTML) AddRaw(id string, base, head json.RawMessage, passedBoth bool) error {
	h := p.h
	if passedBoth && h.bytes >= h.opts.MaxBytes {
		p.omitted++
		return h.err
	}
	h.buf.Reset()
	h.buf.WriteString(`{"id":`)
	idJSON, err := json.Marshal(id)
	if err != nil {
		return err
	}
	h.buf.Write(idJSON)
	for i, side := range []json.RawMessage{base, head} {
		h.buf.WriteString([]string{`,"base":`, `,"head":`}[i])
		if side == nil {
			h.buf.WriteString("null")
			continue
		}
		escapeHTMLJSON(&h.buf, side)
	}
	h.buf.WriteString("}")
	if !h.first {
		h.write(",\n")
	}
	h.first = false
	h.writeBytes(h.buf.Bytes())
	h.bytes += h.buf.Len() + 1
	return h.err
}

// Finish writes the comparison c of base and head (the reports without
// their cases will do) and the script that renders the page. It flushes
// but does not close the writer.
func (p *CompareHTML) Finish(base, head *proctor.Report, c *reports.Comparison) error {
	return finishCompare(p.h, base, head, c, p.omitted)
}

// escapeHTMLJSON appends the JSON js to buf with "<", ">" and "&" written
// as \u003c, \u003e and \u0026; in valid JSON they are only ever inside
// strings, where the escapes mean the same.
func escapeHTMLJSON(buf *bytes.Buffer, js []byte) {
	start := 0
	for i, c := range js {
		if c == '<' || c == '>' || c == '&' {
			buf.Write(js[start:i])
			buf.WriteString(`\u00`)
			buf.WriteByte("0123456789abcdef"[c>>4])
			buf.WriteByte("0123456789abcdef"[c&0xf])
			start = i + 1
		}
	}
	buf.Write(js[start:])
}

// scriptJSON marshals v for a <script type="application/json"> element:
// "<", ">" and "&" are written as \u003c, \u003e and \u0026, so no text in
// the data can close the element ("</script>") or open a comment. addJSON
// writes the same way: a json.Encoder escapes them by default.
func scriptJSON(v any) ([]byte, error) {
	// json.Marshal escapes them, in the output of MarshalJSON methods
	// too, and U+2028 and U+2029.
	return json.Marshal(v)
}
