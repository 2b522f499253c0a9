package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
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
