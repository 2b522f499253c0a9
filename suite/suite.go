// Package suite loads proctor suite files (docs/suite.md) into
// [proctor.Case] values and runs them as a stream.
//
// A suite is a YAML or JSON file with a name, default attempts, suite-level
// graders, an optional subject (a command or an OpenAI-compatible chat
// endpoint) and cases; a .jsonl suite holds one case per line and is read
// as a stream, never whole. Loading is fail-closed: an unknown key, a value
// of the wrong type, a duplicate case id or a spec the [proctor.Compiler]
// refuses is an [*Error] naming the file, the line and the field. Files a
// suite names (schema_file, config) are confined to the suite's folder.
//
// Beside cases, graders, subject and attempts, a YAML or JSON suite may
// hold:
//
//   - redact_splits: a list of split names (holdout) whose cases' outputs
//     reports never show; see [Suite.Redact].
//   - data_source_config: {type: custom, item_schema: {...}} as OpenAI
//     evals declare it: each case's item is validated against the JSON
//     Schema, compiled once, and a case whose item does not match is not
//     graded, its reason naming the line and field at fault (see
//     [ItemSchemaGrader]); include_sample_schema is accepted and ignored,
//     since templates always see the sample.
//   - config: a configuration file in the suite's folder (judges and judge
//     policy), read with package config ([config.ForSuite]) unless
//     [Options.LoadConfig] or [Options.IgnoreConfig] says otherwise.
package suite

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/proctorhq/proctor/calibrate"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/builtin"
	"github.com/proctorhq/proctor/config"
	"github.com/proctorhq/proctor/internal/readfile"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Error is a problem in a suite file: where it is and what was expected.
// Err is the cause, if any (a *[proctor.SpecError] for a spec the compiler
// refused, an *os.PathError for a file that could not be read).
type Error struct {
	// File is the suite file's path.
	File string
	// Line is the 1-based line of the value at fault; 0 when unknown.
	Line int
	// Field is the path to the value, such as cases[2].checks[0].
	Field string
	// Msg says what was expected.
	Msg string
	// Err is the cause.
	Err error
}

// Error reads "FILE:LINE: FIELD: MSG: CAUSE".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
	}
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Shard selects one deterministic slice of a suite's cases: shard I of N
// (1-based) holds the cases whose id hashes (FNV-1a, 64 bits) to I-1 modulo
// N. The zero Shard selects every case.
type Shard struct {
	I, N int
}

// ParseShard parses "I/N" with 1 <= I <= N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("shard %q: want I/N with 1 <= I <= N, such as 2/4", s)
	}
	return Shard{I: i, N: n}, nil
}

// Holds reports whether the shard holds the case with this id.
func (s Shard) Holds(id string) bool {
	if s.N <= 1 {
		return true
	}
	h := fnv.New64a()
	io.WriteString(h, id)
	return h.Sum64()%uint64(s.N) == uint64(s.I-1)
}

// Options configure [Load].
type Options struct {
	// Compiler are the options for the spec compiler: judges, embedder, as
	// loaded from a --config file. Load adds the suite folder as the files
	// specs may read.
	Compiler []proctor.CompilerOption
	// GraderFile holds suite-level graders for a .jsonl suite: one spec
	// object or an array of them, JSON or YAML. Files it names are
	// confined to its folder.
	GraderFile string
	// Attempts, when positive, replaces the suite's default attempts; a
	// case that sets its own attempts keeps them.
	Attempts int
	// Split, when set, selects the cases of that split only.
	Split string
	// Shard selects a slice of the cases; see [Shard].
	Shard Shard
	// Types are custom spec types the suite's specs may name, registered
	// on the suite's compiler with [proctor.Compiler.Register].
	Types map[string]proctor.Builder
	// LoadConfig loads the configuration file a suite names with its
	// config key (judges and judge policy, as a --config file holds
	// them): it is given the file's name and contents, read from the
	// suite's folder, and returns what the file configures: its
	// [config.Config.CompilerOptions] are added to the suite's compiler and
	// its [config.Config.Options] to [Suite.RunnerOptions]. When nil,
	// [config.ForSuite] reads it, as proctor run does.
	LoadConfig func(name string, data []byte) (*config.Config, error)
	// Traced, when set, gives the samples that traces recorded for a case
	// id (see [JoinTraced]); a case without outputs that has some takes
	// them as its recorded outputs, so it needs no outputs key.
	Traced func(id string) ([]proctor.Sample, bool)
	// IgnoreConfig has the config key checked (a file inside the suite's
	// folder) and recorded in [Suite.Config] but not read: the caller
	// brings its own judges, as proctor run --config does.
	IgnoreConfig bool
}

