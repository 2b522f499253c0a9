// Package aimd bounds the calls in flight to one endpoint with an
// additive-increase, multiplicative-decrease limit, so that an endpoint
// that pushes back (429, 503, a Retry-After) is not hammered and the
// limit grows back once it answers again.
package aimd

import (
	"context"
	"sync"
	"time"
)

// DefaultCeiling is a limiter's ceiling when neither its Fixed ceiling nor
// the asking run's concurrency gives one.
const DefaultCeiling = 4

// maxHold bounds how long one Retry-After holds new calls back.
const maxHold = 30 * time.Second

// Limiter bounds the calls in flight to one endpoint. Its limit starts at
// its ceiling (Fixed, or the asking run's concurrency) and follows AIMD: an
// overloaded reply halves it, at most once per round of calls, and holds
// new calls back until the Retry-After is over; each successful call adds
// 1/limit, so the limit grows back by one per round of successful calls.
// The zero value is ready to use (no fixed ceiling, no error overloaded);
// a Limiter must not be copied after first use.
type Limiter struct {
	// Fixed is the ceiling; 0 follows the asking run's concurrency.
	Fixed int
	// Overloaded reports whether a call's error says the endpoint is
	// overloaded, and the wait it asked for (0 when none). Nil counts no
	// error as overload.
	Overloaded func(err error) (bool, time.Duration)

	mu       sync.Mutex
	limit    float64 // current limit; 0 until first used
	ceiling  int
	inflight int
	until    time.Time // no call starts before
	lastCut  time.Time
	wake     chan struct{} // closed and replaced when a slot may have freed
}

// Acquire waits for a slot and returns when the call started, or the
// context's error when it ends first. run is the asking run's concurrency
// (0 outside a run). Every nil-error Acquire is paired with one Release.
func (l *Limiter) Acquire(ctx context.Context, run int) (time.Time, error) {
	for {
		l.mu.Lock()
		ceil := l.Fixed
		if ceil == 0 {
			ceil = run
		}
		if ceil <= 0 {
			ceil = DefaultCeiling
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

// Release ends a call that started at started (Acquire's time) and
// adjusts the limit to how it went: err nil grows it, an overloaded err
// cuts it, any other error leaves it.
func (l *Limiter) Release(started time.Time, err error) {
	over, after := false, time.Duration(0)
	if err != nil && l.Overloaded != nil {
		over, after = l.Overloaded(err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inflight--
	if over {
		now := time.Now()
		if !started.Before(l.lastCut) {
			// Only calls started since the last cut may cut again: the
			// calls in flight when the endpoint pushed back all fail
			// together, and count as one signal.
			l.limit = max(l.limit/2, 1)
			l.lastCut = now
		}
		if after > 0 {
			if u := now.Add(min(after, maxHold)); u.After(l.until) {
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

// Limit returns the current limit on calls in flight (0 before the first
// Acquire).
func (l *Limiter) Limit() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.limit
}
