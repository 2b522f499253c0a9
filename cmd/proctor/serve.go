package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/builtin"
	"github.com/proctorhq/proctor/internal/readfile"
	"golang.org/x/sync/semaphore"
)

// serveUsage documents `proctor serve`.
const serveUsage = `usage: proctor serve [flags]

Serves grading over HTTP (JSON in, JSON out):

  POST /v1/grade             {"grader": SPEC | "NAME", "sample": SAMPLE}
                             or {"grader": ..., "samples": [SAMPLE, ...]}
                             -> {"results": [RESULT, ...]}, each RESULT as
                             proctor grade writes it
  POST /v1/promptfoo/NAME    promptfoo's webhook assertion protocol, with the
  POST /v1/promptfoo?grader=SPEC_JSON   grader named in --graders or given inline
  GET  /healthz

POST bodies must be Content-Type: application/json. Specs that run code
(python) need --allow-python; specs that reach the network on their own
(custom_webhook, embedders) need --allow-network. Model-graded specs use the
judges of --config and are not graded without one.

flags:
`

// serveConfig holds what `proctor serve` was started with.
type serveConfig struct {
	maxBody      int64         // request body limit in bytes
	maxSamples   int           // samples per /v1/grade request
	concurrency  int           // requests grading at once
	queueWait    time.Duration // how long a request waits for a slot before 503
	gradeTimeout time.Duration // per-request grading deadline
	cacheSize    int           // compiled specs kept
	cacheBytes   int64         // what the kept specs may cost, in bytes; 0 means defaultCacheBytes
	maxSpec      int           // largest request spec, compact JSON bytes; 0 means defaultMaxSpec
	headerWait   time.Duration // ReadHeaderTimeout: slow clients are cut off
	bodyWait     time.Duration // time a client has to send its whole body; 0 means 10 s
	maxInflight  int64         // bytes of request bodies in flight, counted bodyCost times; 0 means defaultInflight
	allowNetwork bool
	allowPython  bool
	loopbackOnly bool // the listener is on loopback: refuse other Host headers
	// shutdownGrace is how long requests in flight may run on after
	// shutdown begins; 0 means 10 s.
	shutdownGrace time.Duration
}

