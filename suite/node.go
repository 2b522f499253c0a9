package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// kind is the shape of a node.
type kind uint8

const (
	kindScalar kind = iota
	kindMap
	kindSeq
)

// node is a parsed YAML or JSON value that remembers the line it starts
// on, so every loading error can say where it is. Scalars keep their JSON
// text.
type node struct {
	kind     kind
	line     int
	raw      json.RawMessage // scalars: JSON text
	keys     []string        // maps: keys in order
	keyLines []int           // maps: the line of each key
	items    []*node         // maps: values; sequences: items
}

// get returns the value of key in a map node, or nil.
func (n *node) get(key string) *node {
	for i, k := range n.keys {
		if k == key {
			return n.items[i]
		}
	}
	return nil
}

// what names the JSON type of n for messages.
func (n *node) what() string {
	switch n.kind {
	case kindMap:
		return "an object"
	case kindSeq:
		return "an array"
	}
	switch {
	case len(n.raw) == 0:
		return "nothing"
	case n.raw[0] == '"':
		return "a string"
	case n.raw[0] == 't' || n.raw[0] == 'f':
		return "a boolean"
	case n.raw[0] == 'n':
		return "null"
	}
	return "a number"
}

func (n *node) isNull() bool { return n.kind == kindScalar && string(n.raw) == "null" }

// json appends n's compact JSON text to b.
func (n *node) json(b []byte) []byte {
	switch n.kind {
	case kindMap:
		b = append(b, '{')
		for i, k := range n.keys {
			if i > 0 {
				b = append(b, ',')
			}
			kb, _ := json.Marshal(k)
			b = append(b, kb...)
			b = append(b, ':')
			b = n.items[i].json(b)
		}
		return append(b, '}')
	case kindSeq:
		b = append(b, '[')
		for i, it := range n.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.json(b)
		}
		return append(b, ']')
	}
	return append(b, n.raw...)
}

// JSON returns n as JSON text.
func (n *node) JSON() []byte { return n.json(nil) }

// parseError is a syntax error with its line.
type parseError struct {
	line int
	msg  string
}

func (e *parseError) Error() string { return e.msg }

// Expansion budget of a YAML suite: aliases are expanded in full, so a
// small file could expand into an exhausting one (a 100 KB string named a
// million times). Every value costs nodeCost bytes plus its JSON text,
// every mapping key its length plus nodeCost, and the whole may cost
// max(minExpand, expandPerByte × the file's size): a budget that grows
// with the file, so that an alias-free file of any size fits (the densest
// YAML, a flow mapping of keys without values "{a,b,...}", costs 129 bytes
// per two bytes of file; a scalar's text is never longer than the YAML
// that writes it), while aliases can amplify a file no further.
const (
	nodeCost      = 64
	minExpand     = 64 << 20
	expandPerByte = 80
)

// expandBudget returns the expansion budget of a YAML file of size bytes.
func expandBudget(size int) int64 {
	return max(minExpand, expandPerByte*int64(size))
}

// parseYAML parses one YAML document into a node tree, stopping when ctx
// ends.
func parseYAML(ctx context.Context, data []byte) (*node, error) {
	return parseYAMLBudget(ctx, data, expandBudget(len(data)))
}

func parseYAMLBudget(ctx context.Context, data []byte, budget int64) (*node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &parseError{line: 1, msg: "the file is empty"}
		}
		return nil, &parseError{line: yamlErrLine(err), msg: err.Error()}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, &parseError{line: extra.Line, msg: "more than one YAML document: a suite is one document"}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st := &expansion{ctx: ctx, left: budget, budget: budget}
	return st.fromYAML(&doc, 0)
}

// expansion is what is left of the budget while a YAML tree converts.
type expansion struct {
	ctx          context.Context
	left, budget int64
	nodes        int
}

// charge takes n bytes from the budget, and looks at ctx now and then.
func (e *expansion) charge(y *yaml.Node, n int) error {
	e.left -= int64(n)
	if e.left < 0 {
		return &parseError{line: y.Line, msg: fmt.Sprintf("the document expands to more than %d bytes (YAML aliases are expanded in full; the budget is %d times the file's size, at least %d)", e.budget, expandPerByte, minExpand)}
	}
	if e.nodes++; e.nodes%1024 == 0 {
		return e.ctx.Err()
	}
	return nil
}

