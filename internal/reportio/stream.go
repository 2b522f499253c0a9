package reportio

import (
	"encoding/json"
	"runtime"
	"sync"
)

// streamBatch is how many cases a worker of [Stream] decodes at a time.
const streamBatch = 256

type batch[T any] struct {
	raws []json.RawMessage
	out  []T
	err  error
	done chan struct{}
}

// Stream reads the rest of r's cases and calls emit with each, in order,
// from the caller's goroutine, decoding them with decode on up to
// GOMAXPROCS goroutines at once: the splitting of the cases (one
// goroutine, see [scanner]), their decoding and emit overlap, and at most a few batches
// are in memory. It stops at the first error, from reading, decode or
// emit, and returns it; every goroutine it starts has ended when it
// returns. After it, call [Reader.Finish] for the fields after the cases.
func Stream[T any](r *Reader, decode func(json.RawMessage) (T, error), emit func(T) error) error {
	workers := max(runtime.GOMAXPROCS(0), 1)
	order := make(chan *batch[T], 2*workers)
	work := make(chan *batch[T], 2*workers)
	stop := make(chan struct{})
	var readErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(order)
		defer close(work)
		for {
			b := &batch[T]{done: make(chan struct{})}
			b.raws, readErr = nextBatch(r)
			if len(b.raws) == 0 {
				return
			}
			select {
			case order <- b:
			case <-stop:
				return
			}
			work <- b // a worker takes every batch in order
			if readErr != nil || len(b.raws) < streamBatch {
				return
			}
		}
	})
	for range workers {
		wg.Go(func() {
			for b := range work {
				b.out = make([]T, 0, len(b.raws))
				for _, raw := range b.raws {
					v, err := decode(raw)
					if err != nil {
						b.err = err
						break
					}
					b.out = append(b.out, v)
				}
				close(b.done)
			}
		})
	}
	var err error
	for b := range order {
		<-b.done
		if err == nil {
			err = b.err
			for _, v := range b.out {
				if err != nil {
					break
				}
				err = emit(v)
			}
			if err != nil {
				close(stop)
			}
		}
	}
	wg.Wait()
	if err != nil {
		return err
	}
	return readErr
}

// nextBatch reads up to streamBatch cases of r, their JSON in one buffer.
func nextBatch(r *Reader) ([]json.RawMessage, error) {
	var data []byte
	var ends []int
	var err error
	for len(ends) < streamBatch {
		raw, ok, e := r.NextRaw()
		if err = e; err != nil || !ok {
			break
		}
		if data == nil {
			data = make([]byte, 0, len(raw)*streamBatch*5/4)
		}
		data = append(data, raw...)
		ends = append(ends, len(data))
	}
	raws := make([]json.RawMessage, len(ends))
	start := 0
	for i, end := range ends {
		raws[i] = data[start:end:end]
		start = end
	}
	return raws, err
}
