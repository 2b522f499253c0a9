package similarity_test

import (
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/spectest"
	"github.com/proctorhq/proctor/similarity"
)

// specRow is one spec compiled and graded by runSpecRows.
type specRow = spectest.Row

// runSpecRows compiles each row's spec with the similarity family's types
// and grades s with it.
func runSpecRows(t *testing.T, s *proctor.Sample, rows []specRow) {
	t.Helper()
	spectest.Rows(t, proctor.NewCompiler(similarity.Types()), s, rows)
}
