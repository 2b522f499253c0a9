package suite

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/proctorhq/proctor/calibrate"

	"github.com/proctorhq/proctor"
)

// gateKeys are the suite keys that shape how attempts gate a case and how
// reports group cases: min_pass, stop_early, cluster, group_by.
type gateKeys struct {
	minPass   int
	stopEarly bool
	cluster   string // a case key or an item field naming each case's cluster
	groupBy   string // a case key, tags or an item field reports group cases by
}

// caseFields are the case keys cluster and group_by may name (group_by
// also tags); anything else is an item field (item.NAME or NAME).
var caseFields = []string{"id", "split", "severity", "input"}

// decodeGate reads the gate keys of n into g: of the suite when at is
// "", else of one case (min_pass and stop_early only).
func (s *Suite) decodeGate(n *node, at string, g *gateKeys) error {
	if v := n.get("min_pass"); v != nil {
		k, err := s.positive(v, join(at, "min_pass"))
		if err != nil {
			return err
		}
		g.minPass = k
	}
	if v := n.get("stop_early"); v != nil {
		b, err := s.boolean(v, join(at, "stop_early"))
		if err != nil {
			return err
		}
		g.stopEarly = b
	}
	if at != "" {
		return nil
	}
	for i, kd := range []struct {
		key string
		dst *string
	}{{"cluster", &g.cluster}, {"group_by", &g.groupBy}} {
		key, dst := kd.key, kd.dst
		if v := n.get(key); v != nil {
			f, err := s.str(v, key)
			if err != nil {
				return err
			}
			if strings.TrimSpace(f) == "" || f == "item." {
				return s.errAt(v, key, "want a case key (%s) or an item field (item.NAME)", strings.Join(fieldKeys(key), ", "))
			}
			if key == "cluster" && f == tagsField {
				return s.errAt(v, key, "tags cannot name a cluster: a case may have several (group_by: tags counts a case under each)")
			}
			*dst = f
			s.fields[i].watch(key, f, v.line)
		}
	}
	s.GroupBy = g.groupBy
	return nil
}

func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

func (s *Suite) boolean(n *node, at string) (bool, error) {
	var b bool
	if n.what() != "a boolean" || json.Unmarshal(n.raw, &b) != nil {
		return false, s.errAt(n, at, "want true or false, got %s", strings.TrimSpace(string(n.JSON())))
	}
	return b, nil
}

// applyGate sets c's min_pass, stop_early and cluster from the suite's
// keys and the case's own node n (its min_pass and stop_early win).
// min_pass above the case's attempts is an error: the gate could never
// pass.
func (s *Suite) applyGate(n *node, at string, c *proctor.Case) error {
	g := s.gate
	if err := s.decodeGate(n, at, &g); err != nil {
		return err
	}
	c.MinPass, c.StopEarly = g.minPass, g.stopEarly
	if attempts := max(c.Attempts, len(c.Outputs), 1); c.MinPass > attempts {
		return s.errAt(n, join(at, "min_pass"), "min_pass %d is more than the case's %d attempts: the gate could never pass", c.MinPass, attempts)
	}
	if g.cluster != "" {
		c.Cluster = fieldOf(c, g.cluster)
	}
	if g.groupBy != "" && g.groupBy != tagsField {
		c.Group = fieldOf(c, g.groupBy)
	}
	return nil
}

// fieldOf is the value of field for c: a case key, or an item field
// (item.NAME, or NAME when it is not a case key) as compact text; "" when
// the case has no such field (a cluster of its own, a group of none).
func fieldOf(c *proctor.Case, field string) string {
	switch field {
	case "id":
		return c.ID
	case "split":
		return c.Split
	case "severity":
		if c.Severity == proctor.SeverityUnset {
			return ""
		}
		return c.Severity.String()
	case "input":
		return c.Sample.Input
	}
	v, ok := c.Sample.Item[strings.TrimPrefix(field, "item.")]
	if !ok || v == nil {
		return ""
	}
	if str, ok := v.(string); ok {
		return str
	}
	b, _ := json.Marshal(v)
	return fmt.Sprintf("%s", b)
}

// decodeCalibration reads the calibration key: a file, or a list of
// files, in the suite's folder, each written by proctor calibrate --json.
func (s *Suite) decodeCalibration(n *node) error {
	var names []string
	if n.kind == kindSeq {
		list, err := s.strings(n, "calibration")
		if err != nil {
			return err
		}
		names = list
	} else {
		name, err := s.str(n, "calibration")
		if err != nil {
			return err
		}
		names = []string{name}
	}
	for i, name := range names {
		at := fmt.Sprintf("calibration[%d]", i)
		if !filepath.IsLocal(name) {
			return s.errAt(n, at, "%q: want a file inside the suite's folder", name)
		}
		data, err := s.root.ReadFile(name)
		if err != nil {
			return &Error{File: s.Path, Line: n.line, Field: at, Msg: "cannot read the calibration file", Err: err}
		}
		c, err := calibrate.Parse(data)
		if err != nil {
			return &Error{File: s.Path, Line: n.line, Field: at, Msg: name, Err: err}
		}
		s.Calibrations = append(s.Calibrations, c)
	}
	return nil
}

var bootstrapKeys = []string{"reps", "seed"}

// decodeBootstrap reads cluster_bootstrap: {reps: 2000, seed: 1}.
func (s *Suite) decodeBootstrap(n *node) error {
	if err := s.checkKeys(n, "cluster_bootstrap", bootstrapKeys); err != nil {
		return err
	}
	b := &BootstrapOptions{Reps: 2000, Seed: 1}
	if v := n.get("reps"); v != nil {
		var r int
		if v.what() != "a number" || json.Unmarshal(v.raw, &r) != nil || r < 100 || r > 100000 {
			return s.errAt(v, "cluster_bootstrap.reps", "want an integer from 100 to 100000, got %s", strings.TrimSpace(string(v.JSON())))
		}
		b.Reps = r
	}
	if v := n.get("seed"); v != nil {
		if v.what() != "a number" || json.Unmarshal(v.raw, &b.Seed) != nil {
			return s.errAt(v, "cluster_bootstrap.seed", "want a non-negative integer, got %s", strings.TrimSpace(string(v.JSON())))
		}
	}
	s.Bootstrap = b
	return nil
}

// BootstrapOptions is a suite's cluster_bootstrap: how many resamples of
// whole clusters, and the seed that makes them repeatable.
type BootstrapOptions struct {
	Reps int
	Seed uint64
}
