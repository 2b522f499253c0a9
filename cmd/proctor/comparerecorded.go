package main

import (
	"encoding/json"
	"fmt"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/reportio"
	"github.com/proctorhq/proctor/reportfmt"
	"github.com/proctorhq/proctor/reports"
)

// comparisonJSON is what compare --json prints: the comparison, and for
// each run its pass rate with the clustered standard error and the
// corrected pass rates its report recorded.
type comparisonJSON struct {
	*reports.Comparison
	Base runFigures `json:"base"`
	Head runFigures `json:"head"`
}

// runFigures are one run's own figures beside the comparison: its pass
// rate over the cases passed or failed (null with none), and, as its
// report recorded them, its clustered standard error and its pass rates
// corrected for judge error.
type runFigures struct {
	Suite             string                    `json:"suite"`
	PassRate          *float64                  `json:"pass_rate"`
	Measured          int                       `json:"measured"`
	ClusteredSE       *reportfmt.ClusteredRate  `json:"clustered_se,omitempty"`
	CorrectedPassRate []reportfmt.CorrectedRate `json:"corrected_pass_rate,omitempty"`
}

// figuresOf reads the figures of run r from what its report recorded.
func figuresOf(r *proctor.Report, rec reportio.Recorded) (runFigures, error) {
	f := runFigures{Suite: r.Suite}
	if v, d, ok := r.PassRate(); ok {
		f.PassRate, f.Measured = &v, d
	}
	if len(rec.ClusteredSE) > 0 {
		if err := json.Unmarshal(rec.ClusteredSE, &f.ClusteredSE); err != nil {
			return f, fmt.Errorf("its clustered_se: %w", err)
		}
	}
	if len(rec.JudgeCorrected) > 0 {
		if err := json.Unmarshal(rec.JudgeCorrected, &f.CorrectedPassRate); err != nil {
			return f, fmt.Errorf("its judge_corrected: %w", err)
		}
	}
	return f, nil
}

// runFigureLines words a run's clustered SE and corrected pass rates for
// the terminal, one line each; none when its report recorded neither.
func runFigureLines(name string, f runFigures) []string {
	var out []string
	if c := f.ClusteredSE; c != nil {
		out = append(out, fmt.Sprintf("%s clustered SE %.1f points over %d clusters (CR1), design effect %.2f; 95%% CI %.1f%%-%.1f%%",
			name, 100*c.SE, c.Clusters, c.DesignEffect, 100*c.Low, 100*c.High))
	}
	for _, r := range f.CorrectedPassRate {
		if c := r.Corrected; c != nil {
			out = append(out, fmt.Sprintf("%s corrected %s: raw %.1f%% -> %.1f%%, 95%% CI %.1f%%-%.1f%% (Rogan-Gladen, Lang-Reiczigel; sensitivity %.2f, specificity %.2f)",
				name, r.Grader, 100*r.RawPassRate, 100*c.Rate, 100*c.Low, 100*c.High, c.Sensitivity, c.Specificity))
		} else {
			out = append(out, fmt.Sprintf("%s corrected %s: raw %.1f%%, not corrected: %s", name, r.Grader, 100*r.RawPassRate, r.Note))
		}
	}
	return out
}
