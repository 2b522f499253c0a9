package openaievals

import (
	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
)

// replies returns a judge that always replies text.
func replies(name, family, text string) *proctest.Judge { return proctest.Replies(name, family, text) }

func judgePoolOf(js ...*proctest.Judge) *proctor.JudgePool { return proctest.Pool(js...) }

func judgeSample() *proctor.Sample {
	return &proctor.Sample{ID: "s1", Input: "What is the capital of France?", Output: "Paris.", Model: proctor.Model{Name: "subject-1", Family: "fam-z"}}
}

func judgeEvidence(g proctor.Grade) *proctor.JudgeEvidence {
	ev, _ := g.Evidence.(*proctor.JudgeEvidence)
	return ev
}