// Suite is a loaded suite. Its cases are read with [Suite.Cases]; for a
// .jsonl suite that reads the file again, one line at a time. Close
// releases the suite's folder. A Suite is safe for concurrent use once
// loaded, but Cases of a .jsonl suite opens the file on each call.
type Suite struct {
	// Name is the suite's name: its name key, or the file name without
	// extension.
	Name string
	// Path is the file it was loaded from.
	Path string
	// Checks are the suite-level graders. Every case's Checks begin with
	// them, so a [proctor.Runner] must not be given them again.
	Checks []proctor.Check
	// Subject produces outputs for cases without recorded ones; nil when
	// the suite has none.
	Subject proctor.Subject
	// SubjectModel is the model the subject calls, when known.
	SubjectModel proctor.Model
	// Count is the number of cases selected (after split and shard) and
	// Total the number in the file.
	Count, Total int
	// Config is the configuration file the suite names with its config
	// key, relative to the suite's folder; "" when it names none.
	Config string
	// Calibrations are the files the suite's calibration key names, as
	// proctor calibrate --json wrote them: reports correct the pass rate
	// of each calibrated grader's check for its errors.
	Calibrations []calibrate.File
	// Bootstrap is the suite's cluster_bootstrap, nil when not set.
	Bootstrap *BootstrapOptions
	// GroupBy is the suite's group_by field: reports count verdicts by
	// each case's value of it ([proctor.CaseResult.Group]).
	GroupBy string

	opts       Options
	root       *os.Root
	comp       *proctor.Compiler
	attempts   int
	model      proctor.Model
	cases      []proctor.Case // YAML and JSON suites
	positions  []int          // the selected cases' places in the file, from 0
	dataFile   string         // the file cases_csv, cases_promptfoo or cases_inspect names
	jsonl      bool
	extra      *config.Config     // the suite's config file
	redact     []string           // splits whose outputs reports hide
	itemSchema *jsonschema.Schema // data_source_config.item_schema
	gate       gateKeys           // min_pass, stop_early, cluster

	mu      sync.Mutex
	cache   map[string]proctor.Check // compiled specs by their JSON text
	closers []proctor.Check          // compiled checks holding resources, closed by Close
}

// Load reads and checks a suite file. Every spec is compiled and every case
// decoded before Load returns, so a broken suite fails before anything
// runs; for a .jsonl suite that is a first pass over the file that keeps
// only the case ids. The returned Suite must be closed.
func Load(path string, opts Options) (*Suite, error) {
	return LoadContext(context.Background(), path, opts)
}

// LoadContext is [Load] that stops when ctx ends (a signal, a deadline),
// returning an error wrapping ctx's; loading a big or alias-heavy suite
// can take a while.
func LoadContext(ctx context.Context, path string, opts Options) (*Suite, error) {
	dir := filepath.Dir(path)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot open the suite's folder", Err: err}
	}
	s := &Suite{Path: path, opts: opts, root: root}
	s.comp = s.compiler(root)
	s.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if err := s.load(ctx); err != nil {
		root.Close()
		return nil, err
	}
	return s, nil
}

// compiler returns a spec compiler with the configured options and custom
// types that reads files from root only.
func (s *Suite) compiler(root *os.Root) *proctor.Compiler {
	c := proctor.NewCompiler(append([]proctor.CompilerOption{builtin.Types()}, append(slices.Clip(s.opts.Compiler), proctor.WithFiles(root.FS()))...)...)
	for typ, b := range s.opts.Types {
		c.Register(typ, b)
	}
	return c
}

