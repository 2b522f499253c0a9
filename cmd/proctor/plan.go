package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor/metric"
)

const planUsage = `usage: proctor plan --baseline RATE --detect CHANGE [--discordance SHARE] [--cluster-size M --icc R] [--alpha A] [--power P] [--json]

Prints how many cases a suite needs for proctor compare to detect a
change of CHANGE in a pass rate of about RATE, comparing two runs of the
same cases with McNemar's test (Connor 1987). RATE, CHANGE and SHARE are
proportions (0.80) or points (80%, 3pp).

The discordance is the share of cases whose verdict differs between the
two runs; proctor compare prints it for two runs you already have. Left
out, plan assumes the runs' outcomes are independent, which overstates
it (reruns of one suite mostly agree) and so the cases needed. With
clusters of M cases (questions about one document, turns of one
conversation) whose verdicts correlate with intra-cluster correlation R,
the count is multiplied by the design effect 1 + (M-1)R.

flags:
`

// planInput is what a plan is computed from.
type planInput struct {
	Baseline    float64  `json:"baseline"`
	Detect      float64  `json:"detect"`
	Discordance *float64 `json:"discordance,omitempty"`
	ClusterSize float64  `json:"cluster_size,omitempty"`
	ICC         float64  `json:"icc,omitempty"`
	Alpha       float64  `json:"alpha"`
	Power       float64  `json:"power"`
}

// planResult is the plan: the cases needed and what was assumed.
type planResult struct {
	Input planInput `json:"input"`
	// Pairs is the number of cases without clustering.
	Pairs int `json:"pairs"`
	// Cases is Pairs times the design effect, rounded up.
	Cases int `json:"cases"`
	// Discordance is the share used: the given one, or the one
	// independence implies.
	Discordance  float64 `json:"discordance"`
	Assumed      bool    `json:"discordance_assumed"`
	DesignEffect float64 `json:"design_effect"`
	Clusters     int     `json:"clusters,omitempty"`
	Method       string  `json:"method"`
}

func cmdPlan(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("plan", stderr)
	baseline := fs.String("baseline", "", "the pass rate expected, such as `0.80` or 80%")
	detect := fs.String("detect", "", "the change in pass rate to detect, such as `0.03` or 3pp")
	disc := fs.String("discordance", "", "the share of cases whose verdict differs between the two runs, such as `0.10`")
	m := fs.Float64("cluster-size", 0, "cases per cluster, `M`")
	icc := fs.Float64("icc", 0, "intra-cluster correlation of verdicts, `R`")
	alpha := fs.Float64("alpha", 0.05, "two-sided significance level")
	power := fs.Float64("power", 0.8, "power: the chance of detecting the change when it is there")
	asJSON := fs.Bool("json", false, "print the plan as JSON")
	pos, code, done := parseArgs(fs, planUsage, args, stdout)
	if done {
		return code
	}
	in, err := planFlags(*baseline, *detect, *disc, *m, *icc, *alpha, *power)
	if err == nil && len(pos) > 0 {
		err = fmt.Errorf("unexpected argument %q", pos[0])
	}
	var res planResult
	if err == nil {
		res, err = plan(in)
	}
	if err != nil {
		fmt.Fprintf(stderr, "proctor plan: %v\n", err)
		printUsage(stderr, fs, planUsage)
		return exitUsage
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
		return exitOK
	}
	writePlan(stdout, res)
	return exitOK
}

// planFlags reads and checks the flags.
func planFlags(baseline, detect, disc string, m, icc, alpha, power float64) (planInput, error) {
	in := planInput{ClusterSize: m, ICC: icc, Alpha: alpha, Power: power}
	var err error
	if in.Baseline, err = parseShare("--baseline", baseline); err != nil {
		return in, err
	}
	if in.Detect, err = parseShare("--detect", detect); err != nil {
		return in, err
	}
	if disc != "" {
		d, err := parseShare("--discordance", disc)
		if err != nil {
			return in, err
		}
		in.Discordance = &d
	}
	switch {
	case (m != 0) != (icc != 0):
		return in, errors.New("--cluster-size and --icc go together")
	case m != 0 && (m < 1 || icc < 0 || icc > 1):
		return in, fmt.Errorf("--cluster-size %g --icc %g: want a size of at least 1 and a correlation in [0, 1]", m, icc)
	case !(alpha > 0 && alpha < 1) || !(power > 0 && power < 1):
		return in, fmt.Errorf("--alpha %g --power %g: want both between 0 and 1", alpha, power)
	}
	return in, nil
}

