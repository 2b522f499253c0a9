package proctor

import (
	"context"
	"sync"
	"time"
)

// limiter bounds the calls in flight to one judge. Its limit starts at its
// ceiling (the judge's Concurrency, or the asking run's concurrency) and
// follows AIMD: an overloaded reply (429, 503, a Retry-After) halves it,
// at most once per round of calls, and holds new calls back until the
// Retry-After is over; each successful call adds 1/limit, so the limit
// grows back by one per round of successful calls.
type limiter struct {
	fixed int // JudgeModel.Concurrency; 0 follows the run

	mu       sync.Mutex
	limit    float64 // current limit; 0 until first used
	ceiling  int
	inflight int
	until    time.Time // no call starts before
	lastCut  time.Time
	wake     chan struct{} // closed and replaced when a slot may have freed
}

// defaultJudgeConcurrency is a judge's ceiling outside a Runner.
const defaultJudgeConcurrency = 4

// acquire waits for a slot and returns when the call started. run is the
// asking run's concurrency (0 outside a Runner).
func (l *limiter) acquire(ctx context.Context, run int) (time.Time, error) {
	for {
		l.mu.Lock()
		ceil := l.fixed
		if ceil == 0 {
			ceil = run
		}
		if ceil <= 0 {
			ceil = defaultJudgeConcurrency
		}
		if ceil != l.ceiling {
			if l.limit == 0 || l.limit > float64(ceil) || l.limit >= float64(l.ceiling) {
				l.limit = float64(ceil)
			}
			l.ceiling = ceil
		}
		now := time.Now()
		if wait := l.until.Sub(now); wait > 0 {
			l.mu.Unlock()
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return time.Time{}, ctx.Err()
			case <-t.C:
			}
			continue
		}
		if l.inflight < max(int(l.limit), 1) {
			l.inflight++
			l.mu.Unlock()
			return now, nil
		}
		if l.wake == nil {
			l.wake = make(chan struct{})
		}
		wake := l.wake
		l.mu.Unlock()
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-wake:
		}
	}
}

// release ends a call that started at started and adjusts the limit to
// how it went.
func (l *limiter) release(started time.Time, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inflight--
	if over, after := overloaded(err); over {
		now := time.Now()
		if !started.Before(l.lastCut) {
			// Only calls started since the last cut may cut again: the
			// calls in flight when the endpoint pushed back all fail
			// together, and count as one signal.
			l.limit = max(l.limit/2, 1)
			l.lastCut = now
		}
		if after > 0 {
			if u := now.Add(min(after, 30*time.Second)); u.After(l.until) {
				l.until = u
			}
		}
	} else if err == nil && l.limit < float64(l.ceiling) {
		l.limit = min(l.limit+1/l.limit, float64(l.ceiling))
	}
	if l.wake != nil {
		close(l.wake)
		l.wake = nil
	}
}

// current returns the limit, for tests.
func (l *limiter) current() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.limit
}
