package suite

import (
	"cmp"
	"context"
	"iter"

	"github.com/proctorhq/proctor"
	"golang.org/x/sync/errgroup"
)

// Run grades cases as they come from the sequence, at most concurrency at
// a time (default 4), and calls emit with each result in the order of the
// cases, from one goroutine. At most about 2×concurrency cases and results
// are held at once, so a suite of any length is graded in constant memory.
//
// Run returns the number of results emitted. It stops at the first error
// from the sequence or from emit and returns it. When ctx is cancelled it
// stops starting cases, drops the results of cases cut short, and returns
// ctx.Err(). A judge found misconfigured ([proctor.Runner.Err]) ends the
// run the same way, and Run returns its error. Either way the results
// emitted so far are complete, as a partial
// [proctor.Report] from [proctor.Runner.Run] is. No goroutine is left
// running when Run returns.
func Run(ctx context.Context, r *proctor.Runner, cases iter.Seq2[proctor.Case, error], concurrency int, emit func(proctor.CaseResult) error) (int, error) {
	concurrency = cmp.Or(max(concurrency, 0), 4)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	type slot struct {
		done chan struct{}
		res  proctor.CaseResult
		ok   bool
	}
	window := make(chan *slot, concurrency)
	emitted := 0
	emitDone := make(chan error, 1)
	go func() {
		var err error
		for s := range window {
			<-s.done
			if err == nil && s.ok {
				if err = emit(s.res); err != nil {
					cancel(err)
				} else {
					emitted++
				}
			}
		}
		emitDone <- err
	}()
	var g errgroup.Group
	g.SetLimit(concurrency)
	var srcErr error
	for c, err := range cases {
		if err != nil {
			srcErr = err
			break
		}
		if ctx.Err() != nil || r.Err() != nil {
			break
		}
		s := &slot{done: make(chan struct{})}
		window <- s
		g.Go(func() error {
			defer close(s.done)
			res := r.RunCase(ctx, &c)
			if ctx.Err() == nil {
				s.res, s.ok = res, true
			}
			if err := r.Err(); err != nil {
				cancel(err) // a judge is misconfigured: the run ends here
			}
			return nil
		})
	}
	_ = g.Wait()
	close(window)
	emitErr := <-emitDone
	switch {
	case emitErr != nil:
		return emitted, emitErr
	case srcErr != nil:
		return emitted, srcErr
	}
	if err := r.Err(); err != nil {
		return emitted, err
	}
	return emitted, context.Cause(ctx)
}
