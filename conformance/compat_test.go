package conformance_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/similarity"
)

// conformanceFile is the shape of testdata/compat/*.json, as
// JSON-Schema-Test-Suite shapes its files.
type conformanceFile []struct {
	Description string          `json:"description"`
	Spec        json.RawMessage `json:"spec"`
	Cases       []struct {
		Description string          `json:"description"`
		Sample      json.RawMessage `json:"sample"`
		Want        struct {
			Status proctor.Status `json:"status"`
			Score  *float64       `json:"score"`
		} `json:"want"`
	} `json:"cases"`
}

// runConformance grades every case of file through the spec loader.
func runConformance(t *testing.T, file string, comp *proctor.Compiler) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var groups conformanceFile
	if err := json.Unmarshal(b, &groups); err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		t.Run(g.Description, func(t *testing.T) {
			ch, err := comp.Compile(g.Spec)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			for _, c := range g.Cases {
				t.Run(c.Description, func(t *testing.T) {
					var s proctor.Sample
					if err := json.Unmarshal(c.Sample, &s); err != nil {
						t.Fatal(err)
					}
					got := ch.Grade(context.Background(), &s)
					if got.Status != c.Want.Status {
						t.Errorf("status = %v (%s), want %v", got.Status, got.Reason, c.Want.Status)
					}
					if c.Want.Score != nil && (!got.HasScore || math.Abs(got.Score-*c.Want.Score) > 1e-9) {
						t.Errorf("score = %v (has %v), want %v", got.Score, got.HasScore, *c.Want.Score)
					}
				})
			}
		})
	}
}

func TestContextF1Conformance(t *testing.T) {
	runConformance(t, "testdata/compat/context_f1.json", proctor.NewCompiler(similarity.Types()))
}