func cmdServe(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("serve", stderr)
	addr := fs.String("addr", "127.0.0.1:8787", "address to listen on")
	configFile := fs.String("config", "", "judges and embedder (JSON or YAML)")
	gradersFile := fs.String("graders", "", "`FILE` holding a JSON object of named grader specs, for /v1/promptfoo/NAME and \"grader\": \"NAME\"")
	allowNetwork := fs.Bool("allow-network", false, "allow specs that call the network on their own (custom_webhook, embedders)")
	allowPython := fs.Bool("allow-python", false, "allow python specs in requests (they run code with this server's privileges)")
	maxBody := fs.Int64("max-body", 4<<20, "request body limit in bytes")
	concurrency := fs.Int("concurrency", 64, "requests grading at once, and a quarter of the POST requests admitted (reading their body or waiting); others wait up to --queue-wait, then get 503")
	queueWait := fs.Duration("queue-wait", 10*time.Second, "how long a request waits for a grading slot")
	gradeTimeout := fs.Duration("grade-timeout", 2*time.Minute, "grading deadline per request")
	headerWait := fs.Duration("read-header-timeout", 5*time.Second, "time a client has to send its request headers")
	bodyWait := fs.Duration("body-timeout", 10*time.Second, "time a client has to send its whole request body, once its headers are in")
	maxInflight := fs.Int64("max-inflight", defaultInflight, "bytes of memory requests may hold at once: each body counted four times (what decoding it takes), plus the estimated working memory of grading it with an expensive type (chrf 256, bleu and go_compiles 32 bytes per input byte); past it requests wait up to --queue-wait, then get 503")
	maxSpec := fs.Int("max-spec", defaultMaxSpec, "largest grader spec in a request, in bytes of compact JSON")
	cacheBytes := fs.Int64("cache-bytes", defaultCacheBytes, "what the cached compiled specs may cost in bytes (each: its text plus what compiling it allocated)")
	pos, code, done := parseArgs(fs, serveUsage, args, stdout)
	if done {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "proctor serve: unexpected argument %q\n", pos[0])
		return exitUsage
	}
	if *maxBody < 1 || *concurrency < 1 || *queueWait < 0 || *gradeTimeout <= 0 || *headerWait <= 0 || *maxSpec < 1 || *cacheBytes < 1 || *bodyWait <= 0 || *maxInflight < minInflight {
		fmt.Fprintf(stderr, "proctor serve: --max-body, --concurrency, --grade-timeout, --read-header-timeout, --body-timeout, --max-spec and --cache-bytes must be positive, --max-inflight at least %d\n", minInflight)
		return exitUsage
	}
	conf, err := loadCLIConfig(*configFile)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	cfg := serveConfig{maxBody: *maxBody, maxSamples: 1000, concurrency: *concurrency, queueWait: *queueWait,
		gradeTimeout: *gradeTimeout, cacheSize: 256, headerWait: *headerWait, allowNetwork: *allowNetwork, allowPython: *allowPython,
		maxSpec: *maxSpec, cacheBytes: *cacheBytes, bodyWait: *bodyWait, maxInflight: *maxInflight}
	var named map[string]json.RawMessage
	if *gradersFile != "" {
		b, err := readfile.Path(ctx, *gradersFile, readfile.SpecLimit)
		if err != nil {
			fmt.Fprintf(stderr, "proctor serve: %v\n", err)
			return exitUsage
		}
		if err := json.Unmarshal(b, &named); err != nil {
			fmt.Fprintf(stderr, "proctor serve: --graders %s: want a JSON object of name -> spec: %v\n", *gradersFile, err)
			return exitUsage
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "proctor serve: %v\n", err)
		return exitUsage
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		cfg.loopbackOnly = true
	}
	srv, err := newServer(cfg, conf.CompilerOptions(), named)
	if err != nil {
		ln.Close()
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "proctor serve: listening on http://%s\n", ln.Addr())
	if err := srv.serve(ctx, ln); err != nil {
		fmt.Fprintf(stderr, "proctor serve: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// server answers grading requests. Specs are compiled once and cached by
// their compact JSON text.
type server struct {
	cfg   serveConfig
	comp  *proctor.Compiler // for specs in requests
	named map[string]*cachedCheck
	cache *specCache
	slots chan struct{} // requests grading
	// admitted bounds the POST requests whose body has arrived, waiting
	// for a slot or grading: 4 × --concurrency, at least 16.
	admitted chan struct{}
	// inflight bounds the bytes of request bodies read or being read,
	// each counted bodyCost times, charged as the bytes arrive, and the
	// estimated working memory of the grades running (chargeWork).
	inflight *semaphore.Weighted
}

// Bounds on request bodies in flight.
const (
	// bodyCost is what a body byte costs in memory while its request is
	// handled: the body, the samples decoded from it, their results.
	bodyCost = 4
	// defaultInflight is --max-inflight's default.
	defaultInflight = 512 << 20
	// minInflight is the least --max-inflight: one read chunk.
	minInflight = bodyCost * bodyChunk
	// bodyChunk is how much of a body is read (and charged) at a time.
	bodyChunk = 32 << 10
)

func newServer(cfg serveConfig, opts []proctor.CompilerOption, named map[string]json.RawMessage) (*server, error) {
	s := &server{cfg: cfg, named: map[string]*cachedCheck{}, slots: make(chan struct{}, cfg.concurrency),
		admitted: make(chan struct{}, max(4*cfg.concurrency, 16))}
	if s.cfg.bodyWait <= 0 {
		s.cfg.bodyWait = 10 * time.Second
	}
	if s.cfg.maxInflight <= 0 {
		s.cfg.maxInflight = defaultInflight
	}
	s.inflight = semaphore.NewWeighted(max(s.cfg.maxInflight, minInflight))
	// A judge's calls in flight follow the requests grading at once (a
	// judge's own concurrency in the config caps them).
	opts = append([]proctor.CompilerOption{builtin.Types()}, append(slices.Clip(opts), proctor.WithConcurrency(cfg.concurrency))...)
	// Operator-written specs (--graders) may use every type: the operator
	// chose them, network and code included.
	own := proctor.NewCompiler(opts...)
	for name, spec := range named {
		ch, err := own.Compile(spec)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("proctor serve: --graders %q: %w", name, err)
		}
		var key bytes.Buffer
		_ = json.Compact(&key, spec)
		s.named[name] = &cachedCheck{check: ch, refs: 1, work: specWork(key.String())}
	}
	s.comp = proctor.NewCompiler(opts...)
	if !cfg.allowPython {
		s.comp.Register("python", func(o *proctor.SpecOptions) (proctor.Grader, error) {
			return nil, errPython
		})
	}
	s.cache = newSpecCache(cfg.cacheSize, "the request's grader", s.comp, s.allowed)
	s.cache.strict = true
	s.cache.precheck = refuseEnvOptions
	if cfg.maxSpec > 0 {
		s.cache.maxSpec = cfg.maxSpec
	}
	if cfg.cacheBytes > 0 {
		s.cache.maxBytes = cfg.cacheBytes
	}
	return s, nil
}

var errPython = errors.New("python graders run code with this server's privileges: start proctor serve with --allow-python to accept them in requests, or name an operator's spec from --graders")

// errForbidden marks a spec the server refuses to run.
type forbiddenError struct{ msg string }

func (e *forbiddenError) Error() string { return e.msg }

// allowed refuses graders that reach the network on their own unless the
// server allows it, at any depth of the spec. Model-graded specs call only
// the judges the operator configured with --config, so they are allowed.
//
// The compiled grader's kind is not enough: a combinator reports only its
// most demanding kind, and a judge outranks a webhook, so {"type": "all",
// "graders": [webhook, llm_judge]} reads as model-graded. Every object
// nested in the spec that names a known type is therefore compiled on its
// own and its kind checked too. (An option value that merely looks like a
// network spec is refused as well: fail-closed.)
func (s *server) allowed(spec []byte, ch proctor.Check) error {
	if s.cfg.allowNetwork {
		return nil
	}
	if proctor.KindOf(ch.Grader) == proctor.KindNetwork {
		return networkRefused(ch.Name())
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(spec))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return &forbiddenError{"the request's grader cannot be checked for network use: " + err.Error()}
	}
	known := map[string]bool{}
	for _, t := range s.comp.Types() {
		known[t] = true
	}
	return s.nestedNetwork(v, known, true)
}

