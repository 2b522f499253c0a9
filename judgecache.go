package proctor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/proctorhq/proctor/internal/aimd"
)

// JudgePool holds a run's judges and what asking them costs: bounded
// concurrency per judge, retries of transient errors, identical (judge,
// prompt) calls coalesced and cached in memory (and on disk with
// [WithJudgeCache]), the budget spent, and the counts in [JudgeStats].
//
// A JudgePool is an [Option]: pass it to the [Compiler] (or a grader's
// constructor) and to the [Runner], whose reports then list the judges'
// stats. It is safe for concurrent use. Its cache lives as long as the
// pool: build one per run.
type JudgePool struct {
	judges []JudgeModel
	lims   []*aimd.Limiter
	flight singleflight.Group
	halted context.Context // done once the pool stops (see JudgePool.Err)
	stop   context.CancelCauseFunc

	mu               sync.Mutex
	mem              map[string]JudgeReply
	stats            []JudgeStats
	reported         []JudgeStats // stats at the last report, so each report shows its run
	calls            int          // calls the budget let through
	tokens           int          // tokens the calls reported
	cost             float64      // cost the calls reported
	resTokens        int          // tokens reserved by calls in flight (judgebudget.go)
	resCost          float64      // cost reserved by calls in flight
	cacheErr         error
	macKeys          map[string][]byte // the disk cache's MAC key by folder
	rejected         int               // disk entries refused (bad MAC, unreadable)
	rejectedWhy      string            // the first refusal's reason
	reportedRejected int
	fatal            error     // why the pool stopped (judgefail.go); nil while it runs
	caveats          []string  // said in every report the pool's judges are in
	agree            agreement // votes against final verdicts, and panel coincidences
	reportedAgree    agreement
}

// NewJudgePool returns a pool whose first judge is primary and whose others
// form the panel, in the order given. A pool built wrong, with a judge that
// has neither Call nor CallWithUsage or two judges that share a name, never
// calls a judge: its [JudgePool.Err] says what is wrong (wrapping
// [ErrJudgeMisconfigured]), [Runner.Run] returns that error before grading
// anything, and a grader asking the pool outside a Runner is not graded
// with it as the cause. It never panics.
func NewJudgePool(primary JudgeModel, panel ...JudgeModel) *JudgePool {
	all := append([]JudgeModel{primary}, panel...)
	p := &JudgePool{judges: all, mem: map[string]JudgeReply{}}
	p.halted, p.stop = context.WithCancelCause(context.Background())
	seen := map[string]bool{}
	for i, j := range all {
		if j.Name == "" {
			all[i].Name = fmt.Sprintf("judge%d", i+1)
		}
		switch {
		case j.Call == nil && j.CallWithUsage == nil:
			p.halt(&JudgeConfigError{Judge: all[i].Name, Err: fmt.Errorf("judge %d has no Call", i+1)})
		case seen[all[i].Name]:
			p.halt(&JudgeConfigError{Err: fmt.Errorf("two judges are named %q: names must be unique in a pool", all[i].Name)})
		}
		seen[all[i].Name] = true
		p.lims = append(p.lims, &aimd.Limiter{Fixed: max(j.Concurrency, 0), Overloaded: overloaded})
		p.stats = append(p.stats, JudgeStats{Name: all[i].Name, Family: j.Family, Model: j.Model, PromptVersion: PromptVersion})
	}
	p.reported = make([]JudgeStats, len(p.stats))
	p.caveats = p.seatCaveats()
	return p
}

// A JudgePool is an [Option]: given to a Runner or a Compiler, it is the
// judges their model-graded checks ask.
func (p *JudgePool) applyRunner(c *config) { p.applyCompiler(c) }

func (p *JudgePool) applyCompiler(c *config) {
	c.pool = p
	c.caveats = append(c.caveats, p.caveats...)
	c.finishers = append(c.finishers, p.finish)
}

// Judges returns the pool's judges, primary first.
func (p *JudgePool) Judges() []JudgeModel { return slices.Clone(p.judges) }

// Stats returns what each judge has cost since the pool was built: calls
// made (retries included), retries, cache hits (replies served from the
// memory or disk cache, or shared with an identical call in flight),
// errors, reported tokens and cost, and how often its verdicts agreed with
// the final ones.
func (p *JudgePool) Stats() []JudgeStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.stats)
}

