package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

const reportUsage = `usage: proctor report merge A.json B.json ...
       proctor report show [--format text|markdown|junit] REPORT.json

merge joins the JSON reports of the shards of one run (proctor run --shard
I/N --out ...) and writes the merged JSON report to standard output. It
refuses reports of different suites or with overlapping case ids (exit 2).
show renders a JSON report as the terminal table, Markdown or JUnit XML.
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
	case "help", "-h", "--help":
		fmt.Fprint(stdout, reportUsage)
		return exitOK
	}
	fmt.Fprintf(stderr, "proctor report: unknown subcommand %q\n%s", args[0], reportUsage)
	return exitUsage
}

func reportMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, reportUsage) }
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "proctor report merge: want one or more JSON reports")
		return exitUsage
	}
	reps := make([]*proctor.Report, 0, len(files))
	for _, f := range files {
		r, err := readReport(f)
		if err != nil {
			fmt.Fprintf(stderr, "proctor report merge: %v\n", err)
			return exitUsage
		}
		reps = append(reps, r)
	}
	merged, err := proctor.MergeReports(reps...)
	if err != nil {
		fmt.Fprintf(stderr, "proctor report merge: %v\n", err)
		return exitUsage
	}
	enc := json.NewEncoder(stdout)
	if err := enc.Encode(merged); err != nil {
		fmt.Fprintf(stderr, "proctor report merge: %v\n", err)
		return exitUsage
	}
	return exitOK
}

func reportShow(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report show", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "text, markdown or junit")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
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

// readReport reads a JSON report as proctor run --out writes it.
func readReport(path string) (*proctor.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r proctor.Report
	if err := json.NewDecoder(f).Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: not a proctor JSON report: %w", path, err)
	}
	return &r, nil
}
