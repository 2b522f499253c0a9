package config

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/jsonerr"
	"github.com/proctorhq/proctor/internal/readfile"
	"github.com/proctorhq/proctor/judges/openai"
	"github.com/proctorhq/proctor/yamlspec"
)

// fileConfig is the config file (docs/config.md): judges, embedder and the judge
// policy. Unknown keys are errors.
type fileConfig struct {
	// Judges are OpenAI-compatible chat endpoints; the first is the
	// primary, the others form the panel.
	Judges []judgeEntry `json:"judges"`
	// Embedder is an OpenAI-compatible embeddings endpoint for
	// semantic_similarity; without it the built-in lexical embedder is used.
	Embedder *embedderEntry `json:"embedder"`
	// AllowSameFamily lets a judge grade a model of its own family; every
	// report then says so in its caveats.
	AllowSameFamily bool `json:"allow_same_family"`
	// JudgeCache is a directory for cached judge replies, so a rerun of an
	// unchanged suite asks no judge.
	JudgeCache string `json:"judge_cache"`
	// JudgeCacheMode is read_write (the default), replay (recorded replies
	// only: a miss is not graded, no judge is called; for hermetic CI) or
	// record (call every judge and record the replies).
	JudgeCacheMode string `json:"judge_cache_mode"`
	// Panel is sequential (the default: panel judges asked one at a time,
	// stopping once the outcome is decided) or parallel (all at once).
	Panel string `json:"panel"`
	// JudgeBudget caps calls, tokens or cost per run.
	JudgeBudget *struct {
		Calls   int     `json:"calls"`
		Tokens  int     `json:"tokens"`
		CostUSD float64 `json:"cost_usd"`
	} `json:"judge_budget"`
	// JudgeFieldBytes caps each field a judge prompt quotes (input,
	// output, expected, context); 0 is the default 32 KiB, -1 no cap.
	JudgeFieldBytes int `json:"judge_field_bytes"`
	// Redact masks what the no_pii and no_secrets detectors find, then
	// e-mail addresses and long digit runs, in everything sent to a judge
	// (proctor.RedactDisclosures, then proctor.RedactBasic).
	Redact bool `json:"redact"`
	// JudgeTimeoutMS bounds each judge call.
	JudgeTimeoutMS int `json:"judge_timeout_ms"`
	// Network opens private addresses to network graders (custom_webhook):
	// the only way past the SSRF guard, for tests and on-premises graders.
	Network *struct {
		Allow []string `json:"allow"` // CIDR prefixes, e.g. "10.20.0.0/16"
	} `json:"network"`
	// Webhook signs custom_webhook request bodies with the key held in the
	// named environment variable.
	Webhook *struct {
		SigningKeyEnv string `json:"signing_key_env"`
	} `json:"webhook"`
}

type embedderEntry struct {
	Model      string `json:"model"`
	BaseURL    string `json:"base_url"`
	APIKeyEnv  string `json:"api_key_env"`
	Dimensions int    `json:"dimensions"`
	TimeoutMS  int    `json:"timeout_ms"`
	MaxRetries int    `json:"max_retries"`
	BatchSize  int    `json:"batch_size"`
}

