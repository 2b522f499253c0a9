package suite

import (
	"context"
	"fmt"

	"github.com/proctorhq/proctor"
)

var suiteKeys = []string{"name", "description", "config", "attempts", "model", "graders", "subject", "data_source_config", "redact_splits", "min_pass", "stop_early", "cluster", "cluster_bootstrap", "group_by", "calibration", "cases", "cases_csv", "cases_promptfoo", "cases_inspect"}

// decodeSuite decodes a YAML or JSON suite: its keys, then its cases.
func (s *Suite) decodeSuite(ctx context.Context, doc *node) error {
	if err := s.checkKeys(doc, "", suiteKeys); err != nil {
		return err
	}
	if err := s.decodeSettings(doc); err != nil {
		return err
	}
	if err := s.decodeNamed(doc); err != nil {
		return err
	}
	return s.decodeCases(ctx, doc)
}

// decodeSettings reads the keys that set how the suite runs and reports:
// config (first, since it brings judges), the gate keys, calibration,
// cluster_bootstrap, redact_splits and data_source_config.
func (s *Suite) decodeSettings(doc *node) error {
	if n := doc.get("config"); n != nil {
		if err := s.decodeConfig(n); err != nil {
			return err
		}
	}
	if err := s.decodeGate(doc, "", &s.gate); err != nil {
		return err
	}
	if n := doc.get("calibration"); n != nil {
		if err := s.decodeCalibration(n); err != nil {
			return err
		}
	}
	if n := doc.get("cluster_bootstrap"); n != nil {
		if err := s.decodeBootstrap(n); err != nil {
			return err
		}
	}
	if n := doc.get("redact_splits"); n != nil {
		if n.kind != kindSeq {
			return s.errAt(n, "redact_splits", "want a list of split names, got %s", n.what())
		}
		for i, it := range n.items {
			name, err := s.str(it, fmt.Sprintf("redact_splits[%d]", i))
			if err != nil {
				return err
			}
			s.redact = append(s.redact, name)
		}
	}
	if n := doc.get("data_source_config"); n != nil {
		if err := s.decodeDataSource(n); err != nil {
			return err
		}
	}
	return nil
}

// decodeNamed reads the suite's name, description, attempts, model,
// graders and subject.
func (s *Suite) decodeNamed(doc *node) error {
	if n := doc.get("name"); n != nil {
		name, err := s.str(n, "name")
		if err != nil {
			return err
		}
		if name != "" {
			s.Name = name
		}
	}
	if n := doc.get("description"); n != nil {
		if _, err := s.str(n, "description"); err != nil {
			return err
		}
	}
	if n := doc.get("attempts"); n != nil {
		a, err := s.positive(n, "attempts")
		if err != nil {
			return err
		}
		s.attempts = a
	}
	if n := doc.get("model"); n != nil {
		m, err := s.decodeModel(n, "model")
		if err != nil {
			return err
		}
		s.model = m
	}
	if n := doc.get("graders"); n != nil {
		checks, err := s.specs(n, "graders")
		if err != nil {
			return err
		}
		s.Checks = checks
	}
	if n := doc.get("subject"); n != nil {
		if err := s.decodeSubject(n); err != nil {
			return err
		}
	}
	return nil
}

// decodeCases decodes the suite's cases, refusing duplicate ids, and
// keeps those the split and shard options select.
func (s *Suite) decodeCases(ctx context.Context, doc *node) error {
	cases, err := s.casesNode(ctx, doc)
	if err != nil {
		return err
	}
	if cases.kind != kindSeq {
		return s.errAt(cases, "cases", "want a list of cases, got %s", cases.what())
	}
	seen := make(map[string]int, len(cases.items))
	for i, cn := range cases.items {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return &Error{File: s.Path, Line: cn.line, Msg: "loading stopped", Err: err}
			}
		}
		c, err := s.decodeCase(cn, fmt.Sprintf("cases[%d]", i))
		if err != nil {
			return err
		}
		if prev, dup := seen[c.ID]; dup {
			return s.errAt(cn, fmt.Sprintf("cases[%d].id", i), "case id %q is also used on line %d: ids must be unique", c.ID, prev)
		}
		seen[c.ID] = cn.line
		s.Total++
		s.observe(&c)
		if s.selects(c) {
			s.cases = append(s.cases, c)
			s.positions = append(s.positions, s.Total-1)
		}
	}
	s.Count = len(s.cases)
	return s.checkFields()
}

// observe notes which of the fields cluster and group_by name c has.
func (s *Suite) observe(c *proctor.Case) {
	for i := range s.fields {
		s.fields[i].observe(c)
	}
}

// checkFields refuses a cluster or group_by field that no case has.
func (s *Suite) checkFields() error {
	for i := range s.fields {
		if err := s.fields[i].check(s); err != nil {
			return err
		}
	}
	return nil
}
