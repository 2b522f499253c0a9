package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/calibrate"
	"github.com/proctorhq/proctor/internal/jsonerr"
	"github.com/proctorhq/proctor/internal/reportio"
	"github.com/proctorhq/proctor/metric"
	"github.com/proctorhq/proctor/reportfmt"
	"github.com/proctorhq/proctor/reports"
)

// openReports opens the reports in files for streaming; close closes
// every one opened.
func openReports(files []string) (rs []*reportio.Reader, close func(), err error) {
	close = func() {
		for _, r := range rs {
			r.Close()
		}
	}
	for _, f := range files {
		r, err := reportio.Open(f)
		if err != nil {
			close()
			return nil, func() {}, err
		}
		rs = append(rs, r)
	}
	return rs, close, nil
}

// heads returns the reports' fields read so far.
func heads(rs []*reportio.Reader) ([]*proctor.Report, error) {
	out := make([]*proctor.Report, len(rs))
	for i, r := range rs {
		h, err := r.Head()
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

// rawCase is a case as a merge passes it through: its JSON and the fields
// the merge reads.
type rawCase struct {
	raw json.RawMessage
	reportio.Verdict
}

// shardCursor is one input of a streaming merge: its next case and that
// case's place in the whole run.
type shardCursor struct {
	r    *reportio.Reader
	name string
	pos  []int // the shard's positions; nil when it has none
	k    int   // cases read
	next *rawCase
	at   int // the next case's position
}

// advance reads the cursor's next case; c.next is nil at the end.
func (c *shardCursor) advance() error {
	// The case's JSON is the reader's until its next read, which comes
	// after the merge has written it.
	raw, ok, err := c.r.NextRaw()
	if err != nil || !ok {
		c.next = nil
		return err
	}
	rc := &rawCase{raw: raw}
	if rc.Verdict, err = reportio.DecodeVerdict(raw); err != nil {
		return c.r.Decode(raw, &rc.Verdict)
	}
	if c.pos != nil {
		if c.k >= len(c.pos) {
			return fmt.Errorf("%s has more cases than shard positions (%d)", c.name, len(c.pos))
		}
		c.at = c.pos[c.k]
	}
	c.k++
	c.next = rc
	return nil
}

// mergeStream merges the shard reports in files onto w as the merge of
// [reports.MergeWith] would, reading every file as a stream: the
// shard set is checked before anything is written, and the cases are
// passed through in the whole run's order (by their recorded positions)
// or, for reports without them, in the order of the files. Memory holds
// the case ids (to refuse one in two reports), not the cases.
func mergeStream(files []string, allowPartial bool, w io.Writer) error {
	rs, closeAll, err := openReports(files)
	if err != nil {
		return err
	}
	defer closeAll()
	hs, err := heads(rs)
	if err != nil {
		return err
	}
	opts := reports.MergeOptions{AllowPartial: allowPartial, Names: files}
	headsComplete := true
	for _, r := range rs {
		headsComplete = headsComplete && r.Has("suite")
	}
	if headsComplete {
		// Not one set of shards of one suite: refused before anything
		// is written. (A report with its suite after its cases is
		// checked at the end.)
		if _, err := reports.MergeWith(opts, hs...); err != nil {
			return err
		}
	}
	cur, ordered, err := shardCursors(rs, hs, files)
	if err != nil {
		return err
	}
	j := reportfmt.NewJSON(w, hs[0].Suite, reportfmt.JSONOptions{SuiteDigest: hs[0].SuiteDigest})
	sum := reportfmt.NewSummary(hs[0].Suite)
	seen := map[string]int{}
	last := -1
	for {
		i := pickCursor(cur, ordered)
		if i < 0 {
			break
		}
		c := cur[i]
		if j0, dup := seen[c.next.ID]; dup {
			return fmt.Errorf("%w: case %q is in %s and %s", reports.ErrDuplicateCase, c.next.ID, files[j0], files[i])
		}
		if ordered && c.at <= last {
			return fmt.Errorf("%w: %s: case %q at position %d, after position %d", reports.ErrDuplicateCase, files[i], c.next.ID, c.at, last)
		}
		seen[c.next.ID], last = i, c.at
		if err := addMerged(sum, c.next.raw); err != nil {
			return fmt.Errorf("%s: case %q: %w", files[i], c.next.ID, err)
		}
		if err := j.AddRaw(c.next.raw); err != nil {
			return err
		}
		if err := c.advance(); err != nil {
			return err
		}
	}
	for i, r := range rs {
		if hs[i], err = r.Finish(); err != nil {
			return err
		}
	}
	merged, err := reports.MergeWith(opts, hs...)
	if err != nil {
		return err
	}
	sum.Totals, sum.Judges, sum.Panels = merged.Totals, merged.Judges, merged.Panels
	for _, cv := range merged.Caveats {
		sum.AddCaveat(cv)
	}
	// The shards are of one suite: the first one's tail says its group_by,
	// cluster bootstrap and calibrations, and the merged cases are counted
	// again under them, as the whole run counted its own.
	if err := recordedSetup(rs[0], sum); err != nil {
		return fmt.Errorf("%s: %w", files[0], err)
	}
	return j.Finish(sum)
}

// addMerged counts a merged case's JSON in sum: decoded slim (what the
// splits, groups, clusters and corrected pass rates read), or whole when
// the slim decode cannot be sure of it.
func addMerged(sum *reportfmt.Summary, raw []byte) error {
	var sc slimCase
	if decodeSlim(raw, &sc) {
		sum.Add(sc.result())
		return nil
	}
	var whole proctor.CaseResult
	if err := json.Unmarshal(raw, &whole); err != nil {
		return jsonerr.User(raw, err)
	}
	sum.Add(whole)
	return nil
}

// shardCursors opens a cursor on each report's cases, at its first, and
// reports whether every report records its cases' places in the run.
func shardCursors(rs []*reportio.Reader, hs []*proctor.Report, files []string) ([]*shardCursor, bool, error) {
	ordered := true
	cur := make([]*shardCursor, len(rs))
	for i, r := range rs {
		cur[i] = &shardCursor{r: r, name: files[i]}
		if hs[i].Shard != nil {
			cur[i].pos = hs[i].Shard.Positions
			if cur[i].pos == nil {
				cur[i].pos = []int{}
			}
		}
		ordered = ordered && cur[i].pos != nil
		if err := cur[i].advance(); err != nil {
			return nil, false, err
		}
	}
	return cur, ordered, nil
}

// pickCursor returns the cursor whose case comes next: the lowest position
// when ordered, else the first not at its end; -1 when all are.
func pickCursor(cur []*shardCursor, ordered bool) int {
	best := -1
	for i, c := range cur {
		if c.next == nil {
			continue
		}
		if !ordered {
			return i
		}
		if best < 0 || c.at < cur[best].at {
			best = i
		}
	}
	return best
}

// caseSink is what a streamReport caller does with each case: add takes
// it (nil: nothing); wantsPassed reports whether add reads the whole of a
// passed case given to it next (nil: always), and when it does not, add
// gets a passed case with only the fields of [slimCase]. With encode and
// addEncoded set, a case add would take whole is encoded by encode on the
// decoding goroutines and given to addEncoded with its encoding instead.
type caseSink struct {
	add         func(proctor.CaseResult) error
	wantsPassed func() bool
	encode      func(proctor.CaseResult) ([]byte, error)
	addEncoded  func(proctor.CaseResult, []byte) error
}

// wants reports whether the next case, of verdict v, must be decoded
// whole for k.
func (k caseSink) wants(v proctor.Status) bool {
	return k.add != nil && (v != proctor.StatusPassed || k.wantsPassed == nil || k.wantsPassed())
}

// streamReport reads the report at path as a stream: start is given its
// fields before the cases and returns what to do with each case; the
// returned Summary counts every case, as [reportfmt.Summarize] would.
// Passed cases neither the Summary nor the sink lists are decoded slim.
func streamReport(path string, start func(head *proctor.Report) (caseSink, error)) (*reportfmt.Summary, error) {
	r, err := reportio.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	head, err := r.Head()
	if err != nil {
		return nil, err
	}
	sink, err := start(head)
	if err != nil {
		return nil, err
	}
	sum := reportfmt.NewSummary(head.Suite)
	if err := streamCases(r, sum, sink); err != nil {
		return nil, err
	}
	tail, err := r.Finish()
	if err != nil {
		return nil, err
	}
	if err := recordedSetup(r, sum); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sum.Suite = tail.Suite
	sum.Totals = tail.Totals
	sum.Judges = append(sum.Judges, tail.Judges...)
	sum.Panels = tail.Panels
	for _, cv := range tail.Caveats {
		sum.AddCaveat(cv)
	}
	return sum, nil
}

// streamCases adds r's cases to sum and sink, decoding whole the ones
// either lists: the Summary the cases it keeps ([reportfmt.Summary.Keeps]),
// the sink the ones it wants.
func streamCases(r *reportio.Reader, sum *reportfmt.Summary, sink caseSink) error {
	d := &caseDecoder{r: r, wholeOther: sink.add != nil}
	if sink.addEncoded != nil {
		d.encode = sink.encode
	}
	d.wholeAll.Store(sink.wants(proctor.StatusPassed))
	return reportio.Stream(r, d.decode, func(sc streamCase) error {
		c := sc.c
		wanted := sink.wants(c.Verdict)
		if sc.raw != nil && (wanted || sum.Keeps(c.Verdict)) {
			var err error
			if c, err = d.whole(sc); err != nil {
				return err
			}
			sc.raw = nil
		}
		sum.Add(c)
		var err error
		switch {
		case sink.add == nil:
		case sc.js != nil:
			err = sink.addEncoded(c, sc.js)
		default:
			err = sink.add(c)
		}
		if w := sink.wants(proctor.StatusPassed); w != d.wholeAll.Load() {
			d.wholeAll.Store(w)
		}
		return err
	})
}

// nothingPerCase is a streamReport start that only counts.
func nothingPerCase(*proctor.Report) (caseSink, error) { return caseSink{}, nil }

// showJUnit writes the report at path as JUnit XML, streaming its cases
// through a scratch file.
func showJUnit(path string, w io.Writer) error {
	scratch, err := os.CreateTemp("", "proctor-junit-*.xml")
	if err != nil {
		return err
	}
	defer os.Remove(scratch.Name())
	defer scratch.Close()
	var j *reportfmt.JUnit
	sum, err := streamReport(path, func(h *proctor.Report) (caseSink, error) {
		j = reportfmt.NewJUnit(w, h.Suite, reportfmt.JUnitOptions{Scratch: scratch})
		return caseSink{add: j.Add}, nil
	})
	if err != nil {
		return err
	}
	return j.Finish(sum)
}

// writeHTMLStream writes the page of the report at path, streaming its
// cases.
func writeHTMLStream(path string, w io.Writer, opts reportfmt.HTMLOptions) error {
	var h *reportfmt.HTML
	sum, err := streamReport(path, func(head *proctor.Report) (caseSink, error) {
		h = reportfmt.NewHTML(w, head.Suite, opts)
		return caseSink{add: h.Add, wantsPassed: h.EmbedsPassed, encode: reportfmt.HTMLCaseJSON, addEncoded: h.AddEncoded}, nil
	})
	if err != nil {
		return err
	}
	return h.Finish(sum)
}

// writeOutWhole is writeOut for a writer that may fail halfway (a report
// read as a stream): to a file it writes beside it and renames it into
// place only once write succeeded, so a failure leaves no partial page.
func writeOutWhole(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" {
		return write(stdout)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// reportMemoryLimit is the soft memory limit compare runs under when
// GOMEMLIMIT sets none: what it keeps per case (the ids and verdicts of
// both reports, and the maps that pair them) is about 250 bytes, and
// without a limit the collector lets the heap grow to twice that before
// it runs (about 400 MB at a million cases instead of 300).
const reportMemoryLimit = 200 << 20

// withMemoryLimit runs f under reportMemoryLimit, unless GOMEMLIMIT is
// set, and puts the previous limit back.
func withMemoryLimit(f func() int) int {
	if os.Getenv("GOMEMLIMIT") != "" {
		return f()
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(reportMemoryLimit))
	return f()
}

// recordedSetup sets up sum as the run's summary was, from what its
// report recorded after the cases: the suite's group_by field (from
// "groups"), its cluster bootstrap (from "clustered_se") and the
// calibrations of its checks (from "judge_corrected"), so show and html
// print the group breakdown, the bootstrap interval and the corrected
// pass rates the run printed. Counted from the cases, they come out as
// the run's.
func recordedSetup(r *reportio.Reader, sum *reportfmt.Summary) error {
	var rec struct {
		Groups *struct {
			By string `json:"by"`
		} `json:"groups"`
		Clustered *struct {
			Bootstrap *struct {
				Reps int    `json:"reps"`
				Seed uint64 `json:"seed"`
			} `json:"bootstrap"`
		} `json:"clustered_se"`
		Corrected []struct {
			Grader   string          `json:"grader"`
			Accuracy metric.Accuracy `json:"calibration"`
		} `json:"judge_corrected"`
	}
	for _, k := range []string{"groups", "clustered_se", "judge_corrected"} {
		raw, ok := r.Raw(k)
		if !ok {
			continue
		}
		obj := append(append([]byte(`{"`+k+`":`), raw...), '}')
		if err := json.Unmarshal(obj, &rec); err != nil {
			return fmt.Errorf("its %q: %w", k, jsonerr.User(nil, err))
		}
	}
	if rec.Groups != nil {
		sum.GroupBy = rec.Groups.By
	}
	if rec.Clustered != nil && rec.Clustered.Bootstrap != nil {
		sum.Bootstrap = &reportfmt.BootstrapOptions{Reps: rec.Clustered.Bootstrap.Reps, Seed: rec.Clustered.Bootstrap.Seed}
	}
	for _, c := range rec.Corrected {
		a := c.Accuracy
		sum.Calibrate(calibrate.File{Grader: c.Grader, Result: calibrate.Result{Confusion: calibrate.ConfusionMatrix{
			PassPassed: a.GraderPass, PassFailed: a.HumanPass - a.GraderPass, FailFailed: a.GraderFail, FailPassed: a.HumanFail - a.GraderFail}}})
	}
	return nil
}
