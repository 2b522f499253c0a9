package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proc"
	"github.com/proctorhq/proctor/internal/redact"
	"github.com/proctorhq/proctor/judges/openai"
)

// decodeSubject reads the suite's subject: a command or an
// OpenAI-compatible chat endpoint, with a per-attempt timeout.
func (s *Suite) decodeSubject(n *node) error {
	if err := s.checkKeys(n, "subject", []string{"command", "timeout_ms", "openai", "env"}); err != nil {
		return err
	}
	timeout := defaultTimeout
	if v := n.get("timeout_ms"); v != nil {
		ms, err := s.nonNegFloat(v, "subject.timeout_ms")
		if err != nil || ms < 1 {
			return s.errAt(v, "subject.timeout_ms", "want a number of milliseconds >= 1")
		}
		timeout = time.Duration(ms * float64(time.Millisecond))
	}
	cmdn, oai := n.get("command"), n.get("openai")
	switch {
	case cmdn != nil && oai != nil:
		return s.errAt(n, "subject", "give command or openai, not both")
	case cmdn != nil:
		argv, err := s.strings(cmdn, "subject.command")
		if err != nil {
			return err
		}
		if len(argv) == 0 || argv[0] == "" {
			return s.errAt(cmdn, "subject.command", "want the program and its arguments, such as [\"./bot\", \"--flag\"]")
		}
		if argv[0], err = s.confineProgram(argv[0]); err != nil {
			return s.errAt(cmdn, "subject.command", "%v", err)
		}
		var env []string
		if en := n.get("env"); en != nil {
			if env, err = s.subjectEnv(en); err != nil {
				return err
			}
		}
		s.Subject = CommandSubject(CommandOptions{Args: argv, Dir: filepath.Dir(s.Path), Timeout: timeout, Env: env})
		return nil
	case oai != nil:
		if n.get("env") != nil {
			return s.errAt(n.get("env"), "subject.env", "env is for a command subject")
		}
		o, err := s.decodeOpenAI(oai)
		if err != nil {
			return err
		}
		o.Timeout = timeout
		s.Subject = OpenAISubject(o)
		s.SubjectModel = proctor.Model{Name: o.Model, Family: o.Family}
		return nil
	}
	return s.errAt(n, "subject", "missing: give command or openai")
}

