package proctor

import (
	"errors"
	"strings"
	"sync"

	"github.com/proctorhq/proctor/internal/fence"
	"github.com/proctorhq/proctor/internal/jsonparse"
)

// ExtractJSON returns the JSON text in a model's output, for custom graders
// that read JSON. An output that, trimmed, is one valid JSON value is that
// value (even a JSON string whose text holds a brace). Otherwise the
// candidates are tried in order and the first that is valid JSON wins: the
// bracketed value the output starts with (prose after it dropped), the body
// of each ```json (or bare ```) fence, then each bracketed span in the
// prose. Fences and prose are read only after the bracketed value the
// output starts with, so that a value nested in a broken one, as in
// `[{"a": 1}`, is never taken. A broken block followed by a corrected one
// yields the corrected one. When nothing is valid, the result is the
// candidate to report the syntax error in: the leading bracketed value, else the first
// fence body, else the first bracketed span, else the trimmed output.
// Every JSON grader reads the output this way.
//
// The result is a substring of output and may still be invalid JSON.
func ExtractJSON(output string) string { return fence.JSON(output) }

// parsers pools JSON parsers for a grader; a parser's scratch space is
// reused between grades. With strict, the whole output (white space
// trimmed) is the only candidate: fences and prose are not looked into.
type parsers struct {
	pool   sync.Pool
	strict bool
}

func newParsers(native, strict bool) *parsers {
	ps := &parsers{strict: strict}
	ps.pool.New = func() any { return &jsonparse.Parser{Native: native} }
	return ps
}

// eachCandidate calls try with each text JSON is read from, in order,
// until try returns true: those of [fence.Candidates], or with strict the
// trimmed output alone (nothing when it is empty).
func (ps *parsers) eachCandidate(output string, try func(c string) (stop bool)) {
	if ps.strict {
		if t := strings.TrimSpace(output); t != "" {
			try(t)
		}
		return
	}
	for c := range fence.Candidates(output) {
		if try(c) {
			return
		}
	}
}

// parse extracts the JSON in output as [ExtractJSON] does (or takes the
// trimmed output, with strict) and decodes it: the first candidate that
// parses. The returned text is what was parsed (or, on a syntax error,
// the text the error is in).
func (ps *parsers) parse(output string) (v any, text string, err error) {
	p := ps.pool.Get().(*jsonparse.Parser)
	defer ps.pool.Put(p)
	found := false
	ps.eachCandidate(output, func(c string) bool {
		v, err = p.Parse(c)
		found, text = err == nil, c
		return found
	})
	if !found {
		return nil, "", ps.notParsed(p, output)
	}
	return v, text, nil
}

// A readResult is what a reading of one candidate's text made of it.
type readResult int8

const (
	readOn      readResult = iota // undecided: check and decode the candidate
	readDone                      // decided without decoding: stop at it
	readNotJSON                   // not JSON: skip it
)

// firstValue decodes the candidate [parsers.parse] would decode, or
// returns parse's error when none parses. read is tried on each candidate
// first: when it answers readDone the candidate is taken without being
// decoded (read must only say so of JSON) and done is true; readNotJSON
// skips the candidate unparsed (read must only say so of a text the
// parser refuses). Otherwise the candidate is checked before it is
// decoded: a text that breaks the syntax after the point where read
// stopped would waste the values decoded up to there.
func (ps *parsers) firstValue(output string, read func(string) readResult) (v any, text string, done bool, err error) {
	p := ps.pool.Get().(*jsonparse.Parser)
	defer ps.pool.Put(p)
	found := false
	ps.eachCandidate(output, func(c string) bool {
		switch read(c) {
		case readDone:
			found, text, done = true, c, true
			return true
		case readNotJSON:
			return false
		}
		if !p.Valid(c) {
			return false
		}
		var perr error
		if v, perr = p.Parse(c); perr == nil {
			found, text = true, c
		}
		return found
	})
	if !found {
		return nil, "", false, ps.notParsed(p, output)
	}
	return v, text, done, nil
}

// each decodes every candidate in output that parses, in order, and calls
// yield with it until yield returns false. It returns the error for an
// output in which nothing parses.
func (ps *parsers) each(output string, yield func(v any, text string) bool) error {
	p := ps.pool.Get().(*jsonparse.Parser)
	defer ps.pool.Put(p)
	parsed := false
	ps.eachCandidate(output, func(c string) bool {
		v, err := p.Parse(c)
		if err != nil {
			return false
		}
		parsed = true
		return !yield(v, c)
	})
	if !parsed {
		return ps.notParsed(p, output)
	}
	return nil
}

// notParsed is the error for an output in which no candidate parses: the
// syntax error in [fence.Fallback] (with strict, in the trimmed output),
// or errNoJSON.
func (ps *parsers) notParsed(p *jsonparse.Parser, output string) error {
	text := ""
	if ps.strict {
		text = strings.TrimSpace(output)
	} else {
		text = fence.Fallback(output)
	}
	if text == "" {
		return errNoJSON
	}
	if err := p.Check(text); err != nil {
		return err
	}
	return errNoJSON // unreachable: the text is a candidate that failed
}

// selectPath extracts the JSON in output as [ExtractJSON] does, validates
// all of it and builds only the value a singular JSONPath selects.
func (ps *parsers) selectPath(output string, steps []any) (v any, found bool, err error) {
	p := ps.pool.Get().(*jsonparse.Parser)
	defer ps.pool.Put(p)
	parsed := false
	ps.eachCandidate(output, func(c string) bool {
		var serr error
		v, found, serr = p.Select(c, steps)
		parsed = serr == nil
		return parsed
	})
	if !parsed {
		return nil, false, ps.notParsed(p, output)
	}
	return v, found, nil
}

var errNoJSON = errors.New("output holds no JSON")

// notJSON is the failed grade for an output that does not parse.
func notJSON(err error) Grade {
	if errors.Is(err, errNoJSON) {
		return Fail(err.Error())
	}
	return Failf("output is not valid JSON: %v", err)
}
