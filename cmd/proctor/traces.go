package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/agent/otlp"
)

// traceJoin holds the samples read from an OTLP JSON trace file, by the
// case id each trace names (its key attribute, else its trace id), for
// proctor run --traces. It holds one sample per trace, not the spans.
type traceJoin struct {
	path    string
	key     string
	byCase  map[string][]proctor.Sample
	skipped int
	spans   int

	mu     sync.Mutex
	joined map[string]bool
}

// readTraces reads every trace of the OTLP JSON file at path.
func readTraces(path, key string) (*traceJoin, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := otlp.NewReader(f, otlp.Options{Key: key})
	j := &traceJoin{path: path, key: key, byCase: map[string][]proctor.Sample{}, joined: map[string]bool{}}
	for {
		t, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("--traces %s: %w", path, err)
		}
		id := t.Sample.ID
		j.byCase[id] = append(j.byCase[id], t.Sample)
	}
	j.skipped, j.spans = r.Skipped(), r.Spans()
	return j, nil
}

// lookup gives a case's traced samples ([suite.Options.Traced]).
func (j *traceJoin) lookup(id string) ([]proctor.Sample, bool) {
	s, ok := j.byCase[id]
	if ok {
		j.mu.Lock()
		j.joined[id] = true
		j.mu.Unlock()
	}
	return s, ok
}

// caveats are the report's notes on the join: spans skipped as not
// following the GenAI conventions, and traces that matched no case.
func (j *traceJoin) caveats() []string {
	var out []string
	if j.skipped > 0 {
		out = append(out, fmt.Sprintf("traces %s: %d of %d spans skipped: not following the GenAI semantic conventions, or arriving after their trace's root", j.path, j.skipped, j.spans))
	}
	j.mu.Lock()
	unmatched := len(j.byCase) - len(j.joined)
	j.mu.Unlock()
	if unmatched > 0 {
		out = append(out, fmt.Sprintf("traces %s: %d trace groups matched no case (by attribute %s, else trace id)", j.path, unmatched, j.key))
	}
	return out
}