// nestedNetwork walks v (decoded JSON) and returns a *forbiddenError for
// the first nested object, in key order, that compiles on its own to a
// grader of kind network. top skips v itself, already checked.
func (s *server) nestedNetwork(v any, known map[string]bool, top bool) error {
	switch x := v.(type) {
	case map[string]any:
		if t, ok := x["type"].(string); ok && known[t] && !top {
			if b, err := json.Marshal(x); err == nil {
				if ch, err := s.comp.Compile(b); err == nil {
					k := proctor.KindOf(ch.Grader)
					closeGrader(ch)
					if k == proctor.KindNetwork {
						return networkRefused(ch.Name())
					}
				}
			}
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if err := s.nestedNetwork(x[k], known, false); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := s.nestedNetwork(e, known, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// envOptions are spec options that read this server's environment. A
// request could otherwise tell a set variable from an unset one by the
// answer; they are refused before anything is looked up, the same way
// whatever the variable.
var envOptions = []string{"sign_secret_env"}

// refuseEnvOptions returns a *forbiddenError when spec (JSON) has an
// object with a key of envOptions at any depth.
func refuseEnvOptions(spec []byte) error {
	var v any
	if err := json.Unmarshal(spec, &v); err != nil {
		return nil // the compiler reports it
	}
	var walk func(v any) string
	walk = func(v any) string {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range envOptions {
				if _, ok := x[k]; ok {
					return k
				}
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if found := walk(x[k]); found != "" {
					return found
				}
			}
		case []any:
			for _, e := range x {
				if found := walk(e); found != "" {
					return found
				}
			}
		}
		return ""
	}
	if k := walk(v); k != "" {
		return &forbiddenError{fmt.Sprintf("%s reads this server's environment and is not accepted in a request's grader: name an operator's spec from --graders", k)}
	}
	return nil
}

func networkRefused(name string) error {
	return &forbiddenError{fmt.Sprintf("grader %q calls the network: start proctor serve with --allow-network to accept it", name)}
}

// close closes every grader the server holds.
func (s *server) close() {
	for _, c := range s.named {
		c.release()
	}
	if s.cache != nil {
		s.cache.closeAll()
	}
}

func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("POST /v1/grade", s.handleGrade)
	mux.HandleFunc("POST /v1/promptfoo", s.handlePromptfoo)
	mux.HandleFunc("POST /v1/promptfoo/{name}", s.handlePromptfoo)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if allow := allowedMethods(r.URL.Path); allow != "" {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, r.Method+" "+r.URL.Path+": this endpoint takes "+allow)
			return
		}
		writeError(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path+" (see POST /v1/grade, POST /v1/promptfoo/NAME, GET /healthz)")
	})
	return s.guard(mux)
}

