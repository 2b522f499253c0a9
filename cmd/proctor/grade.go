package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/proctorhq/proctor"
)

// resultLine is one line of `proctor grade` output.
type resultLine struct {
	ID string `json:"id,omitempty"`
	proctor.Grade
}

func (r resultLine) MarshalJSON() ([]byte, error) {
	g, err := json.Marshal(r.Grade)
	if err != nil || r.ID == "" {
		return g, err
	}
	id, _ := json.Marshal(r.ID)
	out := make([]byte, 0, len(g)+len(id)+8)
	out = append(out, `{"id":`...)
	out = append(out, id...)
	out = append(out, ',')
	return append(out, g[1:]...), nil
}

func cmdGrade(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	fs.SetOutput(stderr)
	spec := fs.String("grader", "", "grader spec as JSON")
	specFile := fs.String("grader-file", "", "file holding the grader spec (JSON)")
	configFile := fs.String("config", "", "judges and embedder (JSON or YAML)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *spec != "" && *specFile != "" {
		fmt.Fprintln(stderr, "proctor grade: give --grader or --grader-file, not both")
		return exitUsage
	}
	dir := "."
	if *specFile != "" {
		b, err := os.ReadFile(*specFile)
		if err != nil {
			fmt.Fprintf(stderr, "proctor grade: %v\n", err)
			return exitUsage
		}
		*spec = string(b)
		dir = filepath.Dir(*specFile)
	}
	opts, err := loadConfig(*configFile)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	comp := proctor.NewCompiler(append(opts, proctor.WithFiles(os.DirFS(dir)))...)
	var fixed *proctor.Check
	if *spec != "" {
		ch, err := comp.Compile([]byte(*spec))
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitUsage
		}
		fixed = &ch
	}
	in := stdin
	if fs.NArg() > 1 {
		fmt.Fprintln(stderr, "proctor grade: at most one input file")
		return exitUsage
	}
	if fs.NArg() == 1 && fs.Arg(0) != "-" {
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			fmt.Fprintf(stderr, "proctor grade: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		in = f
	}
	w := bufio.NewWriterSize(stdout, 64<<10)
	defer w.Flush()
	rd := bufio.NewReaderSize(in, 64<<10)
	anyFailed := false
	for {
		line, err := readLine(rd)
		if len(line) > 0 {
			res := gradeLine(ctx, comp, fixed, line)
			if res.Status == proctor.StatusFailed {
				anyFailed = true
			}
			b, merr := json.Marshal(res)
			if merr != nil {
				b, _ = json.Marshal(resultLine{ID: res.ID, Grade: proctor.NotGraded("result does not encode: " + merr.Error())})
			}
			w.Write(b)
			w.WriteByte('\n')
		}
		if err != nil {
			if err != io.EOF {
				fmt.Fprintf(stderr, "proctor grade: reading input: %v\n", err)
				return exitUsage
			}
			break
		}
		if ctx.Err() != nil {
			break
		}
	}
	if anyFailed {
		return exitFailed
	}
	return exitOK
}

// readLine returns the next line without its newline, skipping blank ones.
func readLine(r *bufio.Reader) ([]byte, error) {
	for {
		line, err := r.ReadBytes('\n')
		line = trimSpace(line)
		if len(line) > 0 || err != nil {
			return line, err
		}
	}
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r' || b[len(b)-1] == '\n') {
		b = b[:len(b)-1]
	}
	return b
}

// gradeLine decodes one input line and grades it with the fixed grader or
// the line's own.
func gradeLine(ctx context.Context, comp *proctor.Compiler, fixed *proctor.Check, line []byte) resultLine {
	var s proctor.Sample
	if err := json.Unmarshal(line, &s); err != nil {
		return resultLine{Grade: proctor.NotGraded("malformed input line: " + err.Error())}
	}
	ch := fixed
	if ch == nil {
		var own struct {
			Grader json.RawMessage `json:"grader"`
		}
		_ = json.Unmarshal(line, &own)
		if len(own.Grader) == 0 {
			return resultLine{ID: s.ID, Grade: proctor.NotGraded("no grader: give --grader or a \"grader\" on the line")}
		}
		c, err := comp.Compile(own.Grader)
		if err != nil {
			return resultLine{ID: s.ID, Grade: proctor.NotGraded(err.Error())}
		}
		ch = &c
	}
	return resultLine{ID: s.ID, Grade: ch.Grade(ctx, &s)}
}
