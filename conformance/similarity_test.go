package conformance_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/similarity"
)

// TestSimilarityConformance runs testdata/similarity/conformance.json
// through the spec loader: each spec with its cases, each case's sample
// decoded as proctor grade reads input lines.
func TestSimilarityConformance(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "similarity", "conformance.json"))
	if err != nil {
		t.Fatal(err)
	}
	var suites []struct {
		Description string          `json:"description"`
		Spec        json.RawMessage `json:"spec"`
		Cases       []struct {
			Description string          `json:"description"`
			Sample      json.RawMessage `json:"sample"`
			Want        struct {
				Status proctor.Status `json:"status"`
				Score  *float64       `json:"score"`
				Tol    float64        `json:"tol"`
			} `json:"want"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &suites); err != nil {
		t.Fatal(err)
	}
	c := proctor.NewCompiler(similarity.Types())
	for _, su := range suites {
		ch, err := c.Compile(su.Spec)
		if err != nil {
			t.Errorf("%s: %v", su.Description, err)
			continue
		}
		for _, tc := range su.Cases {
			var s proctor.Sample
			if err := json.Unmarshal(tc.Sample, &s); err != nil {
				t.Fatalf("%s / %s: %v", su.Description, tc.Description, err)
			}
			g := ch.Grade(t.Context(), &s)
			if g.Status != tc.Want.Status {
				t.Errorf("%s / %s: got %v (%s), want %v", su.Description, tc.Description, g.Status, g.Reason, tc.Want.Status)
			}
			if w := tc.Want.Score; w != nil && math.Abs(g.Score-*w) > tc.Want.Tol {
				t.Errorf("%s / %s: got score %.12f, want %.12f", su.Description, tc.Description, g.Score, *w)
			}
		}
	}
}