// allowedMethods is the Allow header of a known endpoint asked with
// another method, or "" for an unknown path.
func allowedMethods(path string) string {
	switch rest, ok := strings.CutPrefix(path, "/v1/promptfoo/"); {
	case path == "/v1/grade", path == "/v1/promptfoo", ok && rest != "" && !strings.Contains(rest, "/"):
		return http.MethodPost
	case path == "/healthz":
		return "GET, HEAD"
	}
	return ""
}

// guard checks what every request must satisfy: a loopback Host when the
// server listens on loopback (DNS rebinding), a JSON body on POST (a web
// page cannot send one cross-origin without a preflight, which is never
// answered) and the body limit.
func (s *server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.loopbackOnly && !loopbackHost(r.Host) {
			writeError(w, http.StatusForbidden, "Host "+r.Host+" is not a loopback address this server answers to")
			return
		}
		if r.Method == http.MethodPost {
			mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if err != nil || mt != "application/json" {
				writeError(w, http.StatusUnsupportedMediaType, "POST bodies must be Content-Type: application/json")
				return
			}
			if r.ContentLength > s.cfg.maxBody {
				writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over the %d-byte limit", s.cfg.maxBody))
				return
			}
			// The body is read whole before the request is admitted, so
			// a slow client holds no admission slot, only the bytes it
			// has sent (charged against --max-inflight as they arrive),
			// and only until --body-timeout.
			body, charged, status, msg := s.readBody(w, r)
			defer s.inflight.Release(charged)
			if status != 0 {
				if status == http.StatusServiceUnavailable {
					w.Header().Set("Retry-After", "1")
				}
				writeError(w, status, msg)
				return
			}
			if !take(w, r, s.admitted, s.cfg.queueWait, "every request slot is taken") {
				return
			}
			defer func() { <-s.admitted }()
			r.Body = &bodyBytes{Reader: bytes.NewReader(body), b: body}
		}
		next.ServeHTTP(w, r)
	})
}

// bodyBytes is a request body guard has read whole: a reader over it,
// and the bytes themselves for decode.
type bodyBytes struct {
	*bytes.Reader
	b []byte
}

func (*bodyBytes) Close() error { return nil }

// bodyLen is the length of the body guard read for r.
func bodyLen(r *http.Request) int {
	if b, ok := r.Body.(*bodyBytes); ok {
		return len(b.b)
	}
	return 0
}

