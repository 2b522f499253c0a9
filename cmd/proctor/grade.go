package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/ohler55/ojg"
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/builtin"
	"github.com/proctorhq/proctor/config"
	"github.com/proctorhq/proctor/internal/jsonerr"
	"github.com/proctorhq/proctor/internal/readfile"
	"github.com/proctorhq/proctor/yamlspec"
)

const gradeUsage = `usage: proctor grade [--grader SPEC_JSON | --grader-file FILE] [flags] [FILE.jsonl | -]

Reads one sample per line (JSONL) and writes one result per line, in order,
as it goes. Without --grader or --grader-file each line's own "grader" is
used. A --grader-file holding a list of specs grades each sample with all
of them (one result: passed when every one passed). Every result carries
its input line number ("line", from 1). A malformed line is a not_graded
result and grading goes on; a blank line gives a not_graded result with
the reason "blank line", so result N is always input line N, and is not
counted as a sample.

Exit status: 0 when a sample was graded and none failed; 1 when one failed
(with --strict, also when one was not graded); 2 for usage or spec errors,
an unreadable input or an interrupted run; 3 when nothing was graded (no
sample passed or failed: every line malformed, no grader, no judge, ...).

flags:
`

// Defaults of `proctor grade`.
const (
	defaultMaxLine   = 16 << 20 // a longer line is not graded, never buffered whole
	batchLines       = 256      // lines handed to a worker at a time
	batchBytes       = 256 << 10
	specCacheEntries = 1024 // compiled per-line specs kept
	idPrefixBytes    = 64 << 10
)

// liveWorkerSpecs bounds the per-line python specs whose workers stay
// running between lines (least recently used closed first), apart from
// the spec cache's own bound; lines grading hold theirs until done.
const liveWorkerSpecs = 4

// gradeConfig is what `proctor grade` was asked to do.
type gradeConfig struct {
	comp    *proctor.Compiler
	fixed   *proctor.Check // --grader / --grader-file; nil: each line's own
	workers int
	maxLine int
	cache   *specCache
	judges  *proctor.JudgePool // the --config judges; nil without
}

// judgeErr returns the error that stopped the judges (a misconfigured
// judge), or nil.
func (c gradeConfig) judgeErr() error {
	if c.judges == nil {
		return nil
	}
	return c.judges.Err()
}

func cmdGrade(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("grade", stderr)
	spec := fs.String("grader", "", "grader spec as JSON, applied to every line")
	specFile := fs.String("grader-file", "", "file holding the grader spec or a list of specs (.json, .yaml or .yml); files it names are read from its folder")
	strict := fs.Bool("strict", false, "a sample not graded fails the run (exit 1)")
	configFile := fs.String("config", "", "judges and embedder (JSON or YAML)")
	workers := fs.Int("concurrency", runtime.GOMAXPROCS(0), "lines graded at once")
	maxLine := fs.Int("max-line", defaultMaxLine, "longest input line in bytes; a longer one is not graded")
	pos, code, done := parseArgs(fs, gradeUsage, args, stdout)
	if done {
		return code
	}
	if *spec != "" && *specFile != "" {
		fmt.Fprintln(stderr, "proctor grade: give --grader or --grader-file, not both")
		return exitUsage
	}
	if len(pos) > 1 {
		fmt.Fprintln(stderr, "proctor grade: at most one input file")
		return exitUsage
	}
	if *maxLine < 1 || *workers < 1 {
		fmt.Fprintln(stderr, "proctor grade: --max-line and --concurrency must be at least 1")
		return exitUsage
	}
	specBytes, dir, err := gradeSpec(*spec, *specFile)
	if err != nil {
		fmt.Fprintf(stderr, "proctor grade: --grader-file: %v\n", err)
		return exitUsage
	}
	conf, err := loadCLIConfig(*configFile)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	cfg := newGradeConfig(conf, dir, *workers, *maxLine)
	if err := cfg.judgeErr(); err != nil {
		fmt.Fprintf(stderr, "proctor grade: %v\n", err)
		return exitUsage
	}
	if cfg.judges != nil {
		for _, c := range cfg.judges.Caveats() {
			fmt.Fprintf(stderr, "proctor grade: warning: %s\n", c)
		}
	}
	defer cfg.cache.closeAll()
	if len(specBytes) > 0 {
		label := cmp.Or(*specFile, "--grader")
		ch, err := compileUnder(ctx, cfg.comp, label, specBytes)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitUsage
		}
		cfg.fixed = &ch
	}
	in, closeIn, err := gradeInput(pos, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "proctor grade: %v\n", err)
		return exitUsage
	}
	defer closeIn()
	t, err := gradeStream(ctx, cfg, in, stdout)
	if pool := conf.Judges(); pool != nil {
		// What the judges cost, on standard error so the results stay
		// one JSON object per line.
		writeJudgeStats(stderr, pool)
	}
	if err != nil {
		fmt.Fprintf(stderr, "proctor grade: %v\n", err)
		return exitUsage
	}
	code = verdictExit(t, *strict)
	switch {
	case code == exitNoneGraded:
		fmt.Fprintf(stderr, "proctor grade: nothing was graded: %s\n", notGradedWord(t.notGraded, "sample"))
	case code == exitFailed && t.failed == 0:
		fmt.Fprintf(stderr, "proctor grade: --strict: %s\n", notGradedWord(t.notGraded, "sample"))
	}
	return code
}

