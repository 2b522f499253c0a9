package reportfmt

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"io"

	"github.com/proctorhq/proctor"
)

// JSON writes a report in the JSON form [proctor.Report.MarshalJSON]
// writes (the report of docs/formats.md, which proctor report merge and compare read),
// case by case, so that a run of any size is written in constant memory.
// The cases come first and the totals, pass rate, judges and caveats after
// them; JSON readers do not depend on the order of an object's keys.
// A JSON is not safe for concurrent use.
type JSON struct {
	bw    *bufio.Writer
	buf   bytes.Buffer // one case's JSON
	first bool
	err   error
}

// JSONOptions say what a [JSON] report records before its cases. The zero
// value writes the report of a whole run: the suite's name, then the cases.
type JSONOptions struct {
	// Shard, when not nil, is written as the report's "shard"
	// ([proctor.Report.Shard]): the run was one shard of the suite, and
	// proctor report merge checks the shards against each other.
	Shard *proctor.ReportShard
	// SuiteDigest, when not empty, is written as the report's
	// "suite_digest" ([proctor.Report.SuiteDigest]).
	SuiteDigest string
}

// NewJSON starts a report of the named suite on w, with the shard and the
// suite digest opts gives before the cases, so a streaming reader has them
// first.
func NewJSON(w io.Writer, suite string, opts JSONOptions) *JSON {
	j := &JSON{bw: bufio.NewWriterSize(w, 64<<10), first: true}
	name, _ := plainJSON(&j.buf, suite)
	j.write([]byte(`{"suite":`))
	j.write(name)
	if opts.Shard != nil {
		b, err := plainJSON(&j.buf, opts.Shard)
		j.err = cmp.Or(j.err, err)
		j.write([]byte(`,"shard":`))
		j.write(b)
	}
	if opts.SuiteDigest != "" {
		b, _ := plainJSON(&j.buf, opts.SuiteDigest)
		j.write([]byte(`,"suite_digest":`))
		j.write(b)
	}
	j.write([]byte(`,"cases":[`))
	return j
}

// WriteJSON writes a whole report as [JSON] writes it: NewJSON, Add for
// each case, and Finish with [Summarize] of r. A zero field of opts takes
// r's own ([proctor.Report.Shard], [proctor.Report.SuiteDigest]), so a
// report read from a file is written back with them.
func WriteJSON(w io.Writer, r *proctor.Report, opts JSONOptions) error {
	if opts.Shard == nil {
		opts.Shard = r.Shard
	}
	if opts.SuiteDigest == "" {
		opts.SuiteDigest = r.SuiteDigest
	}
	j := NewJSON(w, r.Suite, opts)
	for _, c := range r.Cases {
		if err := j.Add(c); err != nil {
			return err
		}
	}
	return j.Finish(Summarize(r))
}

func (j *JSON) write(b []byte) {
	if j.err == nil {
		_, j.err = j.bw.Write(b)
	}
}

// Add writes one case result.
func (j *JSON) Add(c proctor.CaseResult) error {
	b, err := plainJSON(&j.buf, c)
	if err != nil {
		if j.err == nil {
			j.err = err
		}
		return err
	}
	return j.AddRaw(b)
}

// AddRaw writes one case result given as its JSON object, as a report
// holds it (a merge passes cases through without decoding them whole). It
// is written as given: the caller vouches it is one JSON value.
func (j *JSON) AddRaw(c json.RawMessage) error {
	if !j.first {
		j.write([]byte(","))
	}
	j.first = false
	j.write([]byte("\n"))
	j.write(c)
	return j.err
}

// Finish writes the totals, pass rate, judges and caveats from s, and the
// verdict counts per split when cases named splits ([Summary.Splits], as
// "splits": [{"split", "totals"}]), and closes the report. It flushes but does not close the writer.
func (j *JSON) Finish(s *Summary) error {
	tail := proctor.NewReport(s.Suite)
	tail.Totals = s.Totals
	tail.Judges = append(tail.Judges, s.Judges...)
	tail.Panels = s.Panels
	tail.Caveats = append(tail.Caveats, s.Caveats...)
	b, err := tail.MarshalJSON()
	if err != nil {
		return err
	}
	// Splice in every field of the tail but its own "suite" and empty
	// "cases", in the order MarshalJSON writes them, so fields a newer
	// Report adds are kept.
	j.write([]byte("\n]"))
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if k == "suite" || k == "cases" || k == "shard" || k == "suite_digest" {
			continue
		}
		name, _ := json.Marshal(k) // a field name of Report: plain ASCII
		j.write([]byte(","))
		j.write(name)
		j.write([]byte(":"))
		j.write(v)
	}
	// Beside the report's own fields, what the summary computed: proctor.Report
	// reads past them; each case's split, group and cluster are in its
	// result, so a merged report can count them again.
	if cr := s.Corrected(); len(cr) > 0 {
		j.field("judge_corrected", cr)
	}
	if r := s.ClusteredRate(); r != nil {
		j.field("clustered_se", r)
	}
	if splits := s.Splits(); len(splits) > 0 {
		j.field("splits", splits)
	}
	if groups := s.Groups(); groups != nil {
		j.field("groups", struct {
			By     string        `json:"by"`
			Groups []GroupTotals `json:"groups"`
		}{s.GroupBy, groups})
	}
	j.write([]byte("}\n"))
	if j.err != nil {
		return j.err
	}
	return j.bw.Flush()
}

// field writes `,"name":` and v as JSON, keeping the first error.
func (j *JSON) field(name string, v any) {
	b, err := plainJSON(&j.buf, v)
	if err != nil && j.err == nil {
		j.err = err
	}
	j.write([]byte(`,"` + name + `":`))
	j.write(b)
}

// plainJSON is json.Marshal without HTML escaping: "<", ">" and "&" stay
// as the text has them. buf is reset and reused.
func plainJSON(buf *bytes.Buffer, v any) ([]byte, error) {
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}
