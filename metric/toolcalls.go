package metric

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// ToolCall is one tool call as [ToolCallAccuracy] compares it: the tool's
// name and its arguments as encoding/json decodes a JSON object into a
// map[string]any (numbers float64), nil when the call has none.
type ToolCall struct {
	Name string
	Args map[string]any
}

// ToolCallAccuracy returns ragas' ToolCallAccuracy of the predicted calls
// against the reference calls: 1 when both are empty, 0 when either is;
// otherwise 0 unless the name sequences are equal (strict) or equal once
// sorted (not strict, where both lists are sorted by name and arguments
// first), and else the mean over reference calls of the share of their
// arguments the paired predicted call has with an equal value (compared
// as decoded JSON values with reflect.DeepEqual, so 10 equals 10.0, where
// ragas compares Python str forms). It does not change pred or ref.
func ToolCallAccuracy(pred, ref []ToolCall, strict bool) float64 {
	switch {
	case len(pred) == 0 && len(ref) == 0:
		return 1
	case len(pred) == 0 || len(ref) == 0:
		return 0
	}
	if len(pred) != len(ref) {
		return 0 // the name sequences cannot be equal
	}
	if !strict {
		pred, ref = sortedCalls(pred), sortedCalls(ref)
	}
	for i := range pred {
		if pred[i].Name != ref[i].Name {
			return 0
		}
	}
	score := 0.0
	for i := range ref {
		score += argScore(pred[i].Args, ref[i].Args)
	}
	return score / float64(len(ref))
}

// sortedCalls returns a copy of cs sorted by name, then by arguments (as
// JSON with sorted keys), keeping the order of equal calls.
func sortedCalls(cs []ToolCall) []ToolCall {
	type keyed struct {
		c   ToolCall
		key string
	}
	ks := make([]keyed, len(cs))
	for i, c := range cs {
		b, _ := json.Marshal(c.Args) // keys sorted
		ks[i] = keyed{c, string(b)}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if c := strings.Compare(a.c.Name, b.c.Name); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	out := make([]ToolCall, len(ks))
	for i, k := range ks {
		out[i] = k.c
	}
	return out
}

// argScore is ragas' _get_arg_score with exact matching.
func argScore(pred, ref map[string]any) float64 {
	if len(ref) == 0 {
		if len(pred) == 0 {
			return 1
		}
		return 0
	}
	hit := 0
	for k, v := range ref {
		if pv, ok := pred[k]; ok && reflect.DeepEqual(pv, v) {
			hit++
		}
	}
	return float64(hit) / float64(len(ref))
}

// ToolNameF1 returns the precision, recall and F1 of the distinct strings
// in called against the distinct strings in expected: tool names, or any
// key that stands for a call (ragas' ToolCallF1 and promptfoo's
// tool-call-f1). Each is 0 when its denominator is.
func ToolNameF1(called, expected []string) (precision, recall, f1Score float64) {
	got := map[string]bool{}
	for _, n := range called {
		got[n] = true
	}
	want := map[string]bool{}
	for _, n := range expected {
		want[n] = true
	}
	hit := 0
	for n := range want {
		if got[n] {
			hit++
		}
	}
	precision, recall = ratio(hit, len(got)), ratio(hit, len(want))
	return precision, recall, f1(precision, recall)
}
