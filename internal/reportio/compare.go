package reportio

import (
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
	"golang.org/x/sync/errgroup"
)

// compareChunk is how many paired cases go to one [proctor.CompareReports]
// call.
const compareChunk = 4096

// idVerdict is what [CompareFiles] keeps of a case.
type idVerdict struct {
	id string
	v  proctor.Status
}

// CompareFiles is [proctor.CompareReports] over two report files read as
// streams, both at once: per case it keeps only the id and verdict, so a
// comparison of two million-case reports stays in flat memory. The pairs
// are classified by CompareReports itself, a chunk at a time, and the
// McNemar p-value is computed over the summed counts. It returns the two
// reports without their cases, for the totals and pass rates.
func CompareFiles(basePath, headPath string) (base, head *proctor.Report, c *proctor.Comparison, err error) {
	var baseCases, headCases []idVerdict
	var g errgroup.Group
	g.Go(func() (err error) { base, baseCases, err = readIDVerdicts(basePath); return err })
	g.Go(func() (err error) { head, headCases, err = readIDVerdicts(headPath); return err })
	if err := g.Wait(); err != nil {
		return nil, nil, nil, err
	}
	c = proctor.CompareReports(base, head) // no cases: the warnings
	type inHead struct {
		v      proctor.Status
		inBase bool
	}
	headBy := make(map[string]*inHead, len(headCases))
	for _, hc := range headCases {
		if e, ok := headBy[hc.id]; ok {
			e.v = hc.v // the last one wins, as in CompareReports
			continue
		}
		headBy[hc.id] = &inHead{v: hc.v}
	}
	bc := make([]proctor.CaseResult, 0, compareChunk)
	hc := make([]proctor.CaseResult, 0, compareChunk)
	flush := func() {
		part := proctor.CompareReports(&proctor.Report{Suite: base.Suite, Cases: bc}, &proctor.Report{Suite: base.Suite, Cases: hc})
		c.Regressions = append(c.Regressions, part.Regressions...)
		c.Fixes = append(c.Fixes, part.Fixes...)
		c.Changed = append(c.Changed, part.Changed...)
		c.Paired += part.Paired
		c.PassToFail += part.PassToFail
		c.FailToPass += part.FailToPass
		bc, hc = bc[:0], hc[:0]
	}
	for _, b := range baseCases {
		e, ok := headBy[b.id]
		if !ok {
			c.OnlyBase = append(c.OnlyBase, b.id)
			continue
		}
		e.inBase = true
		bc = append(bc, proctor.CaseResult{ID: b.id, Verdict: b.v})
		hc = append(hc, proctor.CaseResult{ID: b.id, Verdict: e.v})
		if len(bc) == compareChunk {
			flush()
		}
	}
	flush()
	for _, h := range headCases {
		if !headBy[h.id].inBase {
			c.OnlyHead = append(c.OnlyHead, h.id)
		}
	}
	c.PValue = metric.McNemarExact(c.PassToFail, c.FailToPass)
	return base, head, c, nil
}

// readIDVerdicts reads the report at path keeping per case its id and
// verdict.
func readIDVerdicts(path string) (*proctor.Report, []idVerdict, error) {
	r, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	var cases []idVerdict
	for {
		var v Verdict
		ok, err := r.Next(&v)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			break
		}
		cases = append(cases, idVerdict{v.ID, v.Verdict})
	}
	rep, err := r.Finish()
	return rep, cases, err
}
