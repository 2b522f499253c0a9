package openaievals

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/internal/proc"
	"github.com/proctorhq/proctor/internal/pyworker"
)

// Python is OpenAI's python grader: its source defines
// grade(sample, item) returning a number, which is compared with the pass
// threshold. It runs in a python3 worker process on this machine.
//
// The call is grade(sample, item), positionally, as OpenAI's graders guide
// documents it. Some published examples (the chemical-name graders in this
// project's seed documents among them) write def grade(item, sample); so
// that they work as their authors meant, a function whose first two
// parameters are named item and sample is called by keyword instead.
//
// sample is a dict with output_text (the output), output_json (the output
// decoded, when the trimmed output is a JSON object or array),
// output_tools (the tool calls, when there are any), model (the model
// name, when known) and metrics (the measured ones, when any). item is
// the sample's Item, plus "expected" holding the sample's expected answer
// when there is one and Item has no such key.
//
// Not graded, with the reason: no python3 on PATH, source that does not
// load or defines no grade, an exception in grade (its type, message and
// the line it came from), a result that is not a number (bool, None, a
// string) or not finite, a call that outruns the timeout (10 s by default;
// the worker is killed), a MemoryError at the memory limit (512 MiB of
// address space by default), a worker that crashes. A killed or crashed
// worker is restarted for the next sample.
//
// # Isolation, and what it is not
//
// This is NOT a sandbox. OpenAI runs python graders in its own hosted
// sandbox; proctor runs your grader's code, which you wrote or chose, on
// your machine with your privileges: it can read and write your files and
// see your environment variables. What the worker does to keep honest code
// honest: the memory limit (RLIMIT_AS), the per-call timeout, sample data
// only ever sent over a pipe (never put on a command line), and no network
// for well-behaved code: creating a socket of any family (AF_UNIX
// included) and name lookups raise PermissionError, through the socket
// module and the _socket module under it. On Linux the worker is also
// started in its own network namespace when the kernel allows it without
// privileges, which removes every network interface but loopback; the
// grade's evidence says which applied. Code that means to can get around
// all of this from inside the interpreter (ctypes makes system calls
// directly; a namespace does not hide filesystem sockets).
//
// Replies are framed: each call carries a fresh random nonce, and its
// reply must come on the worker's reply descriptor as "NONCE LENGTH" and
// LENGTH bytes. Grader code can find that descriptor (it runs in the same
// process), and can answer the call it runs in (its own score, which it
// decides anyway), but cannot know a later call's nonce: a reply not
// framed for the call it answers makes that call not graded and kills the
// worker, so no sample ever gets another sample's result.
//
// Processes the grader starts share the worker's process group, killed
// with the worker (on timeout, crash or Close); the worker itself dies
// with the process that started it on Linux. A descendant that leaves the
// group (setsid, a double fork into a new session) is not killed and can
// outlive proctor. Never grade with a python spec you would not run
// yourself, and never accept python specs from people you would not give
// a shell.
//
// # Resources
//
// The worker is started on first use, one per grader (or up to
// [PythonOptions.Workers]); calls into one worker are serialised. It exits
// when its stdin closes, is killed by [Python.Close], and on Linux dies with
// the process that started it. Callers of [proctor.Compiler.Compile] should close
// graders that implement io.Closer when done; a grader dropped without
// Close has its workers killed when it is garbage collected. A Python is
// safe for concurrent use.
type Python struct {
	name string
	st   *pyState
}

// PythonOptions configure [NewPython]. The zero value passes at 0.5, with a
// 10 s timeout, a 512 MiB memory limit, one worker and python3 from PATH.
type PythonOptions struct {
	// PassThreshold is the least passing score; nil means 0.5.
	PassThreshold *float64
	// Timeout bounds one call of grade; 0 means 10 s. Starting a worker
	// (the interpreter, then loading the source) may take the larger of
	// Timeout and 30 s.
	Timeout time.Duration
	// MemoryMB is the worker's address-space limit in MiB; 0 means 512,
	// negative means none.
	MemoryMB int
	// Workers is how many worker processes may run at once; 0 means 1.
	Workers int
	// Interpreter is the Python 3 executable; "" means python3 on PATH.
	Interpreter string
	// ImageTag is OpenAI's image_tag, accepted for compatibility and
	// ignored: each grade carries a caveat saying so.
	ImageTag string
	// Name is shown in results; default "python".
	Name string
}

