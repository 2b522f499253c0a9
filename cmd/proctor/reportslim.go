package main

import (
	"encoding/json"
	"sync/atomic"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/reportio"
)

// slimGrade, slimAttempt and slimCase are what report show and report
// html read of a passed case they only count: the fields of the totals,
// breakdowns, clusters, corrected rates, attempt counts, caveats and the
// page's grader charts. Decoding them skips the reasons, evidence, inputs
// and outputs, which are most of the decoding's time.
type slimGrade struct {
	Grader  string
	Status  proctor.Status
	Score   *float64
	Caveats []string
}

type slimAttempt struct {
	Verdict proctor.Status
	Grades  []slimGrade
}

type slimCase struct {
	reportio.Verdict // id, verdict, severity, split, cluster
	Group            string
	Tags             []string
	MinPass          int
	AttemptsSaved    int
	Attempts         []slimAttempt
}

// result is s as a CaseResult with only the slim fields set.
func (s *slimCase) result() proctor.CaseResult {
	c := proctor.CaseResult{ID: s.ID, Verdict: s.Verdict.Verdict, Severity: s.Severity, Split: s.Split,
		Cluster: s.Cluster, Group: s.Group, Tags: s.Tags, MinPass: s.MinPass, AttemptsSaved: s.AttemptsSaved}
	n := 0
	for _, a := range s.Attempts {
		n += len(a.Grades)
	}
	grades := make([]proctor.Grade, 0, n) // one allocation for the case's grades
	c.Attempts = make([]proctor.AttemptResult, len(s.Attempts))
	for i, a := range s.Attempts {
		start := len(grades)
		for _, g := range a.Grades {
			pg := proctor.Grade{Grader: g.Grader, Status: g.Status, Caveats: g.Caveats}
			if g.Score != nil {
				pg.Score, pg.HasScore = *g.Score, true
			}
			grades = append(grades, pg)
		}
		c.Attempts[i] = proctor.AttemptResult{Verdict: a.Verdict, Grades: grades[start:len(grades):len(grades)]}
	}
	return c
}

// streamCase is one case as streamReport's workers decode it: whole, or
// slim with its JSON kept for decoding whole if it is listed after all;
// js is its HTML encoding when the decoder was asked for one.
type streamCase struct {
	c   proctor.CaseResult
	raw json.RawMessage // set when c is slim
	js  []byte
}

// caseDecoder decodes the cases of r for streamReport: a passed case slim
// unless wholeAll is set, a failed or flaky one slim unless wholeOther
// is, any other whole. encode, when set, encodes each case decoded whole
// as the sink embeds it, on the decoding goroutine.
type caseDecoder struct {
	r          *reportio.Reader
	wholeAll   atomic.Bool
	wholeOther bool
	encode     func(proctor.CaseResult) ([]byte, error)
}

func (d *caseDecoder) decode(raw json.RawMessage) (streamCase, error) {
	var sc streamCase
	if !d.wholeAll.Load() {
		var s slimCase
		if decodeSlim(raw, &s) && d.slim(s.Verdict.Verdict) {
			return streamCase{c: s.result(), raw: raw}, nil
		}
	}
	if err := d.r.Decode(raw, &sc.c); err != nil {
		return sc, err
	}
	if d.encode != nil {
		var err error
		sc.js, err = d.encode(sc.c)
		return sc, err
	}
	return sc, nil
}

// slim reports whether a case of verdict v may be decoded slim.
func (d *caseDecoder) slim(v proctor.Status) bool {
	switch v {
	case proctor.StatusPassed:
		return true
	case proctor.StatusFailed, proctor.StatusFlaky:
		return !d.wholeOther
	}
	return false // a not-graded case's reason is counted
}

// whole returns sc's case decoded whole.
func (d *caseDecoder) whole(sc streamCase) (proctor.CaseResult, error) {
	if sc.raw == nil {
		return sc.c, nil
	}
	var c proctor.CaseResult
	err := d.r.Decode(sc.raw, &c)
	return c, err
}