type judgeEntry struct {
	// Type is "openai" (the default: an OpenAI-compatible chat endpoint),
	// "anthropic" (the Messages API) or "scripted": canned replies from Replies, for demos and tests. A
	// scripted judge is not a model and calls nothing.
	Type      string `json:"type"`
	Name      string `json:"name"`
	Family    string `json:"family"`
	Model     string `json:"model"`
	BaseURL   string `json:"base_url"`
	APIKeyEnv string `json:"api_key_env"`
	Seed      int    `json:"seed"`
	MaxTokens int    `json:"max_tokens"`
	TimeoutMS int    `json:"timeout_ms"`
	// MaxTokensField (openai) is max_tokens or max_completion_tokens; by
	// default max_tokens until the endpoint refuses it.
	MaxTokensField string `json:"max_tokens_field"`
	// Temperature is a number or "omit" (send none); absent means 0.
	Temperature json.RawMessage `json:"temperature"`
	// ReasoningEffort (openai) is sent as reasoning_effort.
	ReasoningEffort string `json:"reasoning_effort"`
	// ThinkingBudget (anthropic) enables extended thinking.
	ThinkingBudget int `json:"thinking_budget"`
	// Logprobs (openai) asks for token log probabilities, whose verdict
	// token's probability decides confidence against ConfidenceThreshold.
	Logprobs            bool    `json:"logprobs"`
	ConfidenceThreshold float64 `json:"confidence_threshold"`
	// Concurrency caps the calls in flight to this judge; 0 (the default)
	// follows the run's --concurrency.
	Concurrency int `json:"concurrency"`
	// Structured is auto (the default), on or off: whether the judge is
	// asked for its reply as a strict JSON schema (see openai.Structured).
	Structured string `json:"structured"`
	Prices     *struct {
		InputPerMTok  float64 `json:"input_per_mtok"`
		OutputPerMTok float64 `json:"output_per_mtok"`
	} `json:"prices"`
	// Replies are a scripted judge's canned replies.
	Replies []scriptedReply `json:"replies"`
}

// Config is a loaded config file: the options to pass to the Compiler and
// Runner, and the judge pool for its stats (nil without judges).
type Config struct {
	opts    []proctor.Option         // the judges and their policy
	compile []proctor.CompilerOption // the embedder, network and webhook key
	pool    *proctor.JudgePool
}