// PythonEvidence is the evidence of a graded [Python] result.
type PythonEvidence struct {
	// Score is what grade returned, before clamping to [0, 1].
	Score float64 `json:"score"`
	// Network says how the worker was kept off the network: "namespace"
	// (a Linux network namespace and the socket patch) or "socket-patch".
	Network string `json:"network"`
}

var (
	_ proctor.Grader = (*Python)(nil)
	_ io.Closer      = (*Python)(nil)
)

// ErrPythonClosed is the cause of a grade asked of a closed [Python].
var ErrPythonClosed = errors.New("openaievals: python grader is closed")

// NewPython returns a python grader running source. No process starts
// until the first Grade. It returns an error when source is empty or an
// option is out of range.
func NewPython(source string, opts PythonOptions) (*Python, error) {
	if strings.TrimSpace(source) == "" {
		return nil, refuse("python: empty source")
	}
	th := 0.5
	if opts.PassThreshold != nil {
		th = *opts.PassThreshold
		if !(th >= 0 && th <= 1) {
			return nil, refuse("python: pass threshold %v outside [0, 1]", th)
		}
	}
	if opts.Timeout < 0 || opts.Workers < 0 {
		return nil, refuse("python: negative timeout or workers")
	}
	st := &pyState{
		name:      cmp.Or(opts.Name, "python"),
		source:    source,
		threshold: th,
		timeout:   cmpOr(opts.Timeout, 10*time.Second),
		memoryMB:  cmpOr(opts.MemoryMB, 512),
		interp:    cmpOr(opts.Interpreter, "python3"),
		imageTag:  opts.ImageTag,
		slots:     make(chan *pyWorker, cmpOr(opts.Workers, 1)),
		live:      map[*pyWorker]struct{}{},
	}
	for range cap(st.slots) {
		st.slots <- nil
	}
	g := &Python{name: st.name, st: st}
	runtime.AddCleanup(g, func(st *pyState) { _ = st.close() }, st)
	return g, nil
}

