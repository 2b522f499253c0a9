package proctor

import (
	"encoding/json"
	"testing"
)

// valueSpecBench is one row of the value-option benchmarks: a spec, the
// output it grades (about 1 KB of prose) and the status it must give, and
// for a literal spec the grader its Go constructor builds.
type valueSpecBench struct {
	name, spec, tail string
	want             Status
	direct           Grader
}

// literalValueSpecs are specs whose values hold no template variable: they
// must grade at the cost they had before templates. Each is measured as
// the spec builds it and as its constructor does, in the same run (and the
// benchmark can be run on the commit before templates too).
func literalValueSpecs() []valueSpecBench {
	return []valueSpecBench{
		{"exact_match", `{"type":"exact_match","expected":"Paris"}`, "", StatusFailed,
			NewExactMatchTo("Paris", ExactMatchOptions{})},
		{"one_of", `{"type":"one_of","values":["Paris","Rome"]}`, "", StatusFailed,
			MustOneOf([]string{"Paris", "Rome"}, OneOfOptions{})},
		{"contains", `{"type":"contains","values":["Paris","A-17"]}`, " Paris A-17", StatusPassed,
			MustContains([]string{"Paris", "A-17"}, ContainsOptions{})},
		{"ends_with", `{"type":"ends_with","value":"Regards."}`, " Regards.", StatusPassed,
			NewEndsWith("Regards.", AffixOptions{})},
		{"regex", `{"type":"regex","pattern":"Order A-17 (shipped|held)","match":"search"}`, " Order A-17 shipped", StatusPassed,
			MustRegex("Order A-17 (shipped|held)", RegexOptions{Match: MatchSearch})},
		{"choice", `{"type":"choice","expected":"C"}`, " Answer: C", StatusPassed,
			MustChoice(ChoiceOptions{Expected: "C"})},
		{"token_f1", `{"type":"token_f1","expected":"the cat sat on the mat","threshold":0.01}`, " the cat sat on the mat", StatusPassed,
			NewTokenF1(TokenF1Options{References: []string{"the cat sat on the mat"}, Threshold: Ptr(0.01)})},
	}
}

// BenchmarkLiteralValueSpecs grades literal specs compiled by the Compiler
// (spec) beside the same graders built by their constructors (constructor).
func BenchmarkLiteralValueSpecs(b *testing.B) {
	c := NewCompiler()
	for _, r := range literalValueSpecs() {
		s := sampleOut(prose1K(r.tail))
		b.Run(r.name+"/spec", func(b *testing.B) {
			ch, err := c.Compile(json.RawMessage(r.spec))
			if err != nil {
				b.Fatal(err)
			}
			benchGrade(b, ch.Grader, s, r.want)
		})
		b.Run(r.name+"/constructor", func(b *testing.B) {
			benchGrade(b, r.direct, s, r.want)
		})
	}
}

// BenchmarkTemplatedValueSpecs grades the same specs with their values
// read from the sample's item, to set beside BenchmarkLiteralValueSpecs.
func BenchmarkTemplatedValueSpecs(b *testing.B) {
	item := map[string]any{"answer": "Paris", "code": "A-17", "sign": "Regards.", "letter": "C", "ref": "the cat sat on the mat"}
	runValueSpecBench(b, []valueSpecBench{
		{"exact_match", `{"type":"exact_match","expected":"{{item.answer}}"}`, "", StatusFailed, nil},
		{"one_of", `{"type":"one_of","values":["{{item.answer}}","Rome"]}`, "", StatusFailed, nil},
		{"contains", `{"type":"contains","values":["{{item.answer}}","{{item.code}}"]}`, " Paris A-17", StatusPassed, nil},
		{"ends_with", `{"type":"ends_with","value":"{{item.sign}}"}`, " Regards.", StatusPassed, nil},
		{"regex", `{"type":"regex","pattern":"Order {{item.code}} (shipped|held)","match":"search"}`, " Order A-17 shipped", StatusPassed, nil},
		{"choice", `{"type":"choice","expected":"{{item.letter}}"}`, " Answer: C", StatusPassed, nil},
		{"token_f1", `{"type":"token_f1","expected":"{{item.ref}}","threshold":0.01}`, " the cat sat on the mat", StatusPassed, nil},
	}, item)
}

func runValueSpecBench(b *testing.B, rows []valueSpecBench, item map[string]any) {
	c := NewCompiler()
	for _, r := range rows {
		b.Run(r.name, func(b *testing.B) {
			ch, err := c.Compile(json.RawMessage(r.spec))
			if err != nil {
				b.Fatal(err)
			}
			s := sampleOut(prose1K(r.tail))
			s.Item = item
			benchGrade(b, ch.Grader, s, r.want)
		})
	}
}
