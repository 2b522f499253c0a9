package suite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/proctorhq/proctor"
)

var caseKeys = []string{"id", "description", "input", "expected", "references", "item", "context", "messages", "severity", "split", "tags", "attempts", "min_pass", "stop_early", "outputs", "checks"}

func (s *Suite) decodeCase(n *node, at string) (proctor.Case, error) {
	var c proctor.Case
	if err := s.checkKeys(n, at, caseKeys); err != nil {
		return c, err
	}
	idn := n.get("id")
	if idn == nil {
		return c, s.errAt(n, at+".id", "missing: every case needs an id")
	}
	id, err := s.str(idn, at+".id")
	if err != nil {
		return c, err
	}
	if strings.TrimSpace(id) == "" {
		return c, s.errAt(idn, at+".id", "must not be empty")
	}
	c.ID = id
	raw := at
	at = fmt.Sprintf("%s (id %q)", at, id)
	if d := n.get("description"); d != nil {
		if _, err := s.str(d, at+".description"); err != nil {
			return c, err
		}
	}
	if c.Sample, err = s.decodeSample(n, at); err != nil {
		return c, err
	}
	c.Sample.ID = id
	c.Sample.Model = s.model
	if err := s.decodeLabels(n, at, &c); err != nil {
		return c, err
	}
	c.Attempts = s.attempts
	if s.opts.Attempts > 0 {
		c.Attempts = s.opts.Attempts
	}
	if v := n.get("attempts"); v != nil {
		if c.Attempts, err = s.positive(v, at+".attempts"); err != nil {
			return c, err
		}
	}
	if v := n.get("outputs"); v != nil {
		if c.Outputs, err = s.decodeOutputs(v, at+".outputs"); err != nil {
			return c, err
		}
	}
	if err := s.applyGate(n, at, &c); err != nil {
		return c, err
	}
	if len(c.Outputs) == 0 && s.opts.Traced != nil {
		c.Outputs = JoinTraced(c.Sample, s.opts.Traced)
	}
	if len(c.Outputs) == 0 && s.Subject == nil && c.Sample.Messages == nil {
		return c, s.errAt(n, at, "has no recorded outputs and the suite has no subject: give outputs, or a subject to produce them")
	}
	var own []proctor.Check
	if v := n.get("checks"); v != nil {
		if own, err = s.specs(v, at+".checks"); err != nil {
			return c, err
		}
	}
	if reason := s.checkItem(n, raw); reason != "" {
		return notGradedCase(c, reason), nil
	}
	c.Checks = append(slices.Clip(s.Checks), own...)
	return c, nil
}

// decodeSample reads a case's input, expected, references, context, item
// and messages as a proctor grade input line does.
func (s *Suite) decodeSample(n *node, at string) (proctor.Sample, error) {
	var smp proctor.Sample
	var wire bytes.Buffer
	wire.WriteString(`{"output":""`)
	for _, k := range []string{"input", "expected", "references", "context", "item", "messages"} {
		v := n.get(k)
		if v == nil {
			continue
		}
		switch k {
		case "input":
			if _, err := s.str(v, at+".input"); err != nil {
				return smp, err
			}
		case "references", "context":
			if v.kind != kindSeq && !v.isNull() {
				return smp, s.errAt(v, at+"."+k, "want a list of strings or {id: ...} objects, got %s", v.what())
			}
		case "item":
			if v.kind != kindMap && !v.isNull() {
				return smp, s.errAt(v, at+".item", "want an object of variables, got %s", v.what())
			}
		}
		fmt.Fprintf(&wire, ",%q:", k)
		wire.Write(v.JSON())
	}
	wire.WriteString("}")
	if err := json.Unmarshal(wire.Bytes(), &smp); err != nil {
		return smp, &Error{File: s.Path, Line: n.line, Field: at, Msg: "cannot read the case's sample fields", Err: err}
	}
	return smp, nil
}

