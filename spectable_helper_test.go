package proctor_test

import (
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/spectest"
)

// specRow is one spec compiled and graded by runSpecRows.
type specRow = spectest.Row

// runSpecRows compiles each row's spec and grades s with it.
func runSpecRows(t *testing.T, s *proctor.Sample, rows []specRow) {
	t.Helper()
	spectest.Rows(t, proctor.NewCompiler(), s, rows)
}
