package suite

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// promptfooKeys are the keys of a suite's cases_promptfoo.
var promptfooKeys = []string{"file", "input", "output"}

// promptfooAssert maps a promptfoo assertion type to the proctor spec it
// is: the proctor type, the option its value goes to ("" for none) and
// fixed options.
type promptfooAssert struct {
	typ, valueKey string
	fixed         map[string]any
}

// promptfooAsserts are the promptfoo assertion types with a proctor
// equivalent (docs/suite.md lists them); any other is a load error.
var promptfooAsserts = map[string]promptfooAssert{
	"equals":         {"exact_match", "expected", map[string]any{"case_sensitive": true}},
	"contains":       {"contains", "value", nil},
	"icontains":      {"contains", "value", map[string]any{"case_sensitive": false}},
	"not-contains":   {"not_contains", "value", nil},
	"not-icontains":  {"not_contains", "value", map[string]any{"case_sensitive": false}},
	"contains-any":   {"contains", "values", map[string]any{"mode": "any"}},
	"contains-all":   {"contains", "values", nil},
	"starts-with":    {"starts_with", "value", nil},
	"regex":          {"regex", "pattern", map[string]any{"match": "search"}},
	"not-regex":      {"not_regex", "pattern", map[string]any{"match": "search"}},
	"is-json":        {"json_valid", "", map[string]any{"strict": true}},
	"contains-json":  {"json_valid", "", nil},
	"is-xml":         {"xml_valid", "", nil},
	"levenshtein":    {"levenshtein", "expected", nil},
	"latency":        {"latency_threshold", "", nil},
	"is-refusal":     {"refused", "", nil},
	"not-is-refusal": {"not_refused", "", nil},
}

// promptfooCases reads the tests of a promptfoo test file (a list of
// tests, or a config holding one under tests) named by the suite's
// cases_promptfoo key and returns them as the list node a cases key would
// hold: vars become the case's item, the input and output vars named by
// the mapping its input and recorded output, each assertion a check.
func (s *Suite) promptfooCases(ctx context.Context, n *node) (*node, error) {
	if n.kind != kindMap {
		return nil, s.errAt(n, "cases_promptfoo", "want a map (file, input, output), got %s", n.what())
	}
	if err := s.checkKeys(n, "cases_promptfoo", promptfooKeys); err != nil {
		return nil, err
	}
	opt := map[string]string{}
	for _, k := range promptfooKeys {
		if v := n.get(k); v != nil {
			str, err := s.str(v, "cases_promptfoo."+k)
			if err != nil {
				return nil, err
			}
			opt[k] = str
		}
	}
	if opt["file"] == "" {
		return nil, s.errAt(n, "cases_promptfoo.file", "missing: name the promptfoo test file, in the suite's folder")
	}
	s.dataFile = opt["file"] // in the suite digest
	data, err := s.root.ReadFile(opt["file"])
	if err != nil {
		return nil, s.errAt(n, "cases_promptfoo.file", "cannot read %s in the suite's folder: %v", opt["file"], err)
	}
	doc, err := parseYAML(ctx, data)
	if err != nil {
		var pe *parseError
		if errors.As(err, &pe) {
			return nil, &Error{File: opt["file"], Line: pe.line, Msg: pe.msg}
		}
		return nil, &Error{File: opt["file"], Msg: "loading stopped", Err: err}
	}
	tests := doc
	if doc.kind == kindMap {
		tests = doc.get("tests")
	}
	if tests == nil || tests.kind != kindSeq {
		return nil, &Error{File: opt["file"], Line: doc.line, Msg: "want a list of tests, or a promptfoo config with a tests list"}
	}
	list := &node{kind: kindSeq, line: n.line}
	for i, t := range tests.items {
		cn, err := promptfooCase(t, i, opt["input"], opt["output"])
		if err != nil {
			return nil, &Error{File: opt["file"], Line: t.line, Field: fmt.Sprintf("tests[%d]", i), Msg: err.Error()}
		}
		list.items = append(list.items, cn)
	}
	return list, nil
}

// promptfooCase builds the case node of test i.
func promptfooCase(t *node, i int, inputVar, outputVar string) (*node, error) {
	if t.kind != kindMap {
		return nil, fmt.Errorf("want a test (vars, assert), got %s", t.what())
	}
	obj := map[string]any{"id": "test-" + strconv.Itoa(i+1)}
	if d := t.get("description"); d != nil {
		obj["description"] = json.RawMessage(d.JSON())
	}
	vars := map[string]json.RawMessage{}
	if v := t.get("vars"); v != nil {
		if v.kind != kindMap {
			return nil, fmt.Errorf("vars: want a map of variables, got %s", v.what())
		}
		for k, key := range v.keys {
			vars[key] = v.items[k].JSON()
		}
		obj["item"] = vars
	}
	for key, name := range map[string]string{"input": inputVar, "output": outputVar} {
		if name == "" {
			continue
		}
		raw, ok := vars[name]
		var str string
		if !ok || json.Unmarshal(raw, &str) != nil {
			return nil, fmt.Errorf("vars.%s: want a string (the case's %s), got %s", name, key, cmp.Or(string(raw), "nothing"))
		}
		if key == "input" {
			obj["input"] = str
		} else {
			obj["outputs"] = []string{str}
		}
	}
	if a := t.get("assert"); a != nil {
		if a.kind != kindSeq {
			return nil, fmt.Errorf("assert: want a list of assertions, got %s", a.what())
		}
		var checks []map[string]any
		for k, an := range a.items {
			spec, err := promptfooSpec(an)
			if err != nil {
				return nil, fmt.Errorf("assert[%d]: %w", k, err)
			}
			checks = append(checks, spec)
		}
		obj["checks"] = checks
	}
	return caseNode(obj, t.line)
}

// promptfooSpec maps one promptfoo assertion to a proctor spec.
func promptfooSpec(an *node) (map[string]any, error) {
	if an.kind != kindMap {
		return nil, fmt.Errorf("want an assertion (type, value), got %s", an.what())
	}
	tn := an.get("type")
	var typ string
	if tn == nil || json.Unmarshal(tn.JSON(), &typ) != nil {
		return nil, errors.New("an assertion without a type (a $ref or an assert-set) has no proctor equivalent: write the check out")
	}
	m, ok := promptfooAsserts[typ]
	if !ok {
		return nil, fmt.Errorf("promptfoo assertion type %q has no proctor equivalent; write it as a proctor check (docs/spec.md)", typ)
	}
	spec := map[string]any{"type": m.typ}
	for k, v := range m.fixed {
		spec[k] = v
	}
	if v := an.get("value"); v != nil {
		if m.valueKey == "" {
			return nil, fmt.Errorf("promptfoo assertion %q with a value has no proctor equivalent", typ)
		}
		spec[m.valueKey] = json.RawMessage(v.JSON())
	} else if m.valueKey != "" {
		return nil, fmt.Errorf("promptfoo assertion %q: value: missing", typ)
	}
	if th := an.get("threshold"); th != nil {
		switch typ {
		case "levenshtein":
			spec["max_distance"] = json.RawMessage(th.JSON())
		case "latency":
			spec["max_ms"] = json.RawMessage(th.JSON())
		default:
			return nil, fmt.Errorf("promptfoo assertion %q: threshold has no proctor equivalent", typ)
		}
	}
	return spec, nil
}