// Close releases the suite's folder and closes the graders that hold
// resources (python workers). Call it when grading is done.
func (s *Suite) Close() error {
	s.mu.Lock()
	closers := s.closers
	s.closers = nil
	s.mu.Unlock()
	return errors.Join(proctor.CloseChecks(closers), s.root.Close())
}

// RunnerOptions returns the options that give a [proctor.Runner] the
// suite's subject, its name (for the reports), what its config file
// configures (see [Options.LoadConfig]) and its redact_splits: the Runner
// passes every result through [Suite.Redact], so a held-out split's outputs
// reach no report. The suite-level graders travel with the cases.
func (s *Suite) RunnerOptions() []proctor.RunnerOption {
	opts := []proctor.RunnerOption{proctor.WithOptions(s.extra.Options()...)}
	if s.Subject != nil {
		opts = append(opts, proctor.WithSubject(s.Subject))
	}
	opts = append(opts, proctor.WithSuiteName(s.Name))
	if len(s.redact) > 0 {
		opts = append(opts, proctor.WithResultRedactor(s.Redact))
	}
	return opts
}

func (s *Suite) errAt(n *node, field, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.line
	}
	return &Error{File: s.Path, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (s *Suite) load(ctx context.Context) error {
	if strings.EqualFold(filepath.Ext(s.Path), ".jsonl") {
		s.jsonl = true
		return s.loadJSONL(ctx)
	}
	data, err := readfile.Path(ctx, s.Path, readfile.SuiteLimit)
	if err != nil {
		return &Error{File: s.Path, Msg: "cannot read the suite", Err: err}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	var doc *node
	if strings.EqualFold(filepath.Ext(s.Path), ".json") {
		doc, err = parseJSON(data, 1)
	} else {
		doc, err = parseYAML(ctx, data)
	}
	if err != nil {
		var pe *parseError
		if errors.As(err, &pe) {
			return &Error{File: s.Path, Line: pe.line, Msg: pe.msg}
		}
		return &Error{File: s.Path, Msg: "loading stopped", Err: err}
	}
	if s.opts.GraderFile != "" {
		return &Error{File: s.Path, Msg: "--grader-file is for .jsonl suites; put graders in the suite's graders list"}
	}
	return s.decodeSuite(ctx, doc)
}

var suiteKeys = []string{"name", "description", "config", "attempts", "model", "graders", "subject", "data_source_config", "redact_splits", "min_pass", "stop_early", "cluster", "cluster_bootstrap", "group_by", "calibration", "cases", "cases_csv", "cases_promptfoo", "cases_inspect"}

func (s *Suite) decodeSuite(ctx context.Context, doc *node) error {
	if err := s.checkKeys(doc, "", suiteKeys); err != nil {
		return err
	}
	if n := doc.get("config"); n != nil {
		if err := s.decodeConfig(n); err != nil {
			return err
		}
	}
	if err := s.decodeGate(doc, "", &s.gate); err != nil {
		return err
	}
	if n := doc.get("calibration"); n != nil {
		if err := s.decodeCalibration(n); err != nil {
			return err
		}
	}
	if n := doc.get("cluster_bootstrap"); n != nil {
		if err := s.decodeBootstrap(n); err != nil {
			return err
		}
	}
	if n := doc.get("redact_splits"); n != nil {
		if n.kind != kindSeq {
			return s.errAt(n, "redact_splits", "want a list of split names, got %s", n.what())
		}
		for i, it := range n.items {
			name, err := s.str(it, fmt.Sprintf("redact_splits[%d]", i))
			if err != nil {
				return err
			}
			s.redact = append(s.redact, name)
		}
	}
	if n := doc.get("data_source_config"); n != nil {
		if err := s.decodeDataSource(n); err != nil {
			return err
		}
	}
	if n := doc.get("name"); n != nil {
		name, err := s.str(n, "name")
		if err != nil {
			return err
		}
		if name != "" {
			s.Name = name
		}
	}
	if n := doc.get("description"); n != nil {
		if _, err := s.str(n, "description"); err != nil {
			return err
		}
	}
	if n := doc.get("attempts"); n != nil {
		a, err := s.positive(n, "attempts")
		if err != nil {
			return err
		}
		s.attempts = a
	}
	if n := doc.get("model"); n != nil {
		m, err := s.decodeModel(n, "model")
		if err != nil {
			return err
		}
		s.model = m
	}
	if n := doc.get("graders"); n != nil {
		checks, err := s.specs(n, "graders")
		if err != nil {
			return err
		}
		s.Checks = checks
	}
	if n := doc.get("subject"); n != nil {
		if err := s.decodeSubject(n); err != nil {
			return err
		}
	}
	cases, err := s.casesNode(ctx, doc)
	if err != nil {
		return err
	}
	if cases.kind != kindSeq {
		return s.errAt(cases, "cases", "want a list of cases, got %s", cases.what())
	}
	seen := make(map[string]int, len(cases.items))
	for i, cn := range cases.items {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return &Error{File: s.Path, Line: cn.line, Msg: "loading stopped", Err: err}
			}
		}
		c, err := s.decodeCase(cn, fmt.Sprintf("cases[%d]", i))
		if err != nil {
			return err
		}
		if prev, dup := seen[c.ID]; dup {
			return s.errAt(cn, fmt.Sprintf("cases[%d].id", i), "case id %q is also used on line %d: ids must be unique", c.ID, prev)
		}
		seen[c.ID] = cn.line
		s.Total++
		if s.selects(c) {
			s.cases = append(s.cases, c)
			s.positions = append(s.positions, s.Total-1)
		}
	}
	s.Count = len(s.cases)
	return nil
}

