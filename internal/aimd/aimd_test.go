package aimd

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// statusError is an endpoint's error with its HTTP status and Retry-After.
type statusError struct {
	status int
	after  time.Duration
}

func (e *statusError) Error() string { return "endpoint error" }

// overloaded reads 429 and 503, or any Retry-After, as overload.
func overloaded(err error) (bool, time.Duration) {
	var se *statusError
	if !errors.As(err, &se) {
		return false, 0
	}
	return se.status == 429 || se.status == 503 || se.after > 0, se.after
}

// The in-flight limit halves on an overloaded reply (once per round of
// calls), waits out Retry-After, and grows back as calls succeed.
func TestLimiterAIMD(t *testing.T) {
	ctx := context.Background()
	l := &Limiter{Overloaded: overloaded}
	var starts []time.Time
	for range 8 {
		s, err := l.Acquire(ctx, 8)
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, s)
	}
	if got := l.Limit(); got != 8 {
		t.Fatalf("limit %v, want the run's 8", got)
	}
	for _, s := range starts {
		l.Release(s, &statusError{status: 429}) // all in flight when the endpoint pushed back: one cut
	}
	if got := l.Limit(); got != 4 {
		t.Fatalf("after a round of 429s the limit is %v, want 4", got)
	}
	s, _ := l.Acquire(ctx, 8)
	l.Release(s, &statusError{status: 503})
	if got := l.Limit(); got != 2 {
		t.Fatalf("after a later 503 the limit is %v, want 2", got)
	}
	// Errors that are not overload do not cut.
	s, _ = l.Acquire(ctx, 8)
	l.Release(s, &statusError{status: 502})
	if got := l.Limit(); got != 2 {
		t.Fatalf("after a 502 the limit is %v, want 2 unchanged", got)
	}
	for range 200 {
		s, _ := l.Acquire(ctx, 8)
		l.Release(s, nil)
	}
	if got := l.Limit(); got != 8 {
		t.Errorf("after 200 successes the limit is %v, want back at 8", got)
	}
	// Retry-After holds the next call back.
	s, _ = l.Acquire(ctx, 8)
	l.Release(s, &statusError{status: 502, after: 50 * time.Millisecond})
	t0 := time.Now()
	s, _ = l.Acquire(ctx, 8)
	l.Release(s, nil)
	if d := time.Since(t0); d < 40*time.Millisecond {
		t.Errorf("acquire after Retry-After 50ms returned in %v", d)
	}
	// A cancelled context ends the wait.
	l2 := &Limiter{Fixed: 1}
	s, _ = l2.Acquire(ctx, 8)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := l2.Acquire(cctx, 8); !errors.Is(err, context.Canceled) {
		t.Errorf("acquire on a full limiter with a cancelled context: %v", err)
	}
	l2.Release(s, nil)
}

// The ceiling is Fixed when set, else the run's concurrency, else
// DefaultCeiling; a limit cut below a ceiling that then rises stays cut.
func TestLimiterCeiling(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		fixed, run int
		want       float64
	}{{0, 0, DefaultCeiling}, {0, 12, 12}, {3, 12, 3}, {0, -1, DefaultCeiling}} {
		l := &Limiter{Fixed: tt.fixed}
		s, err := l.Acquire(ctx, tt.run)
		if err != nil {
			t.Fatal(err)
		}
		l.Release(s, nil)
		if got := l.Limit(); got != tt.want {
			t.Errorf("Fixed %d, run %d: limit %v, want %v", tt.fixed, tt.run, got, tt.want)
		}
	}
	l := &Limiter{Overloaded: overloaded}
	s, _ := l.Acquire(ctx, 8)
	l.Release(s, &statusError{status: 429})
	s, _ = l.Acquire(ctx, 16)
	l.Release(s, &statusError{status: 500})
	if got := l.Limit(); got != 4 {
		t.Errorf("a cut limit under a raised ceiling is %v, want it kept at 4", got)
	}
	// A nil Overloaded counts nothing as overload.
	var z Limiter
	s, _ = z.Acquire(ctx, 2)
	z.Release(s, &statusError{status: 429})
	if got := z.Limit(); got != 2 {
		t.Errorf("without Overloaded a 429 cut the limit to %v", got)
	}
}

// No more calls than the limit are ever in flight, and a call waiting for
// a slot starts as soon as one frees.
func TestLimiterBoundsInFlight(t *testing.T) {
	ctx := context.Background()
	l := &Limiter{Fixed: 3}
	var now, most atomic.Int64
	var wg sync.WaitGroup
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := l.Acquire(ctx, 0)
			if err != nil {
				t.Error(err)
				return
			}
			n := now.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(time.Millisecond)
			now.Add(-1)
			l.Release(s, nil)
		}()
	}
	wg.Wait()
	if m := most.Load(); m != 3 {
		t.Errorf("at most %d calls in flight, want 3", m)
	}
}