// yamlErrLine digs the line out of a yaml.v3 error ("yaml: line 3: ...").
func yamlErrLine(err error) int {
	s := err.Error()
	if i := strings.Index(s, "line "); i >= 0 {
		j := i + 5
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if n, e := strconv.Atoi(s[i+5 : j]); e == nil {
			return n
		}
	}
	return 0
}

func (e *expansion) fromYAML(y *yaml.Node, depth int) (*node, error) {
	if err := e.charge(y, nodeCost); err != nil {
		return nil, err
	}
	if depth > 200 {
		return nil, &parseError{line: y.Line, msg: "the document nests too deeply"}
	}
	switch y.Kind {
	case yaml.DocumentNode:
		if len(y.Content) == 0 {
			return nil, &parseError{line: y.Line, msg: "the file is empty"}
		}
		return e.fromYAML(y.Content[0], depth+1)
	case yaml.AliasNode:
		return e.fromYAML(y.Alias, depth+1)
	case yaml.SequenceNode:
		n := &node{kind: kindSeq, line: y.Line}
		for _, c := range y.Content {
			it, err := e.fromYAML(c, depth+1)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, it)
		}
		return n, nil
	case yaml.MappingNode:
		return e.fromMapping(y, depth)
	case yaml.ScalarNode:
		if err := e.charge(y, len(y.Value)); err != nil {
			return nil, err
		}
		raw, err := yamlScalar(y)
		if err != nil {
			return nil, &parseError{line: y.Line, msg: err.Error()}
		}
		return &node{kind: kindScalar, line: y.Line, raw: raw}, nil
	}
	return nil, &parseError{line: y.Line, msg: "unsupported YAML node"}
}

// fromMapping converts a YAML mapping: its keys in order, each once, then
// what its merge keys (<<) bring.
func (e *expansion) fromMapping(y *yaml.Node, depth int) (*node, error) {
	n := &node{kind: kindMap, line: y.Line}
	var merges []*yaml.Node
	seen := make(map[string]bool, len(y.Content)/2) // keys set, in linear time
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if k.Kind != yaml.ScalarNode || (k.Tag != "!!str" && k.Tag != "!!int" && k.Tag != "!!bool" && k.Tag != "!!float") {
			return nil, &parseError{line: k.Line, msg: "a mapping key must be a plain string"}
		}
		if seen[k.Value] {
			return nil, &parseError{line: k.Line, msg: fmt.Sprintf("key %q appears twice", k.Value)}
		}
		seen[k.Value] = true
		if err := e.charge(k, nodeCost+len(k.Value)); err != nil {
			return nil, err
		}
		val, err := e.fromYAML(v, depth+1)
		if err != nil {
			return nil, err
		}
		n.keys = append(n.keys, k.Value)
		n.keyLines = append(n.keyLines, k.Line)
		n.items = append(n.items, val)
	}
	if err := e.merge(n, merges, seen, depth); err != nil {
		return nil, err
	}
	return n, nil
}

// merge adds to n the keys of the mappings merge keys (<<) name that n
// does not set itself.
func (e *expansion) merge(n *node, merges []*yaml.Node, seen map[string]bool, depth int) error {
	for _, m := range merges {
		srcs := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			srcs = m.Content
		}
		for _, src := range srcs {
			sn, err := e.fromYAML(src, depth+1)
			if err != nil {
				return err
			}
			if sn.kind != kindMap {
				return &parseError{line: src.Line, msg: "a merge key (<<) must name a mapping"}
			}
			for i, k := range sn.keys {
				if !seen[k] {
					seen[k] = true
					n.keys = append(n.keys, k)
					n.keyLines = append(n.keyLines, sn.keyLines[i])
					n.items = append(n.items, sn.items[i])
				}
			}
		}
	}
	return nil
}

