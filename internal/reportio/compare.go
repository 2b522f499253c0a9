package reportio

import (
	"encoding/json"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reports"
	"golang.org/x/sync/errgroup"
)

// Recorded is what a report's summary recorded beside the fields
// [proctor.Report] holds and a comparison shows for each run: its
// clustered standard error and its pass rates corrected for judge error,
// as the run wrote them (absent when the run computed none).
type Recorded struct {
	ClusteredSE    json.RawMessage `json:"clustered_se,omitempty"`
	JudgeCorrected json.RawMessage `json:"judge_corrected,omitempty"`
}

// Compared is a comparison of two reports read as streams: the reports
// without their cases, what each recorded, and the comparison.
type Compared struct {
	Base, Head                 *proctor.Report
	BaseRecorded, HeadRecorded Recorded
	Comparison                 *reports.Comparison
}

// CompareFiles compares the JSON reports at basePath and headPath as
// [reports.CompareVerdicts] does, reading each a case at a time and
// keeping per case only its id, verdict and cluster: the memory it takes
// is a few dozen bytes a case, not the reports. The two reports are read
// at once. base and head are the reports without their cases.
func CompareFiles(basePath, headPath string, o reports.CompareOptions) (base, head *proctor.Report, c *reports.Comparison, err error) {
	cmp, err := CompareRecorded(basePath, headPath, o)
	if err != nil {
		return nil, nil, nil, err
	}
	return cmp.Base, cmp.Head, cmp.Comparison, nil
}

// CompareRecorded is [CompareFiles], with what each report recorded beside
// its cases.
func CompareRecorded(basePath, headPath string, o reports.CompareOptions) (*Compared, error) {
	var out Compared
	var baseCases, headCases []reports.ComparedCase
	var g errgroup.Group
	g.Go(func() (err error) {
		out.Base, baseCases, out.BaseRecorded, err = readCompared(basePath)
		return err
	})
	g.Go(func() (err error) {
		out.Head, headCases, out.HeadRecorded, err = readCompared(headPath)
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	c, err := reports.CompareVerdicts(out.Base, out.Head, baseCases, headCases, o)
	if err != nil {
		return nil, err
	}
	out.Comparison = c
	return &out, nil
}

// readCompared reads the report at path keeping per case what a
// comparison needs.
func readCompared(path string) (*proctor.Report, []reports.ComparedCase, Recorded, error) {
	var rec Recorded
	r, err := Open(path)
	if err != nil {
		return nil, nil, rec, err
	}
	defer r.Close()
	var cases []reports.ComparedCase
	for {
		raw, ok, err := r.NextRaw()
		if err != nil {
			return nil, nil, rec, err
		}
		if !ok {
			break
		}
		v, err := DecodeVerdict(raw)
		if err != nil {
			return nil, nil, rec, r.caseError(nil, err)
		}
		cases = append(cases, reports.ComparedCase{ID: v.ID, Verdict: v.Verdict, Cluster: v.Cluster})
	}
	rep, err := r.Finish()
	rec.ClusteredSE, _ = r.Raw("clustered_se")
	rec.JudgeCorrected, _ = r.Raw("judge_corrected")
	return rep, cases, rec, err
}
