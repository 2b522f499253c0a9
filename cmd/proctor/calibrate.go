package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/proctorhq/proctor/calibrate"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/builtin"
	"github.com/proctorhq/proctor/internal/readfile"
	"github.com/proctorhq/proctor/internal/termsafe"
)

const calibrateUsage = `usage: proctor calibrate (--grader SPEC | --grader-file FILE) --config FILE [--json] SAMPLES.jsonl

Grades human-labelled samples with a model-graded spec and reports the
agreement, Cohen's kappa, the confusion matrix and the abstention rate.
Each line is a sample as proctor grade reads it, plus "label": "pass" or
"fail".

Exit status: 0 when every sample was graded or abstained, 1 when the run
stopped (a judge budget, an interrupt), 2 for a usage, spec or input error.

flags:
`

// cmdCalibrate runs `proctor calibrate --grader SPEC --config FILE
// samples.jsonl`: it grades human-labelled samples with a judge grader and
// reports agreement, Cohen's kappa, the confusion matrix and the
// abstention rate.
func cmdCalibrate(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("calibrate", stderr)
	spec := fs.String("grader", "", "grader spec as JSON")
	specFile := fs.String("grader-file", "", "file holding the grader spec (JSON)")
	configFile := fs.String("config", "", "judges (JSON or YAML)")
	asJSON := fs.Bool("json", false, "write the result as JSON")
	pos, code, done := parseArgs(fs, calibrateUsage, args, stdout)
	if done {
		return code
	}
	if (*spec == "") == (*specFile == "") || len(pos) != 1 {
		fmt.Fprintln(stderr, "proctor calibrate: want --grader or --grader-file, and one SAMPLES.jsonl")
		printUsage(stderr, fs, calibrateUsage)
		return exitUsage
	}
	if *specFile != "" {
		b, err := readfile.Path(ctx, *specFile, readfile.SpecLimit)
		if err != nil {
			fmt.Fprintf(stderr, "proctor calibrate: %v\n", err)
			return exitUsage
		}
		*spec = string(b)
	}
	cfg, err := loadCLIConfig(*configFile)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	if cfg.Judges() == nil {
		fmt.Fprintln(stderr, "proctor calibrate: no judges: give --config with at least one judge")
		return exitUsage
	}
	ch, err := proctor.NewCompiler(append([]proctor.CompilerOption{builtin.Types()}, cfg.CompilerOptions()...)...).Compile([]byte(*spec))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	if proctor.KindOf(ch.Grader) != proctor.KindModel {
		fmt.Fprintf(stderr, "proctor calibrate: %s is not a model-graded spec\n", ch.Name())
		return exitUsage
	}
	in := stdin
	if p := pos[0]; p != "-" {
		f, err := os.Open(p)
		if err != nil {
			fmt.Fprintf(stderr, "proctor calibrate: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		in = f
	}
	samples, err := calibrate.ReadLabelled(in)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	c, err := calibrate.Run(ctx, ch.Grader, samples)
	if err != nil {
		fmt.Fprintf(stderr, "proctor calibrate: stopped: %v\n", err)
	}
	if *asJSON {
		b, merr := calibrationJSON(ch.Name(), c, cfg.Judges().Stats())
		if merr != nil {
			fmt.Fprintln(stderr, merr)
			return exitUsage
		}
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		writeCalibration(termsafe.Writer{W: stdout}, ch.Name(), c, cfg.Judges().Stats())
	}
	if err != nil {
		return exitFailed
	}
	return exitOK
}

// calibrationJSON is the --json output: the calibration's own fields, the
// grader's name (what --calibration matches checks by), its sensitivity
// and specificity (null when undefined) and the judges' costs.
func calibrationJSON(name string, c calibrate.Result, stats []proctor.JudgeStats) ([]byte, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	num := func(f float64) any {
		if math.IsNaN(f) {
			return nil
		}
		return f
	}
	a := c.Accuracy()
	out["grader"], out["judges"] = name, stats
	out["sensitivity"], out["specificity"] = num(a.Sensitivity()), num(a.Specificity())
	return json.Marshal(out)
}

func writeCalibration(w io.Writer, name string, c calibrate.Result, stats []proctor.JudgeStats) {
	num := func(f float64) string {
		if math.IsNaN(f) {
			return "n/a"
		}
		return fmt.Sprintf("%.3f", f)
	}
	m := c.Confusion
	fmt.Fprintf(w, "grader %s: %s, %d graded, %d not graded (abstention rate %.1f%%)\n",
		name, plural(c.Samples, "labelled sample"), c.Graded, c.NotGraded, 100*c.AbstentionRate)
	fmt.Fprintf(w, "agreement %s (%d of %d graded), Cohen's kappa %s\n\n", num(c.Agreement), c.Agree, c.Graded, num(c.Kappa))
	fmt.Fprintf(w, "%-12s %8s %8s %11s\n", "label \\ got", "passed", "failed", "not graded")
	fmt.Fprintf(w, "%-12s %8d %8d %11d\n", "pass", m.PassPassed, m.PassFailed, m.PassNotGraded)
	fmt.Fprintf(w, "%-12s %8d %8d %11d\n", "fail", m.FailPassed, m.FailFailed, m.FailNotGraded)
	for _, s := range stats {
		fmt.Fprintf(w, "\njudge %s (%s, %s): %s, %s, %s, %s", s.Name, s.Family, s.Model,
			plural(s.Calls, "call"), pluralY(s.Retries, "retr"), plural(s.CacheHits, "cache hit"), plural(s.Tokens, "token"))
	}
	fmt.Fprintln(w)
}

// listFlag is a flag that may be given more than once.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// readCalibrations reads the files proctor calibrate --json wrote.
func readCalibrations(files []string) ([]calibrate.File, error) {
	var out []calibrate.File
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("--calibration: %w", err)
		}
		c, err := calibrate.Parse(b)
		if err != nil {
			return nil, fmt.Errorf("--calibration %s: %w", f, err)
		}
		out = append(out, c)
	}
	return out, nil
}