// MustPython is [NewPython] that panics on error.
func MustPython(source string, opts PythonOptions) *Python {
	g, err := NewPython(source, opts)
	if err != nil {
		panic(kit.MustFailed("openaievals.MustPython", source, err))
	}
	return g
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Name returns the grader's name.
func (g *Python) Name() string { return g.name }

// Close kills the grader's worker processes and waits for them to exit.
// Grades asked afterwards are not graded. Close is safe to call more than
// once and concurrently with Grade.
func (g *Python) Close() error { return g.st.close() }

// Grade calls grade(sample, item) in a worker.
func (g *Python) Grade(ctx context.Context, s *proctor.Sample) proctor.Grade {
	gr := g.st.grade(ctx, s)
	if g.st.imageTag != "" {
		gr.Caveats = append(gr.Caveats, fmt.Sprintf("python grader %q: image_tag %q ignored, graded with the local python3", g.name, g.st.imageTag))
	}
	return gr
}

// pyState is everything a Python holds; it is kept apart from the Python
// so that the cleanup that kills workers does not keep the Python alive.
type pyState struct {
	name      string
	source    string
	threshold float64
	timeout   time.Duration
	memoryMB  int
	interp    string
	imageTag  string
	slots     chan *pyWorker // one per worker allowed; nil: not started
	noNetNS   atomic.Bool    // a network namespace could not be made

	mu     sync.Mutex
	closed bool
	live   map[*pyWorker]struct{}
	fatal  error // the source does not load: the same for every sample
}

type pyRequest struct {
	Sample map[string]any `json:"sample"`
	Item   map[string]any `json:"item"`
}

type pyReply struct {
	OK     bool     `json:"ok"`
	Score  *float64 `json:"score"`
	Error  string   `json:"error"`
	Fatal  bool     `json:"fatal"`
	Memory bool     `json:"memory"`
	Raised bool     `json:"raised"`
	ByName bool     `json:"by_name"`
}

func (st *pyState) grade(ctx context.Context, s *proctor.Sample) proctor.Grade {
	line, err := json.Marshal(pyRequestFor(s))
	if err != nil {
		return proctor.ErrorGrade("sample does not encode as JSON for the python grader", err)
	}
	if st.isClosed() {
		return proctor.ErrorGrade("", ErrPythonClosed)
	}
	var w *pyWorker
	select {
	case w = <-st.slots:
	case <-ctx.Done():
		return proctor.ErrorGrade("waiting for a python worker", ctx.Err())
	}
	defer func() { st.slots <- w }()
	if err := st.fatalErr(); err != nil {
		return proctor.ErrorGrade("python grader", err)
	}
	if w == nil || w.exited() {
		if w != nil {
			st.discard(w)
		}
		w = nil
		nw, err := st.start(ctx)
		if err != nil {
			return st.failure(ctx, "python worker did not start", err)
		}
		w = nw
	}
	reply, err := w.roundTrip(ctx, line, time.Now().Add(st.timeout))
	if err != nil {
		st.discard(w)
		ww := w
		w = nil
		return st.failure(ctx, "python grade", ww.explain(err, st.timeout))
	}
	if !reply.OK {
		if reply.Memory {
			st.discard(w)
			w = nil
			return proctor.NotGradedf("grade raised %s (memory limit %d MiB)", reply.Error, st.memoryMB)
		}
		if reply.Raised {
			return proctor.NotGradedf("grade raised %s", reply.Error)
		}
		return proctor.NotGraded(reply.Error)
	}
	if reply.Score == nil {
		return proctor.NotGraded("python worker replied without a score")
	}
	score := *reply.Score
	ev := PythonEvidence{Score: score, Network: w.network}
	return proctor.Scored(score, st.threshold, fmt.Sprintf("grade returned %.4g; pass_threshold %.4g", score, st.threshold)).WithEvidence(ev)
}

// failure turns a worker error into a not-graded grade, preferring the
// context's error when the context ended, and a closed grader's.
func (st *pyState) failure(ctx context.Context, prefix string, err error) proctor.Grade {
	switch {
	case ctx.Err() != nil:
		return proctor.ErrorGrade(prefix, ctx.Err())
	case st.isClosed():
		return proctor.ErrorGrade(prefix, ErrPythonClosed)
	}
	return proctor.ErrorGrade(prefix, err)
}

func (st *pyState) isClosed() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.closed
}

func (st *pyState) fatalErr() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.fatal
}

// pyRequestFor builds the sample and item dicts grade receives.
func pyRequestFor(s *proctor.Sample) pyRequest {
	sample := map[string]any{"output_text": s.Output}
	if t := strings.TrimSpace(s.Output); len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		sample["output_json"] = json.RawMessage(t)
	}
	if len(s.ToolCalls) > 0 {
		sample["output_tools"] = s.ToolCalls
	}
	if s.Model.Name != "" {
		sample["model"] = s.Model.Name
	}
	if s.Metrics != (proctor.Metrics{}) {
		sample["metrics"] = s.Metrics
	}
	item := s.Item
	if _, has := item["expected"]; !has && s.Expected != nil {
		item = make(map[string]any, len(s.Item)+1)
		for k, v := range s.Item {
			item[k] = v
		}
		item["expected"] = *s.Expected
	}
	if item == nil {
		item = map[string]any{}
	}
	return pyRequest{Sample: sample, Item: item}
}

// pyStartBudget is the least time a worker is given to start the
// interpreter and load the source (imports included).
const pyStartBudget = 30 * time.Second

