// Package gotest shows proctor cases running under go test: a small
// support bot whose answers are graded by proctortest.Run, one subtest per
// case. Run it with
//
//	go test ./examples/gotest -v
package gotest

import (
	"context"
	"strings"

	"github.com/proctorhq/proctor"
)

// Answer is the system under test: a canned support bot. In a real project
// this would call your model.
func Answer(question string) string {
	q := strings.ToLower(question)
	switch {
	case strings.Contains(q, "return"):
		return "You can return it within 30 days of delivery."
	case strings.Contains(q, "sunday"):
		return "We are closed on Sundays."
	case strings.Contains(q, "human"):
		return "Sure, connecting you to an agent."
	}
	return "Sorry, I do not know."
}

// Subject adapts Answer to a proctor.Subject, so a proctor.Runner can ask
// the bot for each attempt's output.
func Subject(_ context.Context, in proctor.Sample, _ int) (proctor.Sample, error) {
	in.Output = Answer(in.Input)
	return in, nil
}
