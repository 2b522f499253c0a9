// Package config reads proctor's config file, the one `proctor run
// --config`, `proctor grade --config` and a suite's config key name, and
// turns it into the [proctor.Option] values that inject what it describes:
//
//   - judges: OpenAI-compatible chat endpoints (type openai, the default)
//     or scripted judges (type scripted: canned replies, for demos and
//     tests; not a model, calls nothing), the first the primary and the
//     others a panel, with their family, model, key variable, seed, token
//     and time limits, concurrency and prices;
//   - the judge policy: allow_same_family, judge_cache, judge_budget,
//     redact (mask personal data and secrets sent to judges),
//     judge_timeout_ms;
//   - embedder: an OpenAI-compatible embeddings endpoint for
//     semantic_similarity (without it the built-in lexical embedder is
//     used);
//   - network.allow: private address prefixes network graders may reach;
//   - webhook.signing_key_env: the variable holding the key that signs
//     custom_webhook requests.
//
// The file is JSON or YAML. Unknown keys are errors, as are missing
// required fields (a judge's name and family), so a typo never leaves a
// judge silently unconfigured.
//
// The command line and Go programs share this package: a Go program loads
// the same file with [Load] and passes [Config.Options] to
// [proctor.NewCompiler] and [proctor.NewRunner]; [suite.Load] uses
// [ForSuite] for a suite's config key.
package config

import (
	"github.com/proctorhq/proctor"
)

// Load reads and checks the config file at path (JSON or YAML). An empty
// path is no config: no options, no judges. Errors name the file and, for
// JSON, the line.
func Load(path string) (*Config, error) {
	return loadFile(path)
}

// Parse checks a config file's contents; name is its file name, whose
// extension (.json, .yaml, .yml) says how to read it (without one, text
// starting with "{" is read as JSON and anything else as YAML).
func Parse(name string, data []byte) (*Config, error) {
	fc, err := parseConfig(name, data)
	if err != nil {
		return nil, err
	}
	return buildConfig(fc)
}

// ForSuite reads the config file a suite names (its config key), as
// [suite.Options.LoadConfig] takes it: the same format as [Load] reads,
// except that it may not set judge_cache, since everything a suite names
// stays in the suite's folder.
func ForSuite(name string, data []byte) (*Config, error) {
	return loadSuiteConfig(name, data)
}

// Options returns the options that inject the file's judges and their
// policies, for [proctor.NewRunner] and [proctor.NewCompiler] alike. A nil
// Config has none.
func (c *Config) Options() []proctor.Option {
	if c == nil {
		return nil
	}
	return c.opts
}

// CompilerOptions returns what [proctor.NewCompiler] takes from the file:
// [Config.Options] and the embedder, network and webhook settings, which
// only compiled graders use. A nil Config has none.
func (c *Config) CompilerOptions() []proctor.CompilerOption {
	if c == nil {
		return nil
	}
	out := make([]proctor.CompilerOption, 0, len(c.opts)+len(c.compile))
	for _, o := range c.opts {
		out = append(out, o)
	}
	return append(out, c.compile...)
}

// Judges returns the pool of the file's judges, whose Stats say what the
// judges cost, or nil when the file has no judges. It is among
// [Config.Options] already.
func (c *Config) Judges() *proctor.JudgePool {
	if c == nil {
		return nil
	}
	return c.pool
}