// readBody reads r's body within --body-timeout and --max-body, charging
// bodyCost times its bytes to s.inflight as they arrive (waiting up to
// --queue-wait for room each time). It returns the body and what was charged (to
// release when the request is done), or the status and message to answer.
func (s *server) readBody(w http.ResponseWriter, r *http.Request) (body []byte, charged int64, status int, msg string) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(s.cfg.bodyWait))
	in := http.MaxBytesReader(w, r.Body, s.cfg.maxBody)
	var buf bytes.Buffer
	for {
		if buf.Available() == 0 {
			// The declared length when it is small, else a chunk at a time.
			want := int64(bodyChunk)
			if r.ContentLength >= 0 {
				want = min(want, r.ContentLength-int64(buf.Len())+1)
			}
			buf.Grow(int(max(want, 512)))
		}
		chunk := buf.AvailableBuffer()[:buf.Available()]
		n, err := in.Read(chunk)
		if n > 0 {
			cost := int64(n) * bodyCost
			if !s.inflight.TryAcquire(cost) {
				ctx, cancel := context.WithTimeout(r.Context(), s.cfg.queueWait)
				aerr := s.inflight.Acquire(ctx, cost)
				cancel()
				if aerr != nil {
					return nil, charged, http.StatusServiceUnavailable, fmt.Sprintf("server busy: the request bodies in flight hold the %d bytes allowed (--max-inflight)", s.cfg.maxInflight)
				}
			}
			charged += cost
			buf.Write(chunk[:n])
		}
		var mbe *http.MaxBytesError
		switch {
		case err == nil:
			continue
		case errors.Is(err, io.EOF):
			// The deadline was for the body: lift it, so that nothing
			// reading the connection later (the server watching for the
			// client going away) times out while the request grades.
			_ = rc.SetReadDeadline(time.Time{})
			return buf.Bytes(), charged, 0, ""
		case errors.As(err, &mbe):
			return nil, charged, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over the %d-byte limit", mbe.Limit)
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil, charged, http.StatusRequestTimeout, fmt.Sprintf("request body not received within %v", s.cfg.bodyWait)
		default:
			return nil, charged, http.StatusBadRequest, "cannot read the request body: " + err.Error()
		}
	}
}

// acquire takes a grading slot, waiting up to the queue wait; it answers
// 503 and returns false when none frees up. Bodies are read before, so a
// slow client never holds a slot. The caller must call release.
func (s *server) acquire(w http.ResponseWriter, r *http.Request) bool {
	return take(w, r, s.slots, s.cfg.queueWait, "every grading slot is taken")
}

// take sends on sem, waiting up to wait; it answers 503 (busy names what
// is taken) and returns false when sem stays full or the request ends.
func take(w http.ResponseWriter, r *http.Request, sem chan struct{}, wait time.Duration, busy string) bool {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case sem <- struct{}{}:
		return true
	case <-t.C:
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, "server busy: "+busy)
	case <-r.Context().Done():
		writeError(w, http.StatusServiceUnavailable, "request ended while waiting: "+busy)
	}
	return false
}

func (s *server) release() { <-s.slots }

func loopbackHost(host string) bool {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// gradeRequest is the body of POST /v1/grade.
type gradeRequest struct {
	Grader  json.RawMessage   `json:"grader"`
	Sample  json.RawMessage   `json:"sample"`
	Samples []json.RawMessage `json:"samples"`
}

func (s *server) handleGrade(w http.ResponseWriter, r *http.Request) {
	var req gradeRequest
	if !s.decode(w, r, &req) {
		return
	}
	raws := req.Samples
	switch {
	case len(req.Sample) > 0 && req.Samples != nil:
		writeError(w, http.StatusBadRequest, `give "sample" or "samples", not both`)
		return
	case len(req.Sample) > 0:
		raws = []json.RawMessage{req.Sample}
	case len(raws) == 0:
		writeError(w, http.StatusBadRequest, `no "sample" or "samples" to grade`)
		return
	case len(raws) > s.cfg.maxSamples:
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%d samples, over the limit of %d per request", len(raws), s.cfg.maxSamples))
		return
	}
	samples := make([]proctor.Sample, len(raws))
	for i, raw := range raws {
		if err := json.Unmarshal(raw, &samples[i]); err != nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("sample %d: %v", i, err))
			return
		}
	}
	// The spec compiles inside a grading slot, so compiles are bounded
	// by --concurrency like grading (and by the compile lanes).
	if !s.acquire(w, r) {
		return
	}
	defer s.release()
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.gradeTimeout)
	defer cancel()
	cc, status, err := s.checkFor(ctx, req.Grader)
	if err != nil {
		writeError(w, status, err.Error())
		return
	}
	defer cc.release()
	largest := 0
	for _, raw := range raws {
		largest = max(largest, len(raw))
	}
	charged, ok := s.chargeWork(w, r, cc, largest+len(req.Grader))
	if !ok {
		return
	}
	defer s.inflight.Release(charged)
	out := make([]json.RawMessage, len(samples))
	for i := range samples {
		line := appendResult(nil, 0, samples[i].ID, cc.check.Grade(ctx, &samples[i]))
		out[i] = json.RawMessage(bytes.TrimRight(line, "\n"))
	}
	writeJSON(w, http.StatusOK, map[string]any{"results": out})
}

