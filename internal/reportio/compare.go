package reportio

import (
	"github.com/proctorhq/proctor"
	"golang.org/x/sync/errgroup"
)

// CompareFiles compares the JSON reports at basePath and headPath as
// [proctor.CompareVerdicts] does, reading each a case at a time and
// keeping per case only its id, verdict and cluster: the memory it takes
// is a few dozen bytes a case, not the reports. The two reports are read
// at once. base and head are the reports without their cases.
func CompareFiles(basePath, headPath string, o proctor.CompareOptions) (base, head *proctor.Report, c *proctor.Comparison, err error) {
	var baseCases, headCases []proctor.ComparedCase
	var g errgroup.Group
	g.Go(func() (err error) { base, baseCases, err = readCompared(basePath); return err })
	g.Go(func() (err error) { head, headCases, err = readCompared(headPath); return err })
	if err := g.Wait(); err != nil {
		return nil, nil, nil, err
	}
	c, err = proctor.CompareVerdicts(base, head, baseCases, headCases, o)
	if err != nil {
		return nil, nil, nil, err
	}
	return base, head, c, nil
}

// readCompared reads the report at path keeping per case what a
// comparison needs.
func readCompared(path string) (*proctor.Report, []proctor.ComparedCase, error) {
	r, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	var cases []proctor.ComparedCase
	for {
		raw, ok, err := r.NextRaw()
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			break
		}
		v, err := DecodeVerdict(raw)
		if err != nil {
			return nil, nil, r.caseError(nil, err)
		}
		cases = append(cases, proctor.ComparedCase{ID: v.ID, Verdict: v.Verdict, Cluster: v.Cluster})
	}
	rep, err := r.Finish()
	return rep, cases, err
}
