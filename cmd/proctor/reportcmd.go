package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/jsonerr"
	"github.com/proctorhq/proctor/internal/readfile"
	"github.com/proctorhq/proctor/reportfmt"
)

const reportUsage = `usage: proctor report merge A.json B.json ...
       proctor report show [--format text|markdown|junit] REPORT.json
       proctor report html [--out FILE] REPORT.json [MORE.json ...]

merge joins the JSON reports of the shards of one run (proctor run --shard
I/N --out ...) and writes the merged JSON report to standard output, its
cases in the order of the files given and, within each, in run order. It
refuses reports of different suites or with overlapping case ids (exit 2).
show renders a JSON report as the terminal table, Markdown or JUnit XML.
html writes it as one self-contained HTML page (proctor report html --help).
Both refuse a file that is not a proctor JSON report (exit 2).
`

func cmdReport(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, reportUsage)
		return exitUsage
	}
	switch args[0] {
	case "merge":
		return reportMerge(args[1:], stdout, stderr)
	case "show":
		return reportShow(args[1:], stdout, stderr)
	case "html":
		return reportHTML(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, reportUsage)
		return exitOK
	}
	fmt.Fprintf(stderr, "proctor report: unknown subcommand %q\n%s", args[0], reportUsage)
	return exitUsage
}

func reportMerge(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("report merge", stderr)
	files, code, done := parseArgs(fs, reportUsage, args, stdout)
	if done {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "proctor report merge: want one or more JSON reports")
		return exitUsage
	}
	reps, err := readShards(files)
	if err != nil {
		fmt.Fprintf(stderr, "proctor report merge: %v\n", err)
		return exitUsage
	}
	merged, err := proctor.MergeReports(reps...)
	if err != nil {
		fmt.Fprintf(stderr, "proctor report merge: %v\n", err)
		return exitUsage
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(merged); err != nil {
		fmt.Fprintf(stderr, "proctor report merge: %v\n", err)
		return exitUsage
	}
	return exitOK
}

func reportShow(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("report show", stderr)
	format := fs.String("format", "text", "text, markdown or junit")
	files, code, done := parseArgs(fs, reportUsage, args, stdout)
	if done {
		return code
	}
	if len(files) != 1 {
		fmt.Fprintln(stderr, "proctor report show: want one JSON report")
		return exitUsage
	}
	r, err := readReport(files[0])
	if err != nil {
		fmt.Fprintf(stderr, "proctor report show: %v\n", err)
		return exitUsage
	}
	switch *format {
	case "text":
		err = reportfmt.WriteText(stdout, reportfmt.Summarize(r))
	case "markdown":
		err = reportfmt.WriteMarkdown(stdout, reportfmt.Summarize(r))
	case "junit":
		err = reportfmt.WriteJUnit(stdout, r)
	default:
		fmt.Fprintf(stderr, "proctor report show: --format %q: want text, markdown or junit\n", *format)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "proctor report show: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// readShards reads the JSON reports in files, the shards of one run. It
// refuses, naming the files, reports of different suites or that share a
// case id, which [proctor.MergeReports] would refuse naming only their
// positions.
func readShards(files []string) ([]*proctor.Report, error) {
	reps := make([]*proctor.Report, 0, len(files))
	in := map[string]string{} // case id -> the file that holds it
	for _, f := range files {
		r, err := readReport(f)
		if err != nil {
			return nil, err
		}
		if len(reps) > 0 && r.Suite != reps[0].Suite {
			return nil, fmt.Errorf("%s is a report of suite %q, %s of suite %q: not shards of one run", f, r.Suite, files[0], reps[0].Suite)
		}
		for _, c := range r.Cases {
			if other, dup := in[c.ID]; dup {
				return nil, fmt.Errorf("case %q is in %s and in %s: not shards of one run", c.ID, other, f)
			}
			in[c.ID] = f
		}
		reps = append(reps, r)
	}
	return reps, nil
}

// readReport reads a JSON report as proctor run --out writes it. Anything
// else (a config file, {}, a list) is refused with an error naming path.
func readReport(path string) (*proctor.Report, error) {
	data, err := readfile.Path(context.Background(), path, readfile.ReportLimit)
	if err != nil {
		return nil, err
	}
	notReport := func(why error) error {
		return fmt.Errorf("%s is not a proctor JSON report (proctor run --out writes one): %w", path, why)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, notReport(jsonerr.User(data, err))
	}
	var missing []string
	for _, k := range []string{"suite", "totals", "cases"} {
		if v, ok := fields[k]; !ok || string(v) == "null" {
			missing = append(missing, strconv.Quote(k))
		}
	}
	if len(missing) > 0 {
		return nil, notReport(fmt.Errorf("it has no %s", strings.Join(missing, ", ")))
	}
	var r proctor.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, notReport(jsonerr.User(data, err))
	}
	return &r, nil
}
