package judgehttp

import (
	"context"
	"sync/atomic"
)

// Param is one optional request parameter a client may find refused, as a
// bit: a client numbers its own (1 << iota).
type Param uint32

// Learner remembers which optional parameters a judge's endpoint refuses,
// learned from the 400 of the first request that sent one. Until every
// parameter a request would send is settled (seen accepted or refused),
// requests go one at a time, so that under any concurrency one request
// at most gets a given 400 before the fallback sticks; after that they
// go concurrently. The zero Learner knows nothing; it is safe for
// concurrent use and must not be copied after first use.
type Learner struct {
	settled atomic.Uint32 // parameters seen accepted or refused
	refused atomic.Uint32 // parameters the endpoint refused
	probe   atomic.Pointer[chan struct{}]
}

// Refused returns the parameters learned to be refused.
func (l *Learner) Refused() Param { return Param(l.refused.Load()) }

// Do sends a request carrying the parameters in want, minus those already
// refused, through send, and returns the requests made. send gets the
// parameters to leave out (or replace). When send's error is a refusal of
// parameters, as refusal reads it, they are learned as refused and the
// request is sent again without them; refusal must return only parameters
// the caller may do without. Each parameter is learned once, so Do makes
// at most one request more than the parameters in want. A request while
// parameters are unsettled waits for the one before it, or for ctx.
func (l *Learner) Do(ctx context.Context, want Param, send func(omit Param) error, refusal func(error) Param) (requests int, err error) {
	held := false
	defer func() {
		if held {
			l.release()
		}
	}()
	for {
		if !held && want&^Param(l.settled.Load()) != 0 {
			if err := l.acquire(ctx); err != nil {
				return requests, err
			}
			held = true
		}
		omit := want & l.Refused()
		err := send(omit)
		requests++
		if err == nil {
			l.settled.Or(uint32(want))
			return requests, nil
		}
		p := refusal(err) & want &^ omit
		if p == 0 {
			return requests, err
		}
		l.refused.Or(uint32(p))
		l.settled.Or(uint32(p))
	}
}

// acquire takes the probe, a one-slot channel made on first use.
func (l *Learner) acquire(ctx context.Context) error {
	ch := l.probe.Load()
	if ch == nil {
		c := make(chan struct{}, 1)
		l.probe.CompareAndSwap(nil, &c)
		ch = l.probe.Load()
	}
	select {
	case *ch <- struct{}{}:
		// Both cases may be ready at once and select picks at random: a
		// call cancelled while it waited must not send its request.
		if err := ctx.Err(); err != nil {
			<-*ch
			return err
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *Learner) release() { <-*l.probe.Load() }