// selects reports whether the split and shard options keep c.
func (s *Suite) selects(c proctor.Case) bool {
	if s.opts.Split != "" && c.Split != s.opts.Split {
		return false
	}
	return s.opts.Shard.Holds(c.ID)
}

// Cases yields the selected cases in file order. For a .jsonl suite it
// reads the file one line at a time; an error reading it ends the sequence
// with that error.
func (s *Suite) Cases() iter.Seq2[proctor.Case, error] {
	if !s.jsonl {
		return func(yield func(proctor.Case, error) bool) {
			for _, c := range s.cases {
				if !yield(c, nil) {
					return
				}
			}
		}
	}
	return func(yield func(proctor.Case, error) bool) {
		_ = s.scanJSONL(func(c proctor.Case, err error) bool {
			if err == nil && !s.selects(c) {
				return true
			}
			return yield(c, err)
		})
	}
}

var caseKeys = []string{"id", "description", "input", "expected", "references", "item", "context", "messages", "severity", "split", "attempts", "min_pass", "stop_early", "outputs", "checks"}

func (s *Suite) decodeCase(n *node, at string) (proctor.Case, error) {
	var c proctor.Case
	if err := s.checkKeys(n, at, caseKeys); err != nil {
		return c, err
	}
	idn := n.get("id")
	if idn == nil {
		return c, s.errAt(n, at+".id", "missing: every case needs an id")
	}
	id, err := s.str(idn, at+".id")
	if err != nil {
		return c, err
	}
	if strings.TrimSpace(id) == "" {
		return c, s.errAt(idn, at+".id", "must not be empty")
	}
	c.ID = id
	raw := at
	at = fmt.Sprintf("%s (id %q)", at, id)
	if d := n.get("description"); d != nil {
		if _, err := s.str(d, at+".description"); err != nil {
			return c, err
		}
	}
	// Input, expected, references, context and item decode as a proctor
	// grade input line does.
	var wire bytes.Buffer
	wire.WriteString(`{"output":""`)
	for _, k := range []string{"input", "expected", "references", "context", "item", "messages"} {
		v := n.get(k)
		if v == nil {
			continue
		}
		switch k {
		case "input":
			if _, err := s.str(v, at+".input"); err != nil {
				return c, err
			}
		case "references", "context":
			if v.kind != kindSeq && !v.isNull() {
				return c, s.errAt(v, at+"."+k, "want a list of strings or {id: ...} objects, got %s", v.what())
			}
		case "item":
			if v.kind != kindMap && !v.isNull() {
				return c, s.errAt(v, at+".item", "want an object of variables, got %s", v.what())
			}
		}
		fmt.Fprintf(&wire, ",%q:", k)
		wire.Write(v.JSON())
	}
	wire.WriteString("}")
	if err := json.Unmarshal(wire.Bytes(), &c.Sample); err != nil {
		return c, &Error{File: s.Path, Line: n.line, Field: at, Msg: "cannot read the case's sample fields", Err: err}
	}
	c.Sample.ID = id
	c.Sample.Model = s.model
	if v := n.get("severity"); v != nil {
		str, err := s.str(v, at+".severity")
		if err != nil {
			return c, err
		}
		sev, perr := proctor.ParseSeverity(str)
		if perr != nil || sev == proctor.SeverityUnset {
			return c, s.errAt(v, at+".severity", "want low, medium, high or critical, got %q", str)
		}
		c.Severity = sev
	}
	if v := n.get("split"); v != nil {
		if c.Split, err = s.str(v, at+".split"); err != nil {
			return c, err
		}
	}
	c.Attempts = s.attempts
	if s.opts.Attempts > 0 {
		c.Attempts = s.opts.Attempts
	}
	if v := n.get("attempts"); v != nil {
		if c.Attempts, err = s.positive(v, at+".attempts"); err != nil {
			return c, err
		}
	}
	if v := n.get("outputs"); v != nil {
		if c.Outputs, err = s.decodeOutputs(v, at+".outputs"); err != nil {
			return c, err
		}
	}
	if err := s.applyGate(n, at, &c); err != nil {
		return c, err
	}
	if len(c.Outputs) == 0 && s.opts.Traced != nil {
		c.Outputs = JoinTraced(c.Sample, s.opts.Traced)
	}
	if len(c.Outputs) == 0 && s.Subject == nil && c.Sample.Messages == nil {
		return c, s.errAt(n, at, "has no recorded outputs and the suite has no subject: give outputs, or a subject to produce them")
	}
	var own []proctor.Check
	if v := n.get("checks"); v != nil {
		if own, err = s.specs(v, at+".checks"); err != nil {
			return c, err
		}
	}
	if reason := s.checkItem(n, raw); reason != "" {
		return notGradedCase(c, reason), nil
	}
	c.Checks = append(slices.Clip(s.Checks), own...)
	return c, nil
}