func (s *Suite) strings(n *node, at string) ([]string, error) {
	if n.kind != kindSeq {
		return nil, s.errAt(n, at, "want a list of strings, got %s", n.what())
	}
	out := make([]string, 0, len(n.items))
	for i, it := range n.items {
		v, err := s.str(it, fmt.Sprintf("%s[%d]", at, i))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (s *Suite) decodeOpenAI(n *node) (OpenAIOptions, error) {
	var o OpenAIOptions
	const at = "subject.openai"
	if err := s.checkKeys(n, at, []string{"base_url", "model", "family", "api_key_env", "system", "temperature", "max_tokens", "prices"}); err != nil {
		return o, err
	}
	req := func(k string) (string, error) {
		v := n.get(k)
		if v == nil {
			return "", s.errAt(n, at+"."+k, "missing: the openai subject needs it")
		}
		str, err := s.str(v, at+"."+k)
		if err == nil && str == "" {
			err = s.errAt(v, at+"."+k, "must not be empty")
		}
		return str, err
	}
	var err error
	if o.BaseURL, err = req("base_url"); err != nil {
		return o, err
	}
	if !strings.HasPrefix(o.BaseURL, "http://") && !strings.HasPrefix(o.BaseURL, "https://") {
		return o, s.errAt(n.get("base_url"), at+".base_url", "want an http:// or https:// URL, got %q", o.BaseURL)
	}
	if o.Model, err = req("model"); err != nil {
		return o, err
	}
	for k, dst := range map[string]*string{"family": &o.Family, "api_key_env": &o.APIKeyEnv, "system": &o.System} {
		if v := n.get(k); v != nil {
			if *dst, err = s.str(v, at+"."+k); err != nil {
				return o, err
			}
		}
	}
	if o.APIKeyEnv != "" && os.Getenv(o.APIKeyEnv) == "" {
		return o, s.errAt(n.get("api_key_env"), at+".api_key_env", "environment variable %s is not set", o.APIKeyEnv)
	}
	if v := n.get("temperature"); v != nil {
		t, err := s.nonNegFloat(v, at+".temperature")
		if err != nil {
			return o, err
		}
		o.Temperature = &t
	}
	if v := n.get("max_tokens"); v != nil {
		if o.MaxTokens, err = s.positiveInt(v, at+".max_tokens"); err != nil {
			return o, err
		}
	}
	if p := n.get("prices"); p != nil {
		if err := s.checkKeys(p, at+".prices", []string{"input_per_mtok", "output_per_mtok"}); err != nil {
			return o, err
		}
		in, out := p.get("input_per_mtok"), p.get("output_per_mtok")
		if in == nil || out == nil {
			return o, s.errAt(p, at+".prices", "give both input_per_mtok and output_per_mtok (USD per million tokens)")
		}
		var pr Prices
		if pr.InputPerMTok, err = s.nonNegFloat(in, at+".prices.input_per_mtok"); err != nil {
			return o, err
		}
		if pr.OutputPerMTok, err = s.nonNegFloat(out, at+".prices.output_per_mtok"); err != nil {
			return o, err
		}
		o.Prices = &pr
	}
	return o, nil
}

func (s *Suite) positiveInt(n *node, at string) (int, error) {
	var v int
	if n.what() != "a number" || json.Unmarshal(n.raw, &v) != nil || v < 1 {
		return 0, s.errAt(n, at, "want an integer >= 1, got %s", string(n.JSON()))
	}
	return v, nil
}

// CommandOptions configure [CommandSubject].
type CommandOptions struct {
	// Args are the program and its arguments. A program name without a
	// slash is looked up in PATH; a relative path is relative to Dir.
	Args []string
	// Dir is the working directory; "" means the current one.
	Dir string
	// Timeout bounds each attempt; 0 means 30 seconds.
	Timeout time.Duration
	// MaxOutput bounds the standard output kept; 0 means 16 MiB. A longer
	// output makes the attempt not graded.
	MaxOutput int
	// Env lists what the program's environment holds besides PATH, HOME,
	// LANG and TMPDIR (passed on from proctor's when set): "NAME" passes
	// proctor's NAME on when set, "NAME=value" sets it. Nothing else of
	// proctor's environment, judges' API keys included, reaches the
	// program.
	Env []string
}

// stderrTail is how much of a failed command's standard error its reason
// keeps.
const stderrTail = 2048

// CommandSubject returns a [proctor.Subject] that runs a program once per
// attempt with the case's input on standard input and takes its standard
// output as the output, measuring the latency. A program that exits with a
// nonzero status, runs past the timeout or writes more than MaxOutput makes
// the attempt not graded, with the exit status and the tail of its standard
// error as the reason. It is safe for concurrent use.
//
// On Linux the program leads its own process group, which is killed when
// the attempt ends, however it ends (a timeout, or a normal exit that left
// children in the background), and the program is killed should proctor
// die. What this cannot reach: a descendant that leaves the group by
// starting a new session (setsid, a daemon's double fork) or a new process
// group keeps running; the attempt's answer waits for the pipes it holds
// at most a second. Run untrusted programs under a supervisor that owns
// every descendant (a container, a systemd scope, a cgroup) when that
// matters. Elsewhere only the program itself is killed.
func CommandSubject(o CommandOptions) proctor.Subject {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	maxOut := o.MaxOutput
	if maxOut <= 0 {
		maxOut = 16 << 20
	}
	args := append([]string(nil), o.Args...)
	if len(args) == 0 {
		args = []string{""}
	}
	if prog := args[0]; strings.ContainsRune(prog, '/') && !filepath.IsAbs(prog) {
		// A relative program path is relative to Dir, made absolute once
		// so it does not depend on how the child changes directory.
		if abs, err := filepath.Abs(filepath.Join(o.Dir, prog)); err == nil {
			args[0] = abs
		}
	}
	env := subjectEnviron(o.Env)
	return func(ctx context.Context, in proctor.Sample, _ int) (proctor.Sample, error) {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Dir = o.Dir
		cmd.Env = env
		cmd.Stdin = strings.NewReader(in.Input)
		stdout := &capped{max: maxOut}
		stderr := &tail{max: stderrTail}
		// The command leads its own process group, killed on timeout and
		// again once the command has exited, so a shell's children, in the
		// background or not, do not outlive it. Its output goes through
		// pipes read here, so that what the group left holding them is
		// killed rather than waited for.
		proc.Isolate(cmd)
		cmd.Cancel = func() error { return proc.Kill(cmd) }
		pipes, err := pipeOutput(cmd)
		if err != nil {
			return in, fmt.Errorf("command: %w", err)
		}
		start := time.Now()
		err = cmd.Start()
		pipes.start(stdout, stderr)
		if err != nil {
			pipes.wait(time.Second)
			return in, fmt.Errorf("command failed: %w", err)
		}
		err = cmd.Wait()
		ms := float64(time.Since(start).Microseconds()) / 1000
		_ = proc.Kill(cmd)
		pipes.wait(time.Second)
		switch {
		case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
			return in, fmt.Errorf("command timed out after %v%s", timeout, stderr.suffix())
		case ctx.Err() != nil:
			return in, ctx.Err()
		case err != nil:
			return in, fmt.Errorf("command failed: %w%s", err, stderr.suffix())
		case stdout.over:
			return in, fmt.Errorf("command wrote more than %d bytes of output", maxOut)
		}
		out := in
		out.Output = stdout.b.String()
		out.Metrics.LatencyMS = proctor.Ptr(ms)
		return out, nil
	}
}

// outPipes carry a command's standard output and error to writers
// through pipes, so that nothing but the command's own processes hold the
// write ends and the copies can be stopped.
type outPipes struct {
	or, ow, er, ew *os.File
	done           chan struct{}
}

// pipeOutput gives cmd pipes for its standard output and error, copied
// into stdout and stderr once started.
func pipeOutput(cmd *exec.Cmd) (*outPipes, error) {
	or, ow, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	er, ew, err := os.Pipe()
	if err != nil {
		or.Close()
		ow.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = ow, ew
	return &outPipes{or: or, ow: ow, er: er, ew: ew, done: make(chan struct{}, 2)}, nil
}

// start closes this side's write ends (the command holds its own) and
// starts copying; call it once cmd.Start has returned, successful or not.
func (p *outPipes) start(stdout, stderr io.Writer) {
	p.ow.Close()
	p.ew.Close()
	go func() { _, _ = io.Copy(stdout, p.or); p.done <- struct{}{} }()
	go func() { _, _ = io.Copy(stderr, p.er); p.done <- struct{}{} }()
}

// wait waits for both copies to reach the end, up to grace: past it the
// copies are stopped, so a process that left the group (setsid) and still
// holds a pipe is not waited for.
func (p *outPipes) wait(grace time.Duration) {
	t := time.NewTimer(grace)
	defer t.Stop()
	for n := 0; n < 2; n++ {
		select {
		case <-p.done:
		case <-t.C:
			_ = p.or.SetReadDeadline(time.Unix(1, 0))
			_ = p.er.SetReadDeadline(time.Unix(1, 0))
			<-p.done
		}
	}
	p.or.Close()
	p.er.Close()
}

// capped keeps at most max bytes and notes whether more came.
type capped struct {
	b    bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.b.Len(); len(p) > room {
		c.b.Write(p[:max(room, 0)])
		c.over = true
		return len(p), nil
	}
	return c.b.Write(p)
}

// tail keeps the last max bytes written.
type tail struct {
	b   []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) suffix() string {
	s := strings.TrimSpace(string(bytes.ToValidUTF8(t.b, []byte("?"))))
	if s == "" {
		return ""
	}
	return "; stderr: " + s
}

// Prices are what a model charges, in US dollars per million tokens.
type Prices struct {
	InputPerMTok  float64
	OutputPerMTok float64
}

// OpenAIOptions configure [OpenAISubject].
type OpenAIOptions struct {
	// BaseURL is the API root, such as https://api.openai.com/v1; the
	// subject POSTs to BaseURL + "/chat/completions".
	BaseURL string
	// Model is the model name sent; Family its vendor family (for judges'
	// same-family refusal).
	Model, Family string
	// APIKeyEnv names the environment variable holding the API key, sent
	// as a bearer token; "" sends none.
	APIKeyEnv string
	// System is an optional system message.
	System string
	// Temperature and MaxTokens are sent when set.
	Temperature *float64
	MaxTokens   int
	// Prices, when set, turn the reply's token usage into a cost.
	Prices *Prices
	// Timeout bounds each attempt; 0 means 30 seconds.
	Timeout time.Duration
	// Client is the HTTP client; nil means a new one with no redirects.
	Client *http.Client
}

// OpenAISubject returns a [proctor.Subject] that sends the case's input as
// the user message (after System, when set) to an OpenAI-compatible chat
// completions endpoint through [openai.Chat.Complete] and takes the first
// choice's message as the output, with the latency, the token usage, the
// cost when Prices are set, the HTTP status, the tool calls and the model.
// No seed is sent, and temperature and max_tokens only when set. A
// transport error, a status outside 2xx, a reply without a choice, or
// options [openai.NewChat] refuses (a bad base URL, APIKeyEnv unset) make
// the attempt not graded with the reason. It is safe for concurrent use.
func OpenAISubject(o OpenAIOptions) proctor.Subject {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	co := openai.ChatOptions{BaseURL: o.BaseURL, Model: o.Model, APIKeyEnv: o.APIKeyEnv, Timeout: timeout, Client: o.Client}
	if p := o.Prices; p != nil {
		co.InputPerMTok, co.OutputPerMTok = p.InputPerMTok, p.OutputPerMTok
	}
	chat, err := openai.NewChat(co)
	if err != nil {
		return func(_ context.Context, in proctor.Sample, _ int) (proctor.Sample, error) { return in, err }
	}
	secrets := openai.URLSecrets(o.BaseURL)
	if o.APIKeyEnv != "" {
		secrets = append(secrets, os.Getenv(o.APIKeyEnv))
	}
	var msgs []openai.Message
	if o.System != "" {
		msgs = append(msgs, openai.Message{Role: "system", Content: o.System})
	}
	return func(ctx context.Context, in proctor.Sample, _ int) (proctor.Sample, error) {
		req := openai.Request{
			Messages:    append(msgs[:len(msgs):len(msgs)], openai.Message{Role: "user", Content: in.Input}),
			Temperature: o.Temperature,
			MaxTokens:   o.MaxTokens,
		}
		start := time.Now()
		c, err := chat.Complete(ctx, req)
		ms := float64(time.Since(start).Microseconds()) / 1000
		if err != nil {
			// An error body may echo the key: it goes into reports.
			return in, redact.EndpointError(err, secrets)
		}
		out := in
		out.Output = c.Text
		out.ToolCalls = append(out.ToolCalls, c.ToolCalls...)
		out.HTTPStatus = c.Status
		out.Model = proctor.Model{Name: o.Model, Family: o.Family}
		m := &out.Metrics
		m.LatencyMS = proctor.Ptr(ms)
		setTokens(&m.InputTokens, c.InputTokens)
		setTokens(&m.OutputTokens, c.OutputTokens)
		setTokens(&m.TotalTokens, c.TotalTokens)
		if o.Prices != nil && c.InputTokens != nil && c.OutputTokens != nil {
			m.CostUSD = proctor.Ptr(c.CostUSD)
		}
		return out, nil
	}
}

// setTokens sets the metric *dst to the token count n when the reply gave
// one.
func setTokens(dst **float64, n *int) {
	if n != nil {
		*dst = proctor.Ptr(float64(*n))
	}
}