// start starts a worker and loads the source into it, within the larger
// of the timeout and pyStartBudget.
func (st *pyState) start(ctx context.Context) (*pyWorker, error) {
	path, err := exec.LookPath(st.interp)
	if err != nil {
		return nil, fmt.Errorf("%s not found (python graders need a Python 3 interpreter on PATH): %w", st.interp, err)
	}
	w, err := st.spawn(path)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	if st.closed {
		st.mu.Unlock()
		w.kill()
		return nil, ErrPythonClosed
	}
	st.live[w] = struct{}{}
	st.mu.Unlock()

	mem := st.memoryMB
	if mem < 0 {
		mem = 0
	}
	init, _ := json.Marshal(map[string]any{"source": st.source, "memory_mb": mem})
	budget := max(st.timeout, pyStartBudget)
	reply, err := w.roundTrip(ctx, init, time.Now().Add(budget))
	if err != nil {
		st.discard(w)
		return nil, w.explain(err, budget)
	}
	if !reply.OK {
		st.discard(w)
		err := errors.New(reply.Error)
		if reply.Fatal {
			st.mu.Lock()
			st.fatal = err
			st.mu.Unlock()
		}
		return nil, err
	}
	return w, nil
}

// spawn starts the interpreter running the worker program, in a network
// namespace where the system allows it.
func (st *pyState) spawn(path string) (*pyWorker, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	w := &pyWorker{in: inW, out: outR, rd: bufio.NewReaderSize(outR, 64<<10), stderr: &tailBuffer{max: 4 << 10}, done: make(chan struct{})}
	newCmd := func() *exec.Cmd {
		// Replies come on descriptor 3, which the worker moves out of the
		// way before any grader code runs; standard output and error both
		// go to the stderr tail.
		cmd := exec.Command(path, "-u", "-c", pyworker.Script())
		cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, w.stderr, w.stderr
		cmd.ExtraFiles = []*os.File{outW}
		cmd.WaitDelay = time.Second
		return cmd
	}
	cmd := newCmd()
	w.network = "socket-patch"
	if !st.noNetNS.Load() && isolateNetwork(cmd) {
		w.network = "namespace"
	} else {
		proc.Isolate(cmd)
	}
	err = cmd.Start()
	if err != nil && w.network == "namespace" {
		st.noNetNS.Store(true)
		cmd = newCmd()
		w.network = "socket-patch"
		proc.Isolate(cmd)
		err = cmd.Start()
	}
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	w.cmd = cmd
	go func() {
		w.waitErr = cmd.Wait()
		close(w.done)
	}()
	return w, nil
}

// discard kills w and forgets it.
func (st *pyState) discard(w *pyWorker) {
	st.mu.Lock()
	delete(st.live, w)
	st.mu.Unlock()
	w.kill()
}

func (st *pyState) close() error {
	st.mu.Lock()
	st.closed = true
	ws := st.live
	st.live = map[*pyWorker]struct{}{}
	st.mu.Unlock()
	for w := range ws {
		w.kill()
	}
	return nil
}

// pyWorker is one running worker process.
type pyWorker struct {
	cmd     *exec.Cmd
	in      *os.File
	out     *os.File
	rd      *bufio.Reader
	stderr  *tailBuffer
	network string
	done    chan struct{} // closed when the process has been waited for
	waitErr error
	once    sync.Once
}

func (w *pyWorker) exited() bool {
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}

// kill kills the worker (and its process group where there is one) and
// waits for it to be reaped. Safe to call more than once.
func (w *pyWorker) kill() {
	w.once.Do(func() {
		_ = proc.Kill(w.cmd)
		w.in.Close()
		<-w.done
		w.out.Close()
	})
}

