package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
	"github.com/proctorhq/proctor/suite"
)

// shardEnv is one way a batch engine tells a process which of N parallel
// workers it is: the variable holding its index, whether that index counts
// from 0 or 1, and the variable holding N.
type shardEnv struct {
	engine      string
	index       string
	zeroBased   bool
	count       string
	countIsOurs bool // the engine sets no count: the user sets this one
}

// shardEnvs are read by --shard auto, first match wins. PROCTOR_SHARD
// ("I/N", as --shard takes it) comes before them all.
var shardEnvs = []shardEnv{
	{engine: "Kubernetes Indexed Job", index: "JOB_COMPLETION_INDEX", zeroBased: true, count: "PROCTOR_SHARD_COUNT", countIsOurs: true},
	{engine: "GitLab CI parallel", index: "CI_NODE_INDEX", count: "CI_NODE_TOTAL"},
	{engine: "CircleCI parallelism", index: "CIRCLE_NODE_INDEX", zeroBased: true, count: "CIRCLE_NODE_TOTAL"},
	{engine: "Buildkite parallelism", index: "BUILDKITE_PARALLEL_JOB", zeroBased: true, count: "BUILDKITE_PARALLEL_JOB_COUNT"},
}

const shardAutoHelp = "set PROCTOR_SHARD=I/N, or run as a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) with PROCTOR_SHARD_COUNT=N (the Job's completions), or as a GitLab, CircleCI or Buildkite parallel job"

// parseShardFlag reads --shard: "I/N", "auto" (from the environment, read
// through getenv), or "" for the whole suite. from says where an automatic
// shard came from, for the run's log.
func parseShardFlag(v string, getenv func(string) string) (s suite.Shard, from string, err error) {
	switch v {
	case "":
		return suite.Shard{}, "", nil
	case "auto":
		return shardFromEnv(getenv)
	}
	s, err = suite.ParseShard(v)
	return s, "", err
}

// shardFromEnv finds the shard in the environment.
func shardFromEnv(getenv func(string) string) (suite.Shard, string, error) {
	if v := getenv("PROCTOR_SHARD"); v != "" {
		s, err := suite.ParseShard(v)
		if err != nil {
			return suite.Shard{}, "", fmt.Errorf("shard auto: PROCTOR_SHARD: %w", err)
		}
		return s, "PROCTOR_SHARD", nil
	}
	for _, e := range shardEnvs {
		iv, nv := getenv(e.index), getenv(e.count)
		switch {
		case iv == "" && nv == "":
			continue
		case iv == "":
			return suite.Shard{}, "", fmt.Errorf("shard auto: %s is set but %s is not (%s)", e.count, e.index, e.engine)
		case nv == "" && e.countIsOurs:
			return suite.Shard{}, "", fmt.Errorf("shard auto: %s is set (%s) but %s is not: set it to the number of shards, the Job's completions", e.index, e.engine, e.count)
		case nv == "":
			return suite.Shard{}, "", fmt.Errorf("shard auto: %s is set but %s is not (%s)", e.index, e.count, e.engine)
		}
		i, err1 := strconv.Atoi(strings.TrimSpace(iv))
		n, err2 := strconv.Atoi(strings.TrimSpace(nv))
		if err2 != nil || n < 1 {
			return suite.Shard{}, "", fmt.Errorf("shard auto: %s=%q: want a whole number >= 1", e.count, nv)
		}
		lo := 1
		if e.zeroBased {
			lo, i = 0, i+1
		}
		if err1 != nil || i < 1 || i > n {
			return suite.Shard{}, "", fmt.Errorf("shard auto: %s=%q: want a whole number from %d to %d (%s=%d)", e.index, iv, lo, n-1+lo, e.count, n)
		}
		return suite.Shard{I: i, N: n}, e.index + " and " + e.count, nil
	}
	return suite.Shard{}, "", fmt.Errorf("shard auto: no shard in the environment: %s", shardAutoHelp)
}

// shardJSON starts the JSON report of the run; a run given --shard
// records its shard, its cases' places in the suite and the suite's
// digest, which proctor report merge checks.
func shardJSON(w io.Writer, s *suite.Suite, sharded bool, shard suite.Shard) (*reportfmt.JSON, error) {
	if !sharded {
		return reportfmt.NewJSON(w, s.Name, reportfmt.JSONOptions{}), nil
	}
	digest, err := s.Digest()
	if err != nil {
		return nil, err
	}
	rs := &proctor.ReportShard{I: max(shard.I, 1), N: max(shard.N, 1), Positions: s.Positions()}
	return reportfmt.NewJSON(w, s.Name, reportfmt.JSONOptions{Shard: rs, SuiteDigest: digest}), nil
}