// parseShare reads a share in (0, 1) written as a proportion ("0.8") or
// as points ("80%", "3pp"); a bare number of 1 or more is refused: 2
// could mean either.
func parseShare(flag, s string) (float64, error) {
	if s == "" {
		return 0, fmt.Errorf("%s is required", flag)
	}
	t := strings.TrimSpace(strings.ToLower(s))
	scale := 1.0
	if u, ok := strings.CutSuffix(t, "pp"); ok {
		t, scale = u, 100
	} else if u, ok := strings.CutSuffix(t, "%"); ok {
		t, scale = u, 100
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	switch {
	case err != nil || math.IsNaN(v):
		return 0, fmt.Errorf("%s %q: want a proportion such as 0.03, or points such as 3pp", flag, s)
	case scale == 1 && v >= 1:
		return 0, fmt.Errorf("%s %q: write %gpp for %g points, or a proportion below 1", flag, s, v, v)
	}
	v /= scale
	if !(v > 0 && v < 1) {
		return 0, fmt.Errorf("%s %q: want a share above 0 and below 100%%", flag, s)
	}
	return v, nil
}

// plan computes the cases needed.
func plan(in planInput) (planResult, error) {
	res := planResult{Input: in, DesignEffect: 1, Method: "Connor 1987, normal approximation"}
	switch {
	case in.Discordance != nil:
		res.Discordance = *in.Discordance
	default:
		res.Assumed = true
		for _, p1 := range []float64{in.Baseline - in.Detect, in.Baseline + in.Detect} {
			if p1 >= 0 && p1 <= 1 {
				res.Discordance = max(res.Discordance, metric.IndependentDiscordance(in.Baseline, p1))
			}
		}
	}
	if in.Detect > res.Discordance {
		return res, fmt.Errorf("a change of %.1f points needs at least %.1f%% of cases to change verdict; --discordance is %.1f%%",
			100*in.Detect, 100*in.Detect, 100*res.Discordance)
	}
	n, err := metric.PairedSampleSize(in.Detect, res.Discordance, in.Alpha, in.Power)
	if err != nil {
		return res, fmt.Errorf("baseline %g, change %g: %w", in.Baseline, in.Detect, err)
	}
	res.Pairs, res.Cases = n, n
	if in.ClusterSize > 0 {
		res.DesignEffect = metric.DesignEffect(in.ClusterSize, in.ICC)
		res.Cases = int(math.Ceil(float64(n)*res.DesignEffect - 1e-9))
		res.Clusters = int(math.Ceil(float64(res.Cases) / in.ClusterSize))
	}
	return res, nil
}

func writePlan(w io.Writer, r planResult) {
	in := r.Input
	fmt.Fprintf(w, "cases needed: %d\n", r.Cases)
	fmt.Fprintf(w, "  to detect a change of %.1f points from a pass rate of %.1f%%, comparing two runs of the same cases\n", 100*in.Detect, 100*in.Baseline)
	fmt.Fprintf(w, "  with McNemar's test at two-sided alpha %g and %g%% power (%s)\n", in.Alpha, 100*in.Power, r.Method)
	if r.Assumed {
		fmt.Fprintf(w, "assumed: the two runs' verdicts are independent, so %.1f%% of cases change verdict between them.\n", 100*r.Discordance)
		fmt.Fprintf(w, "  Reruns of one suite usually agree more than that, so this overstates the cases needed;\n")
		fmt.Fprintf(w, "  proctor compare prints the discordance of two runs you have: pass it as --discordance.\n")
	} else {
		fmt.Fprintf(w, "assumed: %.1f%% of cases change verdict between the runs (--discordance).\n", 100*r.Discordance)
	}
	if in.ClusterSize > 0 {
		fmt.Fprintf(w, "clusters of %g cases with intra-cluster correlation %g: design effect %.3g, so %d independent cases become %d (%d clusters)\n",
			in.ClusterSize, in.ICC, r.DesignEffect, r.Pairs, r.Cases, r.Clusters)
	} else {
		fmt.Fprintf(w, "assumed: cases are independent of each other (give --cluster-size and --icc when they come in groups).\n")
	}
}
