package proctor_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/proctorhq/proctor"
)

// Judges given to the Runner are enough: a check built without judges asks
// them. Panel judges are asked one at a time, so an escalation the first
// panel judge settles costs two calls; the report counts them and gives
// each judge's agreement with the final verdicts.
func ExampleWithJudges_runner() {
	pool := proctor.NewJudgePool(
		proctor.JudgeModel{Name: "first", Family: "acme", Call: scripted("pass", "low")},
		proctor.JudgeModel{Name: "second", Family: "globex", Call: scripted("pass", "high")},
		proctor.JudgeModel{Name: "third", Family: "initech", Call: scripted("fail", "high")},
	)
	judge, err := proctor.NewLLMJudge("The answer cites its source.", proctor.JudgeOptions{})
	if err != nil {
		panic(err)
	}
	r := proctor.NewRunner(pool, proctor.WithChecks(proctor.Check{Grader: judge}))
	rep, _ := r.Run(context.Background(), []proctor.Case{{ID: "c1", Sample: proctor.Sample{Output: "It is so [1]."}}})

	fmt.Println(rep.Cases[0].Verdict)
	for _, s := range rep.Judges {
		a, ok := s.Agreement()
		fmt.Println(s.Name, "calls:", s.Calls, "agreement:", a, ok)
	}
	fmt.Println("panels:", rep.Panels.Convened)
	// Output:
	// passed
	// first calls: 1 agreement: 1 true
	// second calls: 1 agreement: 1 true
	// third calls: 0 agreement: 0 false
	// panels: 1
}

// With JudgePolicy.PanelParallel the whole panel is asked at once, for latency.
func ExampleJudgePolicy_panelParallel() {
	pool := proctor.NewJudgePool(
		proctor.JudgeModel{Name: "first", Family: "acme", Call: scripted("pass", "low")},
		proctor.JudgeModel{Name: "second", Family: "globex", Call: scripted("pass", "high")},
		proctor.JudgeModel{Name: "third", Family: "initech", Call: scripted("fail", "high")},
	)
	g, err := proctor.NewLLMJudge("The answer cites its source.", proctor.JudgeOptions{}, pool, proctor.WithJudgePolicy(proctor.JudgePolicy{PanelParallel: true}))
	if err != nil {
		panic(err)
	}
	gr := g.Grade(context.Background(), &proctor.Sample{Output: "It is so [1]."})
	fmt.Println(gr.Status, gr.Evidence.(*proctor.JudgeEvidence).PanelTally)
	// Output:
	// passed &{2 1 0}
}

// In replay mode the judge cache answers from recorded replies only: a
// prompt never recorded is not graded and no judge is called, so a CI run
// on recorded judgements never reaches a model.
func ExampleJudgePolicy_replay() {
	dir, _ := os.MkdirTemp("", "judge-cache")
	defer os.RemoveAll(dir)
	pool := proctor.NewJudgePool(proctor.JudgeModel{Name: "j", Family: "acme", Call: scripted("pass", "high")})
	g, err := proctor.NewLLMJudge("The answer is polite.", proctor.JudgeOptions{}, pool,
		proctor.WithJudgePolicy(proctor.JudgePolicy{CacheDir: dir, CacheMode: proctor.JudgeCacheReplay}))
	if err != nil {
		panic(err)
	}
	gr := g.Grade(context.Background(), &proctor.Sample{Output: "Thanks!"})
	fmt.Println(gr.Status, errors.Is(gr.Err, proctor.ErrJudgeCacheMiss), pool.Stats()[0].Calls)
	// Output:
	// not_graded true 0
}

// Entries of the disk judge cache carry a MAC under the cache's key: a
// second run with the same key is served from the cache, and an entry
// edited by hand (here: the verdict turned from fail to pass) is ignored,
// the judge asked again and the report's caveats say so.
func ExampleWithJudgeCacheKey() {
	dir, _ := os.MkdirTemp("", "judge-cache")
	defer os.RemoveAll(dir)
	key := proctor.WithJudgeCacheKey([]byte("a team secret of 16+ bytes"))
	run := func() *proctor.Report {
		pool := proctor.NewJudgePool(proctor.JudgeModel{Name: "j", Family: "acme", Call: scripted("fail", "high")})
		judge, err := proctor.NewLLMJudge("The answer cites its source.", proctor.JudgeOptions{})
		if err != nil {
			panic(err)
		}
		r := proctor.NewRunner(pool, proctor.WithJudgePolicy(proctor.JudgePolicy{CacheDir: dir}), key, proctor.WithChecks(proctor.Check{Grader: judge}))
		rep, _ := r.Run(context.Background(), []proctor.Case{{ID: "c1", Sample: proctor.Sample{Output: "It is so."}}})
		return rep
	}
	first := run()
	second := run()
	entries, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	b, _ := os.ReadFile(entries[0])
	os.WriteFile(entries[0], bytes.Replace(b, []byte(`\"fail\"`), []byte(`\"pass\"`), 1), 0o644)
	third := run()
	fmt.Println(first.Cases[0].Verdict, first.Judges[0].Calls)
	fmt.Println(second.Cases[0].Verdict, second.Judges[0].Calls, second.Judges[0].CacheHits)
	fmt.Println(third.Cases[0].Verdict, third.Judges[0].Calls, len(third.Caveats))
	// Output:
	// failed 1
	// failed 0 1
	// failed 1 1
}
