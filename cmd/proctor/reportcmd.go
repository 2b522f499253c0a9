package main

import (
	"context"
	"fmt"
	"io"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/reportio"
	"github.com/proctorhq/proctor/reportfmt"
)

const reportUsage = `usage: proctor report merge [--allow-partial] A.json B.json ...
       proctor report show [--format text|markdown|junit] REPORT.json
       proctor report html [--out FILE] REPORT.json [MORE.json ...]

merge joins the JSON reports of the shards of one run (proctor run --shard
I/N --out ...) and writes the merged JSON report to standard output, its
cases in the order one run of the whole suite gives them. It refuses,
naming the files (exit 2), shards of different suites (names or digests),
a shard given twice, a set with a shard missing (--allow-partial merges
it anyway and says so in the report's caveats) and overlapping case ids.
Reports without shard information (from a run without --shard) are
joined in the order given.
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
	partial := fs.Bool("allow-partial", false, "merge shards that do not make up the whole run; the report's caveats name the missing ones")
	files, code, done := parseArgs(fs, reportUsage, args, stdout)
	if done {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "proctor report merge: want one or more JSON reports")
		return exitUsage
	}
	if err := mergeStream(files, *partial, stdout); err != nil {
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
	var err error
	switch *format {
	case "text", "markdown":
		var sum *reportfmt.Summary
		if sum, err = streamReport(files[0], nothingPerCase); err == nil && *format == "text" {
			err = reportfmt.WriteText(stdout, sum, reportfmt.TextOptions{})
		} else if err == nil {
			err = reportfmt.WriteMarkdown(stdout, sum, reportfmt.MarkdownOptions{})
		}
	case "junit":
		err = showJUnit(files[0], stdout)
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

// readReport reads a JSON report as proctor run --out writes it, whole.
// Anything else (a config file, {}, a list) is refused with an error
// naming path.
func readReport(path string) (*proctor.Report, error) {
	r, err := reportio.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var cases []proctor.CaseResult
	for {
		var c proctor.CaseResult
		ok, err := r.Next(&c)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		cases = append(cases, c)
	}
	rep, err := r.Finish()
	if err != nil {
		return nil, err
	}
	rep.Cases = append(rep.Cases, cases...)
	return rep, nil
}