var sampleKeys = []string{"output", "input", "expected", "references", "context", "item", "metrics", "tool_calls", "http_status", "model", "messages"}
var metricKeys = []string{"latency_ms", "input_tokens", "output_tokens", "total_tokens", "cost_usd"}

// decodeOutputs reads recorded outputs: strings, or sample objects as in
// proctor grade.
func (s *Suite) decodeOutputs(n *node, at string) ([]proctor.Sample, error) {
	if n.kind != kindSeq {
		return nil, s.errAt(n, at, "want a list of outputs (strings or sample objects), got %s", n.what())
	}
	out := make([]proctor.Sample, 0, len(n.items))
	for i, it := range n.items {
		iat := fmt.Sprintf("%s[%d]", at, i)
		switch {
		case it.kind == kindScalar && it.raw[0] == '"':
			var o string
			_ = json.Unmarshal(it.raw, &o)
			out = append(out, proctor.Sample{Output: o})
		case it.kind == kindMap:
			if err := s.checkKeys(it, iat, sampleKeys); err != nil {
				return nil, err
			}
			o := it.get("output")
			if o == nil && it.get("messages") == nil {
				return nil, s.errAt(it, iat+".output", "missing: a recorded sample needs its output (or its messages)")
			}
			if o != nil {
				if _, err := s.str(o, iat+".output"); err != nil {
					return nil, err
				}
			}
			if m := it.get("metrics"); m != nil {
				if err := s.checkKeys(m, iat+".metrics", metricKeys); err != nil {
					return nil, err
				}
				for j, k := range m.keys {
					if v := m.items[j]; v.what() != "a number" && !v.isNull() {
						return nil, s.errAt(v, iat+".metrics."+k, "want a number, got %s", v.what())
					}
				}
			}
			if m := it.get("model"); m != nil {
				if _, err := s.decodeModel(m, iat+".model"); err != nil {
					return nil, err
				}
			}
			if tc := it.get("tool_calls"); tc != nil {
				if tc.kind != kindSeq {
					return nil, s.errAt(tc, iat+".tool_calls", "want a list of {name, arguments}, got %s", tc.what())
				}
				for j, call := range tc.items {
					if err := s.checkKeys(call, fmt.Sprintf("%s.tool_calls[%d]", iat, j), []string{"name", "arguments", "result", "is_error"}); err != nil {
						return nil, err
					}
				}
			}
			var smp proctor.Sample
			dec := json.NewDecoder(bytes.NewReader(it.JSON()))
			if err := dec.Decode(&smp); err != nil {
				return nil, &Error{File: s.Path, Line: it.line, Field: iat, Msg: "not a sample object", Err: err}
			}
			out = append(out, smp)
		default:
			return nil, s.errAt(it, iat, "want a string or a sample object, got %s", it.what())
		}
	}
	return out, nil
}