// roundTrip sends one line and reads the one-line reply, by deadline or
// until ctx ends.
func (w *pyWorker) roundTrip(ctx context.Context, line []byte, deadline time.Time) (pyReply, error) {
	// The call's deadlines are set before ctx is watched, so that a ctx
	// already ended (whose AfterFunc runs at once) is not overridden.
	_ = w.in.SetWriteDeadline(deadline)
	_ = w.out.SetReadDeadline(deadline)
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(fired)
		past := time.Unix(1, 0)
		_ = w.in.SetWriteDeadline(past)
		_ = w.out.SetReadDeadline(past)
	})
	defer func() {
		// When ctx ended as the call finished, wait for the deadlines to
		// be set: set later, they would cut short the worker's next call,
		// made for another context.
		if !stop() {
			<-fired
		}
	}()
	// Each call carries a fresh nonce, and the reply must come framed
	// with it: "NONCE LENGTH\n" then LENGTH bytes of JSON. A frame the
	// grader's code forged cannot name a later call's nonce, so a reply
	// can never be taken for another call's: a mismatch kills the worker.
	var raw [16]byte
	_, _ = rand.Read(raw[:])
	nonce := hex.EncodeToString(raw[:])
	if len(line) < 2 || line[0] != '{' {
		return pyReply{}, errors.New("python worker request is not a JSON object")
	}
	buf := make([]byte, 0, len(line)+len(nonce)+16)
	buf = append(buf, `{"nonce":"`...)
	buf = append(buf, nonce...)
	buf = append(buf, '"')
	if line[1] != '}' {
		buf = append(buf, ',')
	}
	buf = append(append(buf, line[1:]...), '\n')
	if _, err := w.in.Write(buf); err != nil {
		return pyReply{}, err
	}
	head, err := w.rd.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return pyReply{}, errPyFrame
		}
		return pyReply{}, err
	}
	got, size, ok := strings.Cut(strings.TrimSuffix(string(head), "\n"), " ")
	n, convErr := strconv.Atoi(size)
	if !ok || got != nonce || convErr != nil || n < 2 || n > maxPyReply {
		return pyReply{}, errPyFrame
	}
	resp := make([]byte, n)
	if _, err := io.ReadFull(w.rd, resp); err != nil {
		return pyReply{}, err
	}
	var r pyReply
	if err := json.Unmarshal(resp, &r); err != nil {
		return pyReply{}, fmt.Errorf("unreadable reply from the worker: %w", err)
	}
	return r, nil
}

// maxPyReply bounds a reply frame; the worker's replies are a few KB.
const maxPyReply = 1 << 20

// errPyFrame is a reply not framed for the call it answers.
var errPyFrame = errors.New("reply not framed for this call (the grader's code wrote to the worker's reply channel?)")

// explain says what went wrong with a worker after a failed round trip.
func (w *pyWorker) explain(err error, timeout time.Duration) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("timed out after %v; worker killed", timeout)
	}
	if errors.Is(err, errPyFrame) {
		return fmt.Errorf("%w; worker killed", err)
	}
	select {
	case <-w.done:
	case <-time.After(time.Second):
	}
	if w.exited() {
		msg := "worker exited"
		if w.waitErr != nil {
			msg += " (" + w.waitErr.Error() + ")"
		}
		if last := w.stderr.lastLine(); last != "" {
			msg += ": " + last
		}
		return errors.New(msg)
	}
	return err
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := bytes.TrimSpace(t.buf)
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	return kit.ClipRunes(string(b), 300)
}

func pythonSpec(o *proctor.SpecOptions) (proctor.Grader, error) {
	opts := PythonOptions{Name: o.Name()}
	src := o.RequireString("source")
	opts.PassThreshold = proctor.Ptr(passThreshold(o, 0.5))
	opts.ImageTag = o.String("image_tag", "")
	if ms, ok := o.OptInt("timeout_ms"); ok {
		if ms < 1 || ms > 600_000 {
			o.Errorf("timeout_ms", "want an integer in [1, 600000], got %d", ms)
		}
		opts.Timeout = time.Duration(ms) * time.Millisecond
	}
	if mb, ok := o.OptInt("memory_mb"); ok {
		if mb < 32 || mb > 1<<20 {
			o.Errorf("memory_mb", "want an integer in [32, 1048576] (MiB), got %d", mb)
		}
		opts.MemoryMB = mb
	}
	if n, ok := o.OptInt("workers"); ok {
		if n < 1 || n > 64 {
			o.Errorf("workers", "want an integer in [1, 64], got %d", n)
		}
		opts.Workers = n
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, err := NewPython(src, opts)
	if err != nil {
		return nil, kit.SpecCause("openaievals: ", err) // not a nil *Python in a non-nil Grader
	}
	return g, nil
}
