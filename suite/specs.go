package suite

import (
	"errors"
	"fmt"
	"io"

	"github.com/proctorhq/proctor"
)

// specs compiles a list of grader specs; errors carry the spec's line.
func (s *Suite) specs(n *node, at string) ([]proctor.Check, error) {
	if n.kind != kindSeq {
		return nil, s.errAt(n, at, "want a list of grader specs, got %s", n.what())
	}
	out := make([]proctor.Check, 0, len(n.items))
	for i, sp := range n.items {
		sat := fmt.Sprintf("%s[%d]", at, i)
		if sp.kind != kindMap {
			return nil, s.errAt(sp, sat, "want a grader spec object with a type, got %s", sp.what())
		}
		ch, err := s.compile(sp.JSON())
		if err != nil {
			return nil, &Error{File: s.Path, Line: specLine(sp, err), Field: sat, Err: err}
		}
		out = append(out, ch)
	}
	return out, nil
}

// maxCached bounds the compiled specs a Suite keeps for reuse.
const maxCached = 1024

// compile compiles a spec, reusing the check compiled for the same spec
// text: generated suites repeat the same checks on every case, and a built
// grader is immutable and safe to share. At most maxCached specs are kept.
func (s *Suite) compile(spec []byte) (proctor.Check, error) {
	s.mu.Lock()
	ch, ok := s.cache[string(spec)]
	s.mu.Unlock()
	if ok {
		return ch, nil
	}
	ch, err := s.comp.Compile(spec)
	if err != nil {
		return ch, err
	}
	s.mu.Lock()
	if _, ok := ch.Grader.(io.Closer); ok {
		s.closers = append(s.closers, ch)
	}
	if s.cache == nil || len(s.cache) >= maxCached {
		s.cache = make(map[string]proctor.Check)
	}
	s.cache[string(spec)] = ch
	s.mu.Unlock()
	return ch, nil
}

// specLine returns the line of the option a spec error names, or the
// spec's own line.
func specLine(sp *node, err error) int {
	var se *proctor.SpecError
	if errors.As(err, &se) && se.Option != "" {
		for i, k := range sp.keys {
			if k == se.Option {
				return sp.keyLines[i]
			}
		}
	}
	return sp.line
}
