package proctor

import (
	"cmp"
	"context"

	"github.com/proctorhq/proctor/internal/jsonparse"
)

// JSONValidOptions configure [NewJSONValid]. The zero value extracts the
// JSON from fences and prose.
type JSONValidOptions struct {
	// Strict requires the whole output, white space trimmed, to be one
	// JSON value: no fences, no prose.
	Strict bool
	// Name is shown in results; default "json_valid".
	Name string
}

// JSONValid passes when the output holds one valid JSON value (RFC 8259)
// once Markdown fences and surrounding prose are removed ([ExtractJSON]),
// or, with [JSONValidOptions.Strict], when the whole trimmed output is one.
// Anything else fails with the position of the first syntax error. It is
// immutable and safe for concurrent use.
type JSONValid struct {
	name string
	ps   *parsers
}

var _ Grader = (*JSONValid)(nil)

// NewJSONValid returns a json_valid grader.
func NewJSONValid(opts JSONValidOptions) *JSONValid {
	return &JSONValid{name: cmp.Or(opts.Name, "json_valid"), ps: newParsers(false, opts.Strict)}
}

// Name returns the grader's name.
func (g *JSONValid) Name() string { return g.name }

// Grade checks that s.Output holds JSON.
func (g *JSONValid) Grade(_ context.Context, s *Sample) Grade {
	p := g.ps.pool.Get().(*jsonparse.Parser)
	defer g.ps.pool.Put(p)
	valid := false
	g.ps.eachCandidate(s.Output, func(c string) bool {
		valid = p.Valid(c)
		return valid
	})
	if !valid {
		return notJSON(g.ps.notParsed(p, s.Output))
	}
	return Pass("")
}