// loadFile reads and checks a config file.
func loadFile(path string) (*Config, error) {
	if path == "" {
		return &Config{}, nil
	}
	b, err := readfile.Path(context.Background(), path, readfile.SpecLimit)
	if err != nil {
		return nil, err
	}
	fc, err := parseConfig(path, b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c, err := buildConfig(fc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// parseConfig decodes JSON, or YAML converted to JSON, strictly.
func parseConfig(path string, b []byte) (*fileConfig, error) {
	js := b
	ext := strings.ToLower(filepath.Ext(path))
	fromYAML := false
	if t := bytes.TrimSpace(b); ext == ".yaml" || ext == ".yml" || (ext != ".json" && (len(t) == 0 || t[0] != '{')) {
		fromYAML = true
		var err error
		if js, err = yamlspec.ToJSON(b); err != nil {
			return nil, err
		}
		if string(bytes.TrimSpace(js)) == "null" {
			js = []byte("{}")
		}
	}
	var fc fileConfig
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fc); err != nil {
		if fromYAML {
			js = nil // converted from YAML: its lines are not the file's
		}
		return nil, jsonerr.User(js, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the config object")
	}
	return &fc, nil
}

// loadSuiteConfig reads the config file a suite names (its config key):
// the same file as --config, read from the suite's folder, except that it
// may not name a judge_cache folder, since files a suite names stay in its
// folder.
func loadSuiteConfig(name string, data []byte) (*Config, error) {
	fc, err := parseConfig(name, data)
	if err != nil {
		return nil, err
	}
	if fc.JudgeCache != "" || fc.JudgeCacheMode != "" {
		return nil, fmt.Errorf("judge_cache: set it in a --config file, not in the config a suite names (judge_cache_mode too)")
	}
	return buildConfig(fc)
}

// buildConfig builds the judges and the policy options.
func buildConfig(fc *fileConfig) (*Config, error) {
	c := &Config{}
	compile, err := serviceOptions(fc)
	if err != nil {
		return nil, err
	}
	c.compile = compile
	if len(fc.Judges) == 0 {
		return c, nil
	}
	models, err := judgeModels(fc)
	if err != nil {
		return nil, err
	}
	secrets := configSecrets(fc)
	for i := range models {
		models[i].Secrets = secrets
	}
	c.pool = proctor.NewJudgePool(models[0], models[1:]...)
	c.opts = append(c.opts, c.pool)
	policy, err := judgePolicy(fc, models)
	if err != nil {
		return nil, err
	}
	c.opts = append(c.opts, policy...)
	return c, nil
}

// serviceOptions are the options of the services besides the judges: the
// embedder, the network allow list and the webhook signing key.
func serviceOptions(fc *fileConfig) ([]proctor.CompilerOption, error) {
	var opts []proctor.CompilerOption
	if e := fc.Embedder; e != nil {
		if e.Model == "" {
			return nil, fmt.Errorf("embedder: model is required")
		}
		if e.TimeoutMS < 0 || e.Dimensions < 0 || e.BatchSize < 0 {
			return nil, fmt.Errorf("embedder: timeout_ms, dimensions and batch_size must not be negative")
		}
		emb, err := openai.NewEmbedder(openai.EmbedderConfig{
			BaseURL: e.BaseURL, Model: e.Model, APIKeyEnv: e.APIKeyEnv, Dimensions: e.Dimensions,
			Timeout: time.Duration(e.TimeoutMS) * time.Millisecond, MaxRetries: e.MaxRetries, BatchSize: e.BatchSize,
		})
		if err != nil {
			return nil, fmt.Errorf("embedder: %w", err)
		}
		opts = append(opts, proctor.WithEmbedder(scrubEmbedder(emb, configSecrets(fc))))
	}
	if n := fc.Network; n != nil {
		for i, a := range n.Allow {
			p, err := netip.ParsePrefix(a)
			if err != nil {
				return nil, fmt.Errorf("network.allow[%d]: want a CIDR prefix such as 10.0.0.0/8: %w", i, err)
			}
			opts = append(opts, proctor.WithNetworkAllow(p))
		}
	}
	if w := fc.Webhook; w != nil && w.SigningKeyEnv != "" {
		key := os.Getenv(w.SigningKeyEnv)
		if key == "" {
			return nil, fmt.Errorf("webhook.signing_key_env: environment variable %s is empty or unset", w.SigningKeyEnv)
		}
		opts = append(opts, proctor.WithWebhookSigningKey([]byte(key)))
	}
	return opts, nil
}

// judgeModels builds the judges the file lists, in its order, each
// checked for a unique name, a family and limits that are not negative.
func judgeModels(fc *fileConfig) ([]proctor.JudgeModel, error) {
	models := make([]proctor.JudgeModel, 0, len(fc.Judges))
	seen := map[string]bool{}
	for i, j := range fc.Judges {
		where := fmt.Sprintf("judges[%d]", i)
		switch {
		case j.Name == "":
			return nil, fmt.Errorf("%s: name is required", where)
		case seen[j.Name]:
			return nil, fmt.Errorf("%s: name %q is used twice", where, j.Name)
		case j.Family == "":
			return nil, fmt.Errorf("%s (%s): family is required: panels and same-family refusal need it", where, j.Name)
		case j.TimeoutMS < 0 || j.Concurrency < 0 || j.MaxTokens < 0:
			return nil, fmt.Errorf("%s (%s): timeout_ms, concurrency and max_tokens must not be negative", where, j.Name)
		}
		seen[j.Name] = true
		structured, err := openai.ParseStructured(j.Structured)
		if err != nil {
			return nil, fmt.Errorf("%s (%s): %w", where, j.Name, err)
		}
		var m proctor.JudgeModel
		if j.Type == "scripted" {
			m, err = scriptedJudge(j)
		} else {
			m, err = modelJudge(j, structured)
		}
		if err != nil {
			return nil, fmt.Errorf("%s (%s): %w", where, j.Name, err)
		}
		m.Identity = judgeIdentity(j)
		models = append(models, m)
	}
	return models, nil
}

// judgePolicy is the options the file sets for asking the judges of
// models: same-family use, cache, panel order, budget, field limit,
// redaction and timeout.
func judgePolicy(fc *fileConfig, models []proctor.JudgeModel) ([]proctor.Option, error) {
	policy := proctor.JudgePolicy{SameFamily: fc.AllowSameFamily}
	opts, err := judgeCache(fc, &policy)
	if err != nil {
		return nil, err
	}
	switch fc.Panel {
	case "", "sequential":
	case "parallel":
		policy.PanelParallel = true
	default:
		return nil, fmt.Errorf("panel %q: want sequential (the default) or parallel", fc.Panel)
	}
	if b := fc.JudgeBudget; b != nil {
		if b.Calls < 0 || b.Tokens < 0 || b.CostUSD < 0 {
			return nil, fmt.Errorf("judge_budget: calls, tokens and cost_usd must not be negative")
		}
		if b.CostUSD > 0 {
			for i, m := range models {
				if m.Prices == nil {
					return nil, fmt.Errorf("judge_budget.cost_usd: judges[%d] (%s) has no prices, so what its calls cost cannot be known or held to the budget: give it prices (zeros for a free judge)", i, m.Name)
				}
			}
		}
		policy.Budget = proctor.JudgeBudget{Calls: b.Calls, Tokens: b.Tokens, CostUSD: b.CostUSD}
	}
	if fc.JudgeFieldBytes != 0 {
		opts = append(opts, proctor.WithJudgeFieldLimit(fc.JudgeFieldBytes))
	}
	if fc.Redact {
		opts = append(opts, proctor.WithRedactor(func(s string) string { return proctor.RedactBasic(proctor.RedactDisclosures(s)) }))
	}
	if fc.JudgeTimeoutMS < 0 {
		return nil, fmt.Errorf("judge_timeout_ms must not be negative")
	}
	policy.Timeout = time.Duration(fc.JudgeTimeoutMS) * time.Millisecond
	if policy != (proctor.JudgePolicy{}) {
		opts = append(opts, proctor.WithJudgePolicy(policy))
	}
	return opts, nil
}

// configSecrets returns what no judge reply or error may show: the value
// of every api_key_env in the file (judges and embedder) and the query
// values of every base URL, which may be keys (?api-key=...).
func configSecrets(fc *fileConfig) []string {
	var out []string
	add := func(env, base string) {
		if v := os.Getenv(env); env != "" && v != "" {
			out = append(out, v)
		}
		out = append(out, openai.URLSecrets(base)...)
	}
	for _, j := range fc.Judges {
		add(j.APIKeyEnv, j.BaseURL)
	}
	if e := fc.Embedder; e != nil {
		add(e.APIKeyEnv, e.BaseURL)
	}
	return out
}

// CacheKeyEnv is the environment variable that, when set, holds the key
// the judge cache's entries are authenticated under (at least 16 bytes),
// in place of the key file in the cache folder: how a team shares a cache.
const CacheKeyEnv = "PROCTOR_CACHE_KEY"

// judgeIdentity is what shapes a judge's replies besides its name, model
// and prompt: type, endpoint, seed, max tokens, structured mode and canned
// replies. It goes into the judge cache key (hashed, never stored).
func judgeIdentity(j judgeEntry) string {
	b, _ := json.Marshal(struct {
		Type, BaseURL, Structured       string
		Seed, MaxTokens, ThinkingBudget int
		MaxTokensField, ReasoningEffort string
		Temperature                     json.RawMessage
		Logprobs                        bool
		Replies                         []scriptedReply
	}{cmp.Or(j.Type, "openai"), j.BaseURL, j.Structured, j.Seed, j.MaxTokens, j.ThinkingBudget,
		j.MaxTokensField, j.ReasoningEffort, j.Temperature, j.Logprobs, j.Replies})
	return string(b)
}

// judgeCache sets policy's judge_cache and judge_cache_mode and returns
// the option of the cache key in [CacheKeyEnv].
func judgeCache(fc *fileConfig, policy *proctor.JudgePolicy) ([]proctor.Option, error) {
	var opts []proctor.Option
	if fc.JudgeCache != "" {
		policy.CacheDir = fc.JudgeCache
		if k := os.Getenv(CacheKeyEnv); k != "" {
			if len(k) < 16 {
				return nil, fmt.Errorf("%s: want a key of at least 16 bytes", CacheKeyEnv)
			}
			opts = append(opts, proctor.WithJudgeCacheKey([]byte(k)))
		}
	}
	var mode proctor.JudgeCacheMode
	if fc.JudgeCacheMode != "" {
		if err := mode.UnmarshalText([]byte(fc.JudgeCacheMode)); err != nil {
			return nil, fmt.Errorf("judge_cache_mode: %w", err)
		}
	}
	if mode != proctor.JudgeCacheReadWrite {
		if fc.JudgeCache == "" {
			return nil, fmt.Errorf("judge_cache_mode %s needs judge_cache, the folder of recorded replies", mode)
		}
		policy.CacheMode = mode
	}
	return opts, nil
}