func (s *Suite) decodeModel(n *node, at string) (proctor.Model, error) {
	var m proctor.Model
	if err := s.checkKeys(n, at, []string{"name", "family"}); err != nil {
		return m, err
	}
	var err error
	if v := n.get("name"); v != nil {
		if m.Name, err = s.str(v, at+".name"); err != nil {
			return m, err
		}
	}
	if v := n.get("family"); v != nil {
		if m.Family, err = s.str(v, at+".family"); err != nil {
			return m, err
		}
	}
	return m, nil
}

// specs compiles a list of grader specs; errors carry the spec's line.
func (s *Suite) specs(n *node, at string) ([]proctor.Check, error) {
	if n.kind != kindSeq {
		return nil, s.errAt(n, at, "want a list of grader specs, got %s", n.what())
	}
	out := make([]proctor.Check, 0, len(n.items))
	for i, sp := range n.items {
		sat := fmt.Sprintf("%s[%d]", at, i)
		if sp.kind != kindMap {
			return nil, s.errAt(sp, sat, "want a grader spec object with a type, got %s", sp.what())
		}
		ch, err := s.compile(sp.JSON())
		if err != nil {
			return nil, &Error{File: s.Path, Line: specLine(sp, err), Field: sat, Err: err}
		}
		out = append(out, ch)
	}
	return out, nil
}

// maxCached bounds the compiled specs a Suite keeps for reuse.
const maxCached = 1024

// compile compiles a spec, reusing the check compiled for the same spec
// text: generated suites repeat the same checks on every case, and a built
// grader is immutable and safe to share. At most maxCached specs are kept.
func (s *Suite) compile(spec []byte) (proctor.Check, error) {
	s.mu.Lock()
	ch, ok := s.cache[string(spec)]
	s.mu.Unlock()
	if ok {
		return ch, nil
	}
	ch, err := s.comp.Compile(spec)
	if err != nil {
		return ch, err
	}
	s.mu.Lock()
	if _, ok := ch.Grader.(io.Closer); ok {
		s.closers = append(s.closers, ch)
	}
	if s.cache == nil || len(s.cache) >= maxCached {
		s.cache = make(map[string]proctor.Check)
	}
	s.cache[string(spec)] = ch
	s.mu.Unlock()
	return ch, nil
}

// specLine returns the line of the option a spec error names, or the
// spec's own line.
func specLine(sp *node, err error) int {
	var se *proctor.SpecError
	if errors.As(err, &se) && se.Option != "" {
		for i, k := range sp.keys {
			if k == se.Option {
				return sp.keyLines[i]
			}
		}
	}
	return sp.line
}