// decodeLabels reads the keys that label a case for reports: severity,
// split and tags.
func (s *Suite) decodeLabels(n *node, at string, c *proctor.Case) error {
	if v := n.get("severity"); v != nil {
		str, err := s.str(v, at+".severity")
		if err != nil {
			return err
		}
		var sev proctor.Severity
		if err := sev.UnmarshalText([]byte(str)); err != nil || sev == proctor.SeverityUnset {
			return s.errAt(v, at+".severity", "want low, medium, high or critical, got %q", str)
		}
		c.Severity = sev
	}
	var err error
	if v := n.get("split"); v != nil {
		if c.Split, err = s.str(v, at+".split"); err != nil {
			return err
		}
	}
	if v := n.get("tags"); v != nil {
		if c.Tags, err = s.decodeTags(v, at+".tags"); err != nil {
			return err
		}
	}
	return nil
}

var sampleKeys = []string{"output", "input", "expected", "references", "context", "item", "metrics", "tool_calls", "http_status", "model", "messages"}

var metricKeys = []string{"latency_ms", "input_tokens", "output_tokens", "total_tokens", "cost_usd"}

// decodeOutputs reads recorded outputs: strings, or sample objects as in
// proctor grade.
func (s *Suite) decodeOutputs(n *node, at string) ([]proctor.Sample, error) {
	if n.kind != kindSeq {
		return nil, s.errAt(n, at, "want a list of outputs (strings or sample objects), got %s", n.what())
	}
	out := make([]proctor.Sample, 0, len(n.items))
	for i, it := range n.items {
		iat := fmt.Sprintf("%s[%d]", at, i)
		switch {
		case it.kind == kindScalar && it.raw[0] == '"':
			var o string
			_ = json.Unmarshal(it.raw, &o)
			out = append(out, proctor.Sample{Output: o})
		case it.kind == kindMap:
			if err := s.checkKeys(it, iat, sampleKeys); err != nil {
				return nil, err
			}
			o := it.get("output")
			if o == nil && it.get("messages") == nil {
				return nil, s.errAt(it, iat+".output", "missing: a recorded sample needs its output (or its messages)")
			}
			if o != nil {
				if _, err := s.str(o, iat+".output"); err != nil {
					return nil, err
				}
			}
			if m := it.get("metrics"); m != nil {
				if err := s.checkKeys(m, iat+".metrics", metricKeys); err != nil {
					return nil, err
				}
				for j, k := range m.keys {
					if v := m.items[j]; v.what() != "a number" && !v.isNull() {
						return nil, s.errAt(v, iat+".metrics."+k, "want a number, got %s", v.what())
					}
				}
			}
			if m := it.get("model"); m != nil {
				if _, err := s.decodeModel(m, iat+".model"); err != nil {
					return nil, err
				}
			}
			if tc := it.get("tool_calls"); tc != nil {
				if tc.kind != kindSeq {
					return nil, s.errAt(tc, iat+".tool_calls", "want a list of {name, arguments}, got %s", tc.what())
				}
				for j, call := range tc.items {
					if err := s.checkKeys(call, fmt.Sprintf("%s.tool_calls[%d]", iat, j), []string{"name", "arguments", "result", "is_error"}); err != nil {
						return nil, err
					}
				}
			}
			var smp proctor.Sample
			dec := json.NewDecoder(bytes.NewReader(it.JSON()))
			if err := dec.Decode(&smp); err != nil {
				return nil, &Error{File: s.Path, Line: it.line, Field: iat, Msg: "not a sample object", Err: err}
			}
			out = append(out, smp)
		default:
			return nil, s.errAt(it, iat, "want a string or a sample object, got %s", it.what())
		}
	}
	return out, nil
}

func (s *Suite) decodeModel(n *node, at string) (proctor.Model, error) {
	var m proctor.Model
	if err := s.checkKeys(n, at, []string{"name", "family"}); err != nil {
		return m, err
	}
	var err error
	if v := n.get("name"); v != nil {
		if m.Name, err = s.str(v, at+".name"); err != nil {
			return m, err
		}
	}
	if v := n.get("family"); v != nil {
		if m.Family, err = s.str(v, at+".family"); err != nil {
			return m, err
		}
	}
	return m, nil
}
