package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

const reportHTMLUsage = `usage: proctor report html [--out FILE] REPORT.json [MORE.json ...]

Writes a JSON report (proctor run --out) as one self-contained HTML page:
the totals, pass rate and charts, a case table to filter, sort and search,
and every case's attempts and checks. The page loads nothing from the
network or from disk, so it opens offline and can be kept as a CI
artifact. Several reports are the shards of one run: they are merged as
proctor report merge merges them. Writes to standard output without --out.

Exit status: 0 when the page was written, 2 for a usage error or a file
that is not a proctor JSON report.

flags:
`

func reportHTML(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("report html", stderr)
	out := fs.String("out", "", "write the page to `FILE` instead of standard output")
	files, code, done := parseArgs(fs, reportHTMLUsage, args, stdout)
	if done {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "proctor report html: want one or more JSON reports")
		printUsage(stderr, fs, reportHTMLUsage)
		return exitUsage
	}
	src := files[0]
	if len(files) > 1 {
		// Shards: merged (streaming) into a scratch report first.
		merged, err := os.CreateTemp("", "proctor-merged-*.json")
		if err != nil {
			fmt.Fprintf(stderr, "proctor report html: %v\n", err)
			return exitUsage
		}
		defer os.Remove(merged.Name())
		defer merged.Close()
		if err := mergeStream(files, false, merged); err != nil {
			fmt.Fprintf(stderr, "proctor report html: %v\n", err)
			return exitUsage
		}
		src = merged.Name()
	}
	var written time.Time
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.ModTime().After(written) {
			written = st.ModTime()
		}
	}
	opts := reportfmt.HTMLOptions{Generated: written, Version: version()}
	if err := writeOutWhole(*out, stdout, func(w io.Writer) error { return writeHTMLStream(src, w, opts) }); err != nil {
		fmt.Fprintf(stderr, "proctor report html: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// htmlRunReport starts the HTML report proctor run --html writes, case by
// case: add takes each result, finish writes the totals and closes the
// file.
func htmlRunReport(path, suite string) (add func(proctor.CaseResult) error, finish func(*reportfmt.Summary) error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	h := reportfmt.NewHTML(f, suite, reportfmt.HTMLOptions{Version: version()})
	return h.Add, func(s *reportfmt.Summary) error {
		h.SetGenerated(time.Now())
		if err := h.Finish(s); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}, nil
}