// checkKeys fails on a key not in allowed, or on a value that is not a map.
func (s *Suite) checkKeys(n *node, at string, allowed []string) error {
	if n.kind != kindMap {
		return s.errAt(n, at, "want an object, got %s", n.what())
	}
	for i, k := range n.keys {
		if !slices.Contains(allowed, k) {
			f := k
			if at != "" {
				f = at + "." + k
			}
			return &Error{File: s.Path, Line: n.keyLines[i], Field: f, Msg: "unknown key (known: " + strings.Join(allowed, ", ") + ")"}
		}
	}
	return nil
}

func (s *Suite) str(n *node, at string) (string, error) {
	if n.kind != kindScalar || n.raw[0] != '"' {
		return "", s.errAt(n, at, "want a string, got %s", n.what())
	}
	var v string
	_ = json.Unmarshal(n.raw, &v)
	return v, nil
}

func (s *Suite) positive(n *node, at string) (int, error) {
	var v int
	if n.what() != "a number" || json.Unmarshal(n.raw, &v) != nil || v < 1 || v > 1000 {
		return 0, s.errAt(n, at, "want an integer from 1 to 1000, got %s", strings.TrimSpace(string(n.JSON())))
	}
	return v, nil
}

func (s *Suite) nonNegFloat(n *node, at string) (float64, error) {
	var v float64
	if n.what() != "a number" || json.Unmarshal(n.raw, &v) != nil || v < 0 {
		return 0, s.errAt(n, at, "want a number >= 0, got %s", strings.TrimSpace(string(n.JSON())))
	}
	return v, nil
}

// maxLine bounds one line of a .jsonl suite.
const maxLine = 64 << 20

func (s *Suite) loadJSONL(ctx context.Context) error {
	if s.opts.GraderFile != "" {
		checks, err := s.loadGraderFile(ctx, s.opts.GraderFile)
		if err != nil {
			return err
		}
		s.Checks = checks
	}
	s.attempts = 0
	ids := &idSet{path: s.Path, seen: map[uint64]idAt{}}
	var stopped error
	err := s.scanJSONL(func(c proctor.Case, err error) bool {
		if err != nil {
			return false
		}
		if s.Total%256 == 0 && ctx.Err() != nil {
			stopped = &Error{File: s.Path, Msg: "loading stopped", Err: ctx.Err()}
			return false
		}
		s.Total++
		if s.selects(c) {
			s.Count++
			s.positions = append(s.positions, s.Total-1)
		}
		return true
	}, ids)
	if err == nil {
		err = stopped
	}
	return err
}

// idAt is where a case id was first seen in a .jsonl suite.
type idAt struct {
	line int
	off  int64
}

// idSet detects duplicate case ids in a .jsonl suite in little memory: it
// keeps a 64-bit hash of each id and where it was, and on a hash match
// reads the earlier line back to compare the ids themselves, so a hash
// collision is never reported as a duplicate.
type idSet struct {
	path string
	seen map[uint64]idAt
}

// add records id at line and offset and returns the line of an earlier
// case with the same id, or 0.
func (ids *idSet) add(id string, line int, off int64) (int, error) {
	h := fnv.New64a()
	io.WriteString(h, id)
	k := h.Sum64()
	prev, ok := ids.seen[k]
	if !ok {
		ids.seen[k] = idAt{line, off}
		return 0, nil
	}
	other, err := ids.idAt(prev.off)
	if err != nil {
		return 0, err
	}
	if other == id {
		return prev.line, nil
	}
	// A genuine collision: keep the first, the second is checked on the
	// next collision only against the first (rare enough at 64 bits).
	return 0, nil
}

// idAt reads the id of the case on the line starting at off.
func (ids *idSet) idAt(off int64) (string, error) {
	f, err := os.Open(ids.path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return "", err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	if !sc.Scan() {
		return "", fmt.Errorf("re-reading the line at byte %d: %v", off, sc.Err())
	}
	var c struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
		return "", err
	}
	return c.ID, nil
}