// promptfooRequest is what promptfoo's webhook assertion POSTs: the output
// (a string, or JSON when the provider returned an object) and the test's
// prompt and vars.
type promptfooRequest struct {
	Output  json.RawMessage `json:"output"`
	Context struct {
		Prompt json.RawMessage `json:"prompt"`
		Vars   map[string]any  `json:"vars"`
	} `json:"context"`
}

// promptfooReply is the GradingResult promptfoo reads: pass, score and
// reason. status carries proctor's own verdict, so that a not-graded
// result (pass false) can be told from a failure.
type promptfooReply struct {
	Pass   bool    `json:"pass"`
	Score  float64 `json:"score"`
	Reason string  `json:"reason"`
	Status string  `json:"status"`
}

func (s *server) handlePromptfoo(w http.ResponseWriter, r *http.Request) {
	spec := json.RawMessage(nil)
	if name := r.PathValue("name"); name != "" {
		b, _ := json.Marshal(name)
		spec = b
	} else if q := r.URL.Query().Get("grader"); q != "" {
		spec = json.RawMessage(q)
	}
	var req promptfooRequest
	if !s.decode(w, r, &req) {
		return
	}
	if len(req.Output) == 0 {
		writeError(w, http.StatusBadRequest, `no "output" to grade`)
		return
	}
	if !s.acquire(w, r) {
		return
	}
	defer s.release()
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.gradeTimeout)
	defer cancel()
	cc, status, err := s.checkFor(ctx, spec)
	if err != nil {
		writeError(w, status, err.Error())
		return
	}
	defer cc.release()
	charged, ok := s.chargeWork(w, r, cc, bodyLen(r)+len(spec))
	if !ok {
		return
	}
	defer s.inflight.Release(charged)
	sample := promptfooSample(req)
	g := cc.check.Grade(ctx, &sample)
	rep := promptfooReply{Pass: g.Status == proctor.StatusPassed, Status: g.Status.String(), Reason: g.Reason}
	switch {
	case g.HasScore:
		rep.Score = g.Score
	case rep.Pass:
		rep.Score = 1
	}
	if g.Status == proctor.StatusNotGraded {
		rep.Reason = "not graded: " + g.Reason
	}
	if rep.Reason == "" {
		rep.Reason = g.Grader + " " + g.Status.String()
	}
	writeJSON(w, http.StatusOK, rep)
}

// promptfooSample maps a promptfoo webhook request onto a Sample: the
// output (JSON output as its compact text), the prompt as input, the vars
// as item, and the vars expected, references and context (string or list
// of strings) as the sample's own fields.
func promptfooSample(req promptfooRequest) proctor.Sample {
	s := proctor.Sample{Output: jsonText(req.Output), Input: jsonText(req.Context.Prompt), Item: req.Context.Vars}
	vars := req.Context.Vars
	switch v := vars["expected"].(type) {
	case nil:
	case string:
		s.Expected = &v
	default:
		if b, err := json.Marshal(v); err == nil {
			s.Expected = proctor.Ptr(string(b))
		}
	}
	s.References = stringList(vars["references"])
	s.Context = stringList(vars["context"])
	return s
}

// jsonText returns a JSON string's value, or other JSON as compact text.
func jsonText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		return b.String()
	}
	return string(raw)
}

func stringList(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// decode reads a JSON body into v, answering 400 on failure (guard has
// answered 413 for a body over the limit).
func (s *server) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	// guard has read every POST body whole, within --max-body.
	var body []byte
	if bb, ok := r.Body.(*bodyBytes); ok {
		body = bb.b
	} else {
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			writeError(w, http.StatusBadRequest, "cannot read the request body: "+err.Error())
			return false
		}
	}
	if err := checkDuplicateKeys(body); err != nil {
		writeError(w, http.StatusBadRequest, "malformed JSON body: "+err.Error())
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "malformed JSON body: "+err.Error())
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		writeError(w, http.StatusBadRequest, "malformed JSON body: trailing data after the object")
		return false
	}
	return true
}