// finish adds to r what the judges cost since the last report, and a caveat
// when the disk cache could not be written.
func (p *JudgePool) finish(r *Report) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, s := range p.stats {
		last := p.reported[i]
		d := s
		d.Calls -= last.Calls
		d.Retries -= last.Retries
		d.CacheHits -= last.CacheHits
		d.Errors -= last.Errors
		d.Tokens -= last.Tokens
		d.CostUSD -= last.CostUSD
		d.UnpricedCalls -= last.UnpricedCalls
		d.Agreed -= last.Agreed
		d.Disagreed -= last.Disagreed
		d.Abstained -= last.Abstained
		r.Judges = append(r.Judges, d)
	}
	copy(p.reported, p.stats)
	if ps := p.agree.since(&p.reportedAgree); ps != nil {
		r.AddPanels(ps)
	}
	p.reportedAgree = p.agree
	if p.cacheErr != nil {
		r.AddCaveat("judge cache not written: " + p.cacheErr.Error())
	}
	for _, c := range p.caveats {
		r.AddCaveat(c)
	}
	if n := p.rejected - p.reportedRejected; n > 0 {
		r.AddCaveat(fmt.Sprintf("judge cache: %d %s ignored as not written by this cache (%s); the judges were asked again, or in replay mode the checks were not graded",
			n, map[bool]string{true: "entry", false: "entries"}[n == 1], p.rejectedWhy))
	}
	p.reportedRejected = p.rejected
}

// eligible returns the indices of the judges that may grade a model of
// family subject, in pool order, and the names of those skipped for sharing
// it.
func (p *JudgePool) eligible(subject string, allowSame bool) (ok []int, skipped []JudgeModel) {
	sf := familyFold(subject)
	for i, j := range p.judges {
		if !allowSame && sf != "" && j.family() == sf {
			skipped = append(skipped, j)
			continue
		}
		ok = append(ok, i)
	}
	return ok, skipped
}

// panel picks up to n judges from order (after the primary) whose families
// differ from the primary's and from each other's.
func (p *JudgePool) panel(order []int, n int) []int {
	fams := map[string]bool{p.judges[order[0]].family(): true}
	var out []int
	for _, i := range order[1:] {
		if len(out) == n {
			break
		}
		f := p.judges[i].family()
		if fams[f] {
			continue
		}
		fams[f] = true
		out = append(out, i)
	}
	return out
}

