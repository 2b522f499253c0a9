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
	"bytes"
	"context"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/proctorhq/proctor/calibrate"
	"github.com/proctorhq/proctor/config"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/builtin"
	"github.com/proctorhq/proctor/internal/readfile"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

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
	fields     [2]fieldWatch      // cluster and group_by, while loading

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