// gradeInput is the file pos names, or stdin when it names none or "-",
// and what closes it.
func gradeInput(pos []string, stdin io.Reader) (io.Reader, func(), error) {
	if len(pos) == 0 || pos[0] == "-" {
		return stdin, func() {}, nil
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// newGradeConfig is the compiler and spec cache of proctor grade, with
// the judges and embedder of conf and the files of dir.
func newGradeConfig(conf *config.Config, dir string, workers, maxLine int) gradeConfig {
	comp := proctor.NewCompiler(append([]proctor.CompilerOption{builtin.Types()}, append(conf.CompilerOptions(), proctor.WithFiles(os.DirFS(dir)), proctor.WithConcurrency(workers))...)...)
	cfg := gradeConfig{
		comp:    comp,
		workers: workers,
		maxLine: maxLine,
		cache:   newSpecCache(specCacheEntries, "the line's grader", comp, allowAll),
		judges:  conf.Judges(),
	}
	cfg.cache.maxSpec = maxLine // the operator's own lines: no tighter bound
	cfg.cache.maxWorkers = liveWorkerSpecs
	return cfg
}

// gradeSpec is the spec --grader gives, or the one --grader-file holds
// (a list of specs made one all spec that every one must pass), and the
// folder the files it names are read from.
func gradeSpec(spec, specFile string) ([]byte, string, error) {
	if specFile == "" {
		return []byte(spec), ".", nil
	}
	b, err := readSpecFile(specFile)
	if err != nil {
		return nil, "", err
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		b = append(append([]byte(`{"type":"all","name":"graders","graders":`), t...), '}')
	}
	return b, filepath.Dir(specFile), nil
}

// writeJudgeStats writes what each judge of pool did and cost, a line
// each.
func writeJudgeStats(w io.Writer, pool *proctor.JudgePool) {
	for _, j := range pool.Stats() {
		fmt.Fprintf(w, "proctor grade: judge %s (%s, %s): %s, %s, %s, %s, %s, %s\n",
			j.Name, j.Family, j.Model, plural(j.Calls, "call"), pluralY(j.Retries, "retr"), plural(j.CacheHits, "cache hit"),
			plural(j.Errors, "error"), plural(j.Tokens, "token"), j.CostText())
	}
}

// notGradedWord says how many of n things were not graded.
func notGradedWord(n int, thing string) string {
	if n == 0 {
		return "there was no " + thing + " to grade"
	}
	return plural(n, thing) + " not graded"
}

// plural is "1 case", "2 cases".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// pluralY is "1 retry", "2 retries" for stem "retr".
func pluralY(n int, stem string) string {
	if n == 1 {
		return "1 " + stem + "y"
	}
	return fmt.Sprintf("%d %sies", n, stem)
}

// readSpecFile reads a --grader-file, converting YAML to JSON.
func readSpecFile(path string) ([]byte, error) {
	b, err := readfile.Path(context.Background(), path, readfile.SpecLimit)
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		return yamlspec.ToJSON(b)
	}
	return b, nil
}

// batch is a run of input lines graded by one worker; its results are
// written in input order.
type batch struct {
	buf   []byte    // the lines' bytes
	items []lineRef // where each line is in buf
	out   []byte    // the results, one per line
	tally tally     // the results' verdicts
	done  chan struct{}
}

// lineRef locates a line in its batch; tooLong marks a line over the
// limit, of which only a prefix was kept (to recover its id); blank marks
// a line of white space only. num is its 1-based line number in the input.
type lineRef struct {
	start, end int
	num        int
	tooLong    bool
	blank      bool
}

// gradeStream grades every line of in and writes the results to out in
// input order, as they are ready. Lines are read by one goroutine, graded
// in batches by cfg.workers goroutines, and written by the caller's
// goroutine; at most 2*workers batches are in memory at once, so memory
// stays flat however long the input is. It counts the results' verdicts.
// When ctx is cancelled it stops reading, writes the results of the lines
// already read and returns ctx.Err(). Every goroutine it starts has ended
// when it returns.
func gradeStream(ctx context.Context, cfg gradeConfig, in io.Reader, out io.Writer) (t tally, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	order := make(chan *batch, 2*cfg.workers)
	work := make(chan *batch, 2*cfg.workers)
	pool := &batchPool{free: make(chan *batch, 2*cfg.workers+2)}
	var readErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(order)
		defer close(work)
		readErr = readBatches(ctx, in, cfg.maxLine, pool, func(b *batch) {
			order <- b
			work <- b
		})
	})
	for range cfg.workers {
		wg.Go(func() {
			var d lineDecoder
			for b := range work {
				gradeBatch(ctx, cfg, &d, b)
				close(b.done)
				if cfg.judgeErr() != nil {
					cancel() // a judge is misconfigured: stop reading
				}
			}
		})
	}
	w := bufio.NewWriterSize(out, 64<<10)
	var writeErr error
	for b := range order {
		<-b.done
		t.passed += b.tally.passed
		t.failed += b.tally.failed
		t.notGraded += b.tally.notGraded
		t.flaky += b.tally.flaky
		t.flakyFails += b.tally.flakyFails
		if writeErr == nil {
			if _, writeErr = w.Write(b.out); writeErr == nil && len(order) == 0 {
				// Nothing else is ready: let the reader see what is done.
				writeErr = w.Flush()
			}
			if writeErr != nil {
				cancel() // stop reading; keep draining so every goroutine ends
			}
		}
		pool.put(b)
	}
	wg.Wait()
	if writeErr == nil {
		writeErr = w.Flush()
	}
	switch {
	case writeErr != nil:
		return t, fmt.Errorf("writing results: %w", writeErr)
	case cfg.judgeErr() != nil:
		return t, fmt.Errorf("stopped: %w", cfg.judgeErr())
	case readErr != nil:
		return t, readErr
	}
	return t, nil
}