// cacheKey is the sha256 of the judge's name, model and identity (its
// type, endpoint and parameters), the prompt version and the prompt.
func (p *JudgePool) cacheKey(i int, prompt string) string {
	j := p.judges[i]
	h := sha256.New()
	for _, s := range []string{j.Name, j.Model, j.Identity, PromptVersion, prompt} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ask returns judge i's reply to prompt: from the memory cache, from an
// identical call in flight, from the disk cache, or by calling the judge
// (with retries). cached reports that no call was made for this ask.
func (p *JudgePool) ask(ctx context.Context, jc *judgeConfig, i int, prompt string) (reply JudgeReply, cached bool, err error) {
	key := p.cacheKey(i, prompt)
	if r, ok := p.fromMemory(i, key); ok {
		return r, true, nil
	}
	for try := 0; ; try++ {
		leader := false
		v, err, _ := p.flight.Do(key, func() (any, error) {
			leader = true
			if r, ok := p.memory(key); ok {
				// An identical call ended between the look above and
				// this one: its reply is a cache hit, not a call.
				return r, errMemoryHit
			}
			if jc.cacheMode != JudgeCacheRecord {
				if r, ok := p.fromDisk(jc, i, key); ok {
					p.remember(key, r)
					return r, errDiskHit
				}
			}
			if jc.cacheMode == JudgeCacheReplay {
				return JudgeReply{}, fmt.Errorf("%w: judge %s, prompt %s", ErrJudgeCacheMiss, p.judges[i].Name, key[:16])
			}
			r, err := p.call(ctx, jc, i, prompt)
			if err == nil {
				p.remember(key, r)
				p.toDisk(jc, i, key, r)
			}
			return r, err
		})
		r, _ := v.(JudgeReply)
		if errors.Is(err, errDiskHit) || errors.Is(err, errMemoryHit) {
			p.count(i, func(s *JudgeStats) { s.CacheHits++ })
			return r, true, nil
		}
		if !leader {
			// Coalesced with a call in flight. When the leader's context
			// ended and ours did not, ask again ourselves.
			if err != nil && isContextErr(err) && ctx.Err() == nil && try == 0 {
				continue
			}
			if err == nil {
				p.count(i, func(s *JudgeStats) { s.CacheHits++ })
			}
			return r, err == nil, err
		}
		return r, false, err
	}
}

// errDiskHit and errMemoryHit tell a reply served from a cache apart from
// a call, to the flight's leader and its waiters alike: never returned.
var (
	errDiskHit   = errors.New("disk cache hit")
	errMemoryHit = errors.New("memory cache hit")
)

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

func (p *JudgePool) memory(key string) (JudgeReply, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.mem[key]
	return r, ok
}

func (p *JudgePool) fromMemory(i int, key string) (JudgeReply, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.mem[key]
	if ok {
		p.stats[i].CacheHits++
	}
	return r, ok
}

func (p *JudgePool) remember(key string, r JudgeReply) {
	p.mu.Lock()
	p.mem[key] = r
	p.mu.Unlock()
}

func (p *JudgePool) count(i int, f func(*JudgeStats)) {
	p.mu.Lock()
	f(&p.stats[i])
	p.mu.Unlock()
}

// call calls judge i, retrying transient errors with exponential backoff
// and full jitter, each call bounded by the judge's semaphore and the
// per-call timeout, and checked against the budget first.
func (p *JudgePool) call(ctx context.Context, jc *judgeConfig, i int, prompt string) (JudgeReply, error) {
	if err := p.Err(); err != nil {
		return JudgeReply{}, err
	}
	ctx, done := p.haltable(ctx)
	defer done()
	r, err := p.attempts(ctx, jc, i, prompt)
	if f := misconfigured(p.judges[i].Name, err); f != nil {
		p.halt(f)
		return JudgeReply{}, f
	}
	if err != nil && p.halted.Err() != nil {
		// Cut short because another call found the pool misconfigured.
		return JudgeReply{}, p.Err()
	}
	return r, err
}

// attempts makes the calls of [JudgePool.call]: the first and the retries.
func (p *JudgePool) attempts(ctx context.Context, jc *judgeConfig, i int, prompt string) (JudgeReply, error) {
	j := p.judges[i]
	n := jc.retry.attempts()
	var last error
	for a := range n {
		if a > 0 {
			wait := time.Duration(rand.Int64N(int64(jc.retry.backoff(a-1)) + 1))
			var te *TransientError
			if errors.As(last, &te) && te.RetryAfter > 0 {
				wait = min(te.RetryAfter, 30*time.Second)
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return JudgeReply{}, ctx.Err()
			case <-t.C:
			}
		}
		res, err := p.reserve(jc, i, prompt)
		if err != nil {
			return JudgeReply{}, err
		}
		if a > 0 {
			// Counted once the budget allowed it: a retry the budget
			// refused was never made.
			p.count(i, func(s *JudgeStats) { s.Retries++ })
		}
		started, err := p.lims[i].Acquire(ctx, jc.runConcurrency)
		if err != nil {
			p.unreserve(res)
			return JudgeReply{}, err
		}
		cctx, cancel := context.WithTimeout(ctx, jc.callTimeout())
		r, err := safeCall(cctx, j, prompt)
		cancel()
		p.lims[i].Release(started, err)
		if uerr := checkUsage(r); uerr != nil {
			r, err = JudgeReply{}, uerr
		}
		p.settle(i, res, r, err)
		if err == nil {
			return r, nil
		}
		if ctx.Err() != nil {
			return JudgeReply{}, ctx.Err()
		}
		last = err
		if !IsTransient(err) && !errors.Is(err, context.DeadlineExceeded) {
			return JudgeReply{}, err
		}
	}
	return JudgeReply{}, fmt.Errorf("after %d attempts: %w", n, last)
}

// safeCall calls the judge, turning a panic into an error.
func safeCall(ctx context.Context, j JudgeModel, prompt string) (r JudgeReply, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("judge %s panicked: %v", j.Name, v)
		}
	}()
	return j.call(ctx, prompt)
}