// checkFor resolves a request's grader: a JSON string names a --graders
// spec, an object is a spec compiled (once) and cached. The caller must
// release the result.
func (s *server) checkFor(ctx context.Context, spec json.RawMessage) (*cachedCheck, int, error) {
	spec = bytes.TrimSpace(spec)
	if len(spec) == 0 || string(spec) == "null" {
		return nil, http.StatusBadRequest, errors.New(`no "grader": give a spec object, or the name of one from --graders`)
	}
	if spec[0] == '"' {
		var name string
		if err := json.Unmarshal(spec, &name); err != nil {
			return nil, http.StatusBadRequest, err
		}
		cc, ok := s.named[name]
		if !ok {
			return nil, http.StatusNotFound, fmt.Errorf("no grader named %q (start proctor serve with --graders FILE to name graders)", name)
		}
		cc.acquire()
		return cc, 0, nil
	}
	cc, err := s.cache.get(ctx, spec)
	if err != nil {
		var fe *forbiddenError
		var tl *specTooLargeError
		var full *cacheFullError
		switch {
		case errors.As(err, &fe) || errors.Is(err, errPython):
			return nil, http.StatusForbidden, err
		case errors.As(err, &tl):
			return nil, http.StatusRequestEntityTooLarge, err
		case errors.As(err, &full) || ctx.Err() != nil:
			return nil, http.StatusServiceUnavailable, err
		}
		return nil, http.StatusBadRequest, err
	}
	return cc, 0, nil
}

// serve answers on ln until ctx ends, then shuts down gracefully: it stops
// accepting and lets requests in flight finish, up to the shutdown grace
// (10 s by default). Requests still running then have their contexts
// cancelled, so graders stop, and their connections are closed. It
// returns once every handler has returned (or, for a grader that ignores
// cancellation, after another grace period), and closes the graders it
// holds.
func (s *server) serve(ctx context.Context, ln net.Listener) error {
	grace := s.cfg.shutdownGrace
	if grace <= 0 {
		grace = 10 * time.Second
	}
	base, cancelBase := context.WithCancel(context.Background())
	defer cancelBase()
	var handlers inflight
	h := s.handler()
	hs := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			handlers.add(1)
			defer handlers.add(-1)
			h.ServeHTTP(w, r)
		}),
		BaseContext:       func(net.Listener) context.Context { return base },
		ReadHeaderTimeout: s.cfg.headerWait,
		ReadTimeout:       s.cfg.headerWait + 30*time.Second,
		WriteTimeout:      s.cfg.gradeTimeout + s.cfg.queueWait + 30*time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          nil,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	var err error
	select {
	case err = <-errc:
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), grace)
		err = hs.Shutdown(sctx)
		cancel()
		if err != nil {
			// Past the grace: cancel what is still grading, close the
			// connections, and wait (boundedly) for the handlers.
			cancelBase()
			_ = hs.Close()
			handlers.wait(grace)
			err = fmt.Errorf("requests still running %v after shutdown began were cancelled", grace)
		}
		if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
			err = serr
		}
	}
	s.close()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// inflight counts running handlers. Unlike a sync.WaitGroup it may be
// added to while someone waits.
type inflight struct {
	mu   sync.Mutex
	n    int
	zero *sync.Cond
}

func (f *inflight) add(d int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n += d
	if f.n == 0 && f.zero != nil {
		f.zero.Broadcast()
	}
}

// wait returns when no handler runs, or after d.
func (f *inflight) wait(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.zero == nil {
		f.zero = sync.NewCond(&f.mu)
	}
	expired := false
	t := time.AfterFunc(d, func() {
		f.mu.Lock()
		expired = true
		f.zero.Broadcast()
		f.mu.Unlock()
	})
	defer t.Stop()
	for f.n > 0 && !expired {
		f.zero.Wait()
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"response does not encode"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
