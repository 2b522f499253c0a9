package proctor

import "github.com/proctorhq/proctor/metric"

// PanelStats measures how the judges of the panels convened in a run
// agreed with each other.
type PanelStats struct {
	// Convened counts the panels convened.
	Convened int `json:"convened"`
	// Paired counts the panels in which at least two judges took a side:
	// the units Alpha is computed over.
	Paired int `json:"paired"`
	// Alpha is Krippendorff's alpha (nominal) over the panels' pass and
	// fail votes, abstentions left out as missing values: 1 is perfect
	// agreement, 0 agreement at chance, below 0 systematic disagreement.
	// Nil when undefined (no paired panel, or every vote the same).
	// Panels stopped early hold only the votes that settled them, which
	// agree; judges asked in parallel ([JudgePolicy.PanelParallel]) give the
	// fuller measure.
	Alpha *float64 `json:"alpha,omitempty"`
	// Coincidences is the coincidence matrix alpha is computed from, over
	// the values pass (0) and fail (1), so that reports can be combined.
	Coincidences [2][2]float64 `json:"coincidences"`
}

// agreement is what a pool has seen of its judges' verdicts.
type agreement struct {
	convened, paired int
	o                [2][2]float64
}

// since returns the panel stats gathered since last, nil when no panel was
// convened.
func (a *agreement) since(last *agreement) *PanelStats {
	d := PanelStats{Convened: a.convened - last.convened, Paired: a.paired - last.paired}
	if d.Convened == 0 {
		return nil
	}
	for i := range 2 {
		for j := range 2 {
			d.Coincidences[i][j] = a.o[i][j] - last.o[i][j]
		}
	}
	d.Alpha = alphaOf(&d.Coincidences)
	return &d
}

// AddPanels adds the panel statistics of one pool or of another run (a
// shard's report) to the report's: the counts and the coincidences are
// summed and the alpha is computed again from the sum, so reports merged
// this way give the alpha of the whole run. ps is not kept; nil adds
// nothing.
func (r *Report) AddPanels(ps *PanelStats) {
	if ps == nil {
		return
	}
	if r.Panels == nil {
		c := *ps
		r.Panels = &c
		return
	}
	r.Panels.Convened += ps.Convened
	r.Panels.Paired += ps.Paired
	for i := range 2 {
		for j := range 2 {
			r.Panels.Coincidences[i][j] += ps.Coincidences[i][j]
		}
	}
	r.Panels.Alpha = alphaOf(&r.Panels.Coincidences)
}

// record counts, for each vote, whether it agreed with the grade's final
// status, and adds a convened panel's votes to the coincidences.
func (p *JudgePool) record(votes []JudgeVote, final Status, panel bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var vals []int
	for _, v := range votes {
		i := p.index(v.Name)
		if i < 0 {
			continue
		}
		s := &p.stats[i]
		switch {
		case v.Verdict == VerdictAbstain:
			s.Abstained++
			continue
		case final != StatusPassed && final != StatusFailed:
		case (v.Verdict == VerdictPass) == (final == StatusPassed):
			s.Agreed++
		default:
			s.Disagreed++
		}
		vals = append(vals, int(v.Verdict)-1) // pass 0, fail 1
	}
	if !panel {
		return
	}
	p.agree.convened++
	if metric.AddCoincidences(rows(&p.agree.o), vals) {
		p.agree.paired++
	}
}

func (p *JudgePool) index(name string) int {
	for i, j := range p.judges {
		if j.Name == name {
			return i
		}
	}
	return -1
}

// rows returns the coincidence matrix o as the rows metric's alpha
// reads and adds to, sharing o's storage.
func rows(o *[2][2]float64) [][]float64 {
	return [][]float64{o[0][:], o[1][:]}
}

// alphaOf is Krippendorff's alpha (nominal) over the pass and fail
// coincidences o, nil when undefined.
func alphaOf(o *[2][2]float64) *float64 {
	a, ok := metric.KrippendorffAlphaNominal(rows(o))
	if !ok {
		return nil
	}
	return &a
}
