package suite

import (
	"context"
	"path/filepath"
	"slices"
	"time"

	"github.com/proctorhq/proctor/config"
	"github.com/proctorhq/proctor/internal/readfile"
)

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
