package bench_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/proctest"
	"github.com/proctorhq/proctor/internal/race"
	"github.com/proctorhq/proctor/similarity"
)

// valueSpecBench is one row of the value-option benchmarks: a spec, the
// output it grades (about 1 KB of prose) and the status it must give, and
// for a literal spec the grader its Go constructor builds.
type valueSpecBench struct {
	name, spec, tail string
	want             proctor.Status
	direct           proctor.Grader
}

// literalValueSpecs are specs whose values hold no template variable: they
// must grade at the cost they had before templates. Each is measured as
// the spec builds it and as its constructor does, in the same run (and the
// benchmark can be run on the commit before templates too).
func literalValueSpecs() []valueSpecBench {
	return []valueSpecBench{
		{"exact_match", `{"type":"exact_match","expected":"Paris"}`, "", proctor.StatusFailed,
			proctor.NewExactMatchTo("Paris", proctor.ExactMatchOptions{})},
		{"one_of", `{"type":"one_of","values":["Paris","Rome"]}`, "", proctor.StatusFailed,
			must(proctor.NewOneOf([]string{"Paris", "Rome"}, proctor.OneOfOptions{}))},
		{"contains", `{"type":"contains","values":["Paris","A-17"]}`, " Paris A-17", proctor.StatusPassed,
			must(proctor.NewContains([]string{"Paris", "A-17"}, proctor.ContainsOptions{}))},
		{"ends_with", `{"type":"ends_with","value":"Regards."}`, " Regards.", proctor.StatusPassed,
			proctor.NewEndsWith("Regards.", proctor.AffixOptions{})},
		{"regex", `{"type":"regex","pattern":"Order A-17 (shipped|held)","match":"search"}`, " Order A-17 shipped", proctor.StatusPassed,
			proctor.MustRegex("Order A-17 (shipped|held)", proctor.RegexOptions{Match: proctor.MatchSearch})},
		{"choice", `{"type":"choice","expected":"C"}`, " Answer: C", proctor.StatusPassed,
			must(proctor.NewChoice(proctor.ChoiceOptions{Expected: "C"}))},
		{"token_f1", `{"type":"token_f1","expected":"the cat sat on the mat","threshold":0.01}`, " the cat sat on the mat", proctor.StatusPassed,
			must(similarity.NewTokenF1(similarity.TokenF1Options{References: []string{"the cat sat on the mat"}, Threshold: proctor.Ptr(0.01)}))},
	}
}

// TestLiteralValueSpecAllocs checks that a literal spec allocates per
// grade exactly what its constructor's grader does: templates cost a
// literal nothing.
func TestLiteralValueSpecAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation counts differ under -race")
	}
	c := proctor.NewCompiler(similarity.Types())
	for _, r := range literalValueSpecs() {
		ch, err := c.Compile([]byte(r.spec))
		if err != nil {
			t.Fatal(err)
		}
		s := sampleOut(proctest.Prose1K(r.tail))
		spec := testing.AllocsPerRun(20, func() { ch.Grader.Grade(context.Background(), s) })
		direct := testing.AllocsPerRun(20, func() { r.direct.Grade(context.Background(), s) })
		if spec != direct {
			t.Errorf("%s: the spec's grader allocates %v per grade, the constructor's %v", r.name, spec, direct)
		}
	}
}

// BenchmarkLiteralValueSpecs grades literal specs compiled by the Compiler
// (spec) beside the same graders built by their constructors (constructor).
func BenchmarkLiteralValueSpecs(b *testing.B) {
	c := proctor.NewCompiler(similarity.Types())
	for _, r := range literalValueSpecs() {
		s := sampleOut(proctest.Prose1K(r.tail))
		b.Run(r.name+"/spec", func(b *testing.B) {
			ch, err := c.Compile(json.RawMessage(r.spec))
			if err != nil {
				b.Fatal(err)
			}
			proctest.BenchGrade(b, ch.Grader, s, r.want)
		})
		b.Run(r.name+"/constructor", func(b *testing.B) {
			proctest.BenchGrade(b, r.direct, s, r.want)
		})
	}
}

// BenchmarkTemplatedValueSpecs grades the same specs with their values
// read from the sample's item, to set beside BenchmarkLiteralValueSpecs.
func BenchmarkTemplatedValueSpecs(b *testing.B) {
	item := map[string]any{"answer": "Paris", "code": "A-17", "sign": "Regards.", "letter": "C", "ref": "the cat sat on the mat"}
	runValueSpecBench(b, []valueSpecBench{
		{"exact_match", `{"type":"exact_match","expected":"{{item.answer}}"}`, "", proctor.StatusFailed, nil},
		{"one_of", `{"type":"one_of","values":["{{item.answer}}","Rome"]}`, "", proctor.StatusFailed, nil},
		{"contains", `{"type":"contains","values":["{{item.answer}}","{{item.code}}"]}`, " Paris A-17", proctor.StatusPassed, nil},
		{"ends_with", `{"type":"ends_with","value":"{{item.sign}}"}`, " Regards.", proctor.StatusPassed, nil},
		{"regex", `{"type":"regex","pattern":"Order {{item.code}} (shipped|held)","match":"search"}`, " Order A-17 shipped", proctor.StatusPassed, nil},
		{"choice", `{"type":"choice","expected":"{{item.letter}}"}`, " Answer: C", proctor.StatusPassed, nil},
		{"token_f1", `{"type":"token_f1","expected":"{{item.ref}}","threshold":0.01}`, " the cat sat on the mat", proctor.StatusPassed, nil},
	}, item)
}

func runValueSpecBench(b *testing.B, rows []valueSpecBench, item map[string]any) {
	c := proctor.NewCompiler(similarity.Types())
	for _, r := range rows {
		b.Run(r.name, func(b *testing.B) {
			ch, err := c.Compile(json.RawMessage(r.spec))
			if err != nil {
				b.Fatal(err)
			}
			s := sampleOut(proctest.Prose1K(r.tail))
			s.Item = item
			proctest.BenchGrade(b, ch.Grader, s, r.want)
		})
	}
}