// scanJSONL decodes the .jsonl suite one line at a time and calls f with
// each case, stopping when f returns false. With ids it also refuses
// duplicate ids. Blank lines and lines starting with // are skipped.
func (s *Suite) scanJSONL(f func(proctor.Case, error) bool, ids ...*idSet) error {
	file, err := readfile.Open(s.Path)
	if err != nil {
		err = &Error{File: s.Path, Msg: "cannot read the suite", Err: err}
		f(proctor.Case{}, err)
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var consumed, start int64
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		adv, tok, err := bufio.ScanLines(data, atEOF)
		if tok != nil {
			start = consumed
		}
		consumed += int64(adv)
		return adv, tok, err
	})
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || bytes.HasPrefix(b, []byte("//")) {
			continue
		}
		n, err := parseJSON(b, line)
		var c proctor.Case
		if err != nil {
			var pe *parseError
			errors.As(err, &pe)
			err = &Error{File: s.Path, Line: line, Msg: pe.msg}
		} else {
			c, err = s.decodeCase(n, "case")
		}
		if err == nil && len(ids) > 0 {
			prev, ierr := ids[0].add(c.ID, line, start)
			switch {
			case ierr != nil:
				err = &Error{File: s.Path, Line: line, Field: "id", Msg: "cannot check the id for duplicates", Err: ierr}
			case prev > 0:
				err = &Error{File: s.Path, Line: line, Field: "id", Msg: fmt.Sprintf("case id %q is also used on line %d: ids must be unique", c.ID, prev)}
			}
		}
		if !f(c, err) || err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		err = &Error{File: s.Path, Line: line + 1, Msg: "cannot read the line", Err: err}
		f(proctor.Case{}, err)
		return err
	}
	return nil
}

// loadGraderFile compiles the suite-level graders of a .jsonl suite: one
// spec or a list of specs, JSON or YAML. Its files are read from its own
// folder.
func (s *Suite) loadGraderFile(ctx context.Context, path string) ([]proctor.Check, error) {
	data, err := readfile.Path(ctx, path, readfile.SpecLimit)
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot read the grader file", Err: err}
	}
	var doc *node
	if strings.EqualFold(filepath.Ext(path), ".json") || (len(bytes.TrimSpace(data)) > 0 && (bytes.TrimSpace(data)[0] == '[' || bytes.TrimSpace(data)[0] == '{')) {
		doc, err = parseJSON(data, 1)
	} else {
		doc, err = parseYAML(ctx, data)
	}
	if err != nil {
		var pe *parseError
		if !errors.As(err, &pe) {
			return nil, &Error{File: path, Msg: "loading stopped", Err: err}
		}
		return nil, &Error{File: path, Line: pe.line, Msg: pe.msg}
	}
	if doc.kind == kindMap {
		doc = &node{kind: kindSeq, line: doc.line, items: []*node{doc}}
	}
	groot, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot open the grader file's folder", Err: err}
	}
	defer groot.Close()
	gs := &Suite{Path: path, comp: s.compiler(groot)}
	return gs.specs(doc, "graders")
}

// defaultTimeout is a subject's per-attempt time limit when the suite sets
// none.
const defaultTimeout = 30 * time.Second

// decodeConfig reads the config key: a file inside the suite's folder,
// loaded through [Options.LoadConfig] (default [config.ForSuite]) unless
// [Options.IgnoreConfig].
func (s *Suite) decodeConfig(n *node) error {
	name, err := s.str(n, "config")
	if err != nil {
		return err
	}
	if !filepath.IsLocal(name) {
		return s.errAt(n, "config", "%q: want a file inside the suite's folder", name)
	}
	s.Config = name
	if s.opts.IgnoreConfig {
		return nil
	}
	load := s.opts.LoadConfig
	if load == nil {
		load = config.ForSuite
	}
	data, err := readfile.Root(context.Background(), s.root, name, readfile.SpecLimit)
	if err != nil {
		return &Error{File: s.Path, Line: n.line, Field: "config", Msg: "cannot read the config file", Err: err}
	}
	cfg, err := load(name, data)
	if err != nil {
		return &Error{File: s.Path, Line: n.line, Field: "config", Msg: name, Err: err}
	}
	s.extra = cfg
	s.opts.Compiler = append(slices.Clip(s.opts.Compiler), cfg.CompilerOptions()...)
	s.comp = s.compiler(s.root)
	return nil
}