// yamlScalar resolves a YAML scalar to JSON text by its tag.
func yamlScalar(y *yaml.Node) (json.RawMessage, error) {
	switch y.ShortTag() {
	case "!!null":
		return json.RawMessage("null"), nil
	case "!!bool":
		var b bool
		if err := y.Decode(&b); err != nil {
			return nil, err
		}
		return json.RawMessage(strconv.FormatBool(b)), nil
	case "!!int":
		var i int64
		if err := y.Decode(&i); err != nil {
			return nil, fmt.Errorf("integer %s out of range", y.Value)
		}
		return json.RawMessage(strconv.FormatInt(i, 10)), nil
	case "!!float":
		var f float64
		if err := y.Decode(&f); err != nil {
			return nil, err
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("%s is not a finite number", y.Value)
		}
		return json.RawMessage(strconv.FormatFloat(f, 'g', -1, 64)), nil
	case "!!str", "!!timestamp", "!!binary":
		b, err := json.Marshal(y.Value)
		return b, err
	}
	return nil, fmt.Errorf("unsupported YAML tag %s", y.Tag)
}

// lineIndex maps byte offsets to 1-based lines.
type lineIndex []int

func newLineIndex(data []byte) lineIndex {
	idx := lineIndex{0}
	for i, c := range data {
		if c == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (li lineIndex) line(off int64) int {
	return sort.Search(len(li), func(i int) bool { return int64(li[i]) > off })
}

// parseJSON parses one JSON value into a node tree. firstLine is the line
// data starts on in its file (a JSONL suite parses one line at a time).
func parseJSON(data []byte, firstLine int) (*node, error) {
	p := &jsonParser{data: data, dec: json.NewDecoder(bytes.NewReader(data)), idx: newLineIndex(data), base: firstLine - 1}
	p.dec.UseNumber()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &parseError{line: p.lineAt(p.start()), msg: "trailing data after the JSON value"}
	}
	return n, nil
}

type jsonParser struct {
	data []byte
	dec  *json.Decoder
	idx  lineIndex
	base int
}

// start returns the offset where the next token begins.
func (p *jsonParser) start() int64 {
	off := p.dec.InputOffset()
	for off < int64(len(p.data)) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

func (p *jsonParser) lineAt(off int64) int { return p.base + p.idx.line(off) }

func (p *jsonParser) fail(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &parseError{line: p.lineAt(max(se.Offset-1, 0)), msg: "JSON syntax: " + se.Error()}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &parseError{line: p.lineAt(int64(len(p.data))), msg: "JSON ends early"}
	}
	return &parseError{line: p.lineAt(p.dec.InputOffset()), msg: "JSON: " + err.Error()}
}

func (p *jsonParser) value(depth int) (*node, error) {
	if depth > 200 {
		return nil, &parseError{line: p.lineAt(p.start()), msg: "the document nests too deeply"}
	}
	line := p.lineAt(p.start())
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.fail(err)
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			n := &node{kind: kindSeq, line: line}
			for p.dec.More() {
				it, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, it)
			}
			if _, err := p.dec.Token(); err != nil {
				return nil, p.fail(err)
			}
			return n, nil
		}
		n := &node{kind: kindMap, line: line}
		for p.dec.More() {
			kl := p.lineAt(p.start())
			kt, err := p.dec.Token()
			if err != nil {
				return nil, p.fail(err)
			}
			k, _ := kt.(string)
			if n.get(k) != nil {
				return nil, &parseError{line: kl, msg: fmt.Sprintf("key %q appears twice", k)}
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k)
			n.keyLines = append(n.keyLines, kl)
			n.items = append(n.items, v)
		}
		if _, err := p.dec.Token(); err != nil {
			return nil, p.fail(err)
		}
		return n, nil
	case string:
		b, _ := json.Marshal(t)
		return &node{kind: kindScalar, line: line, raw: b}, nil
	case json.Number:
		return &node{kind: kindScalar, line: line, raw: json.RawMessage(t)}, nil
	case bool:
		return &node{kind: kindScalar, line: line, raw: json.RawMessage(strconv.FormatBool(t))}, nil
	case nil:
		return &node{kind: kindScalar, line: line, raw: json.RawMessage("null")}, nil
	}
	return nil, &parseError{line: line, msg: fmt.Sprintf("unexpected JSON token %v", tok)}
}
