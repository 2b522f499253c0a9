package agent_test

import (
	"context"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/agent"
)

// specRow is one spec compiled and graded by runSpecRows: it either fails
// to compile (wantErr) or grades the sample with status want.
type specRow struct {
	spec    string
	want    proctor.Status
	wantErr bool
}

// runSpecRows compiles each row's spec with the agent family's types and
// grades s with it.
func runSpecRows(t *testing.T, s *proctor.Sample, rows []specRow) {
	t.Helper()
	c := proctor.NewCompiler(agent.Types())
	for _, tt := range rows {
		t.Run(tt.spec, func(t *testing.T) {
			ch, err := c.Compile([]byte(tt.spec))
			if tt.wantErr {
				if err == nil {
					t.Fatal("Compile = nil error, want a spec error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := ch.Grade(context.Background(), s); got.Status != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
