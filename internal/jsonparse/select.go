package jsonparse

// Select checks that s is one JSON value, as [Parser.Check] does, and
// builds only the value that a singular path selects: steps are object
// member names (string) and array indexes (int; negative ones count from
// the end). found is false when the path selects nothing. Everything off
// the path is validated but not built, which makes a JSONPath lookup cost
// about what validation does. A repeated member name selects its last
// occurrence, as in Parse.
func (p *Parser) Select(s string, steps []any) (v any, found bool, err error) {
	p.s, p.i, p.depth, p.build = s, 0, 0, false
	p.ws()
	v, found, err = p.selectValue(steps)
	if err == nil {
		p.ws()
		if p.i < len(p.s) {
			err = p.errf("unexpected %s after the top-level value", p.what())
		}
	}
	p.reset()
	if err != nil {
		return nil, false, err
	}
	return v, found, nil
}

// selectValue reads the value at p.i, building it when steps is empty and
// descending along steps otherwise. p.build is false on entry and exit.
func (p *Parser) selectValue(steps []any) (any, bool, error) {
	if len(steps) == 0 {
		p.build = true
		v, err := p.value()
		p.build = false
		return v, err == nil, err
	}
	if p.i < len(p.s) {
		switch name, idx := steps[0], 0; {
		case p.s[p.i] == '{' && isName(name):
			return p.selectMember(name.(string), steps[1:])
		case p.s[p.i] == '[' && isIndex(name, &idx):
			return p.selectItem(idx, steps[1:])
		}
	}
	_, err := p.value() // the path leads nowhere here: validate only
	return nil, false, err
}

func isName(step any) bool { _, ok := step.(string); return ok }

func isIndex(step any, idx *int) bool {
	i, ok := step.(int)
	*idx = i
	return ok
}

func (p *Parser) selectMember(name string, rest []any) (v any, found bool, err error) {
	if p.depth++; p.depth > maxDepth {
		return nil, false, &SyntaxError{Offset: p.i, Msg: errDepth.Error()}
	}
	p.i++ // {
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		p.depth--
		return nil, false, nil
	}
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, false, p.errf("unexpected %s, want a string key", p.what())
		}
		k, err := p.str()
		if err != nil {
			return nil, false, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, false, p.errf("unexpected %s after an object key, want ':'", p.what())
		}
		p.i++
		p.ws()
		if k == name {
			// A later member of the same name replaces this one.
			if v, found, err = p.selectValue(rest); err != nil {
				return nil, false, err
			}
		} else if _, err := p.value(); err != nil {
			return nil, false, err
		}
		p.ws()
		if p.i >= len(p.s) {
			return nil, false, p.errf("unexpected end of input in an object")
		}
		if c := p.s[p.i]; c == ',' {
			p.i++
			p.ws()
			continue
		} else if c != '}' {
			return nil, false, p.errf("unexpected %s in an object, want ',' or '}'", p.what())
		}
		p.i++
		p.depth--
		return v, found, nil
	}
}

func (p *Parser) selectItem(idx int, rest []any) (v any, found bool, err error) {
	if p.depth++; p.depth > maxDepth {
		return nil, false, &SyntaxError{Offset: p.i, Msg: errDepth.Error()}
	}
	p.i++ // [
	p.ws()
	var starts []int // item offsets, kept for a negative index
	n := 0
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
	} else {
		for {
			if idx < 0 {
				starts = append(starts, p.i)
			}
			if n == idx {
				if v, found, err = p.selectValue(rest); err != nil {
					return nil, false, err
				}
			} else if _, err := p.value(); err != nil {
				return nil, false, err
			}
			n++
			p.ws()
			if p.i >= len(p.s) {
				return nil, false, p.errf("unexpected end of input in an array")
			}
			if c := p.s[p.i]; c == ',' {
				p.i++
				p.ws()
				continue
			} else if c != ']' {
				return nil, false, p.errf("unexpected %s in an array, want ',' or ']'", p.what())
			}
			p.i++
			break
		}
	}
	p.depth--
	if idx < 0 && n+idx >= 0 {
		// Go back to the item, already validated, and select from it.
		end, depth := p.i, p.depth
		p.i, p.depth = starts[n+idx], depth+1
		v, found, err = p.selectValue(rest)
		p.i, p.depth = end, depth
	}
	return v, found, err
}