// readBatches reads lines into batches and hands each to emit, numbering
// them from 1. A blank line is kept as an empty, blank-marked item so its
// result holds its place. A line longer than maxLine keeps only a prefix
// and is marked too long; the rest of it is read and dropped.
func readBatches(ctx context.Context, in io.Reader, maxLine int, pool *batchPool, emit func(*batch)) error {
	rd := bufio.NewReaderSize(in, 64<<10)
	b := pool.get()
	num := 0
	flush := func() {
		if len(b.items) > 0 {
			emit(b)
			b = pool.get()
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			flush()
			return err
		}
		start := len(b.buf)
		tooLong := false
		var err error
		for {
			var frag []byte
			frag, err = rd.ReadSlice('\n')
			body := len(frag) // the fragment without its newline
			if body > 0 && frag[body-1] == '\n' {
				body--
			}
			switch {
			case tooLong:
			case len(b.buf)-start+body > maxLine:
				tooLong = true
				keep := min(idPrefixBytes, maxLine) - (len(b.buf) - start)
				if keep > 0 {
					b.buf = append(b.buf, frag[:min(keep, len(frag))]...)
				}
			default:
				b.buf = append(b.buf, frag...)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if err != nil && err != io.EOF {
			flush()
			return fmt.Errorf("reading input: %w", err)
		}
		if err == io.EOF && len(b.buf) == start && !tooLong {
			flush() // the input ended with its last newline: no line follows
			return nil
		}
		num++
		ref := lineRef{start: start, end: len(b.buf), num: num, tooLong: tooLong}
		if !tooLong && len(bytes.TrimSpace(b.buf[start:])) == 0 {
			ref.end, ref.blank = start, true
			b.buf = b.buf[:start]
		}
		b.items = append(b.items, ref)
		if err == io.EOF {
			flush()
			return nil
		}
		if len(b.items) >= batchLines || len(b.buf) >= batchBytes {
			flush()
		}
	}
}

// batchPool recycles batches and their buffers between the writer and the
// reader, so a long input does not allocate a buffer per batch.
type batchPool struct{ free chan *batch }

func (p *batchPool) get() *batch {
	select {
	case b := <-p.free:
		b.buf, b.items, b.out, b.tally = b.buf[:0], b.items[:0], b.out[:0], tally{}
		b.done = make(chan struct{})
		return b
	default:
		return &batch{
			buf:   make([]byte, 0, batchBytes+64<<10),
			items: make([]lineRef, 0, batchLines),
			done:  make(chan struct{}),
		}
	}
}

// put hands b back once its results are written. A buffer grown far
// beyond a batch (by one very long line) is dropped rather than kept.
func (p *batchPool) put(b *batch) {
	if cap(b.buf) > 4*batchBytes {
		b.buf = nil
	}
	select {
	case p.free <- b:
	default:
	}
}

// gradeBatch decodes and grades every line of b into b.out.
func gradeBatch(ctx context.Context, cfg gradeConfig, d *lineDecoder, b *batch) {
	var ln line
	for _, it := range b.items {
		raw := b.buf[it.start:it.end]
		var g proctor.Grade
		var id string
		if it.blank {
			g = proctor.NotGraded("blank line")
			g.Grader = cfg.fixedName()
			b.out = appendResult(b.out, it.num, "", g)
			continue // not a sample: left out of the tally
		}
		if it.tooLong {
			_ = d.decode(raw, &ln) // a prefix: only the id may be read
			id = ln.sample.ID
			g = proctor.NotGradedf("input line longer than %d bytes (--max-line): not read", cfg.maxLine)
			g.Grader = cfg.fixedName()
		} else {
			g, id = gradeOne(ctx, cfg, d, raw, &ln)
		}
		switch g.Status {
		case proctor.StatusPassed:
			b.tally.passed++
		case proctor.StatusFailed:
			b.tally.failed++
		case proctor.StatusFlaky:
			b.tally.flaky++
			b.tally.flakyFails++
		default:
			b.tally.notGraded++
		}
		b.out = appendResult(b.out, it.num, id, g)
	}
}

// gradeOne decodes and grades one line.
func gradeOne(ctx context.Context, cfg gradeConfig, d *lineDecoder, raw []byte, ln *line) (proctor.Grade, string) {
	if err := d.decode(raw, ln); err != nil {
		g := proctor.NotGraded("malformed input line: " + jsonerr.User(nil, err).Error())
		g.Grader = cfg.fixedName()
		return g, ln.sample.ID
	}
	ch := cfg.fixed
	if ch == nil {
		if ln.grader == nil {
			return proctor.NotGraded(`no grader: give --grader, --grader-file or a "grader" on the line`), ln.sample.ID
		}
		cc, err := cfg.cache.get(ctx, ln.grader)
		if err != nil {
			return proctor.ErrorGrade("", err), ln.sample.ID
		}
		defer cc.release()
		ch = &cc.check
	}
	if !ln.hasOutput {
		g := proctor.NotGraded(`no output: the line has no "output" string`)
		g.Grader = ch.Name()
		return g, ln.sample.ID
	}
	return ch.Grade(ctx, &ln.sample), ln.sample.ID
}

func (c gradeConfig) fixedName() string {
	if c.fixed != nil {
		return c.fixed.Name()
	}
	return ""
}

// appendResult appends one output line: the input line number (when num
// is above 0), the id (when there is one) and the grade's JSON object.
func appendResult(b []byte, num int, id string, g proctor.Grade) []byte {
	b = append(b, '{')
	if num > 0 {
		b = append(b, `"line":`...)
		b = strconv.AppendInt(b, int64(num), 10)
		b = append(b, ',')
	}
	if id != "" {
		b = append(b, `"id":`...)
		b = appendJSONString(b, id)
		b = append(b, ',')
	}
	obj := len(b)
	b, err := g.AppendJSON(b)
	if err != nil {
		ng := proctor.NotGraded("result does not encode as JSON: " + err.Error())
		ng.Grader = g.Grader
		b, _ = ng.AppendJSON(b[:obj])
	}
	// Drop the grade object's own '{': the line's object is already open.
	copy(b[obj:], b[obj+1:])
	b = b[:len(b)-1]
	return append(b, '\n')
}

func appendJSONString(b []byte, s string) []byte { return ojg.AppendJSONString(b, s, false) }
