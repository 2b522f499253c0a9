package proctor_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/proctorhq/proctor"
)

// redacted wraps another grader, as a middleware wraps a handler: it masks
// e-mail addresses in the output before the inner grader reads it, and
// keeps the inner grader's verdict and reason.
type redacted struct{ inner proctor.Grader }

func (r redacted) Name() string { return "redacted(" + r.inner.Name() + ")" }

func (r redacted) Grade(ctx context.Context, s *proctor.Sample) proctor.Grade {
	masked := *s // graders never modify the sample they are given
	words := strings.Fields(s.Output)
	for i, w := range words {
		if strings.Contains(w, "@") {
			words[i] = "<email>"
		}
	}
	masked.Output = strings.Join(words, " ")
	return r.inner.Grade(ctx, &masked)
}

// A custom grader wraps a built-in one. A panic in a custom grader does not
// crash the run: the check is not graded with the panic as its reason.
func Example_customGrader() {
	inner := proctor.NewExactMatchTo("write to <email>", proctor.ExactMatchOptions{})
	check := proctor.Check{Grader: redacted{inner}}
	g := check.Grade(context.Background(), &proctor.Sample{Output: "Write to ana@example.com"})
	fmt.Println(g.Grader, g.Status)

	boom := proctor.Check{Grader: proctor.Func("boom", func(context.Context, *proctor.Sample) proctor.Grade {
		panic("index out of range")
	})}
	g = boom.Grade(context.Background(), &proctor.Sample{Output: "x"})
	fmt.Println(g.Grader, g.Status, strings.Contains(g.Reason, "index out of range"))
	// Output:
	// redacted(exact_match) passed
	// boom not_graded true
}
