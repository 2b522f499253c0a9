package proctortest_test

import (
	"net/netip"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/builtin"
	"github.com/proctorhq/proctor/proctortest"
)

// minimalSpecs holds, for each spec type docs/spec.md names, the smallest spec
// that compiles. Types the compiler knows but this table lacks are logged,
// not failed, so a new grader family shows up here as a reminder.
var minimalSpecs = map[string]string{
	"exact_match":             `{"type":"exact_match"}`,
	"one_of":                  `{"type":"one_of","values":["Paris","Lyon"]}`,
	"contains":                `{"type":"contains","value":"Paris"}`,
	"not_contains":            `{"type":"not_contains","value":"London"}`,
	"starts_with":             `{"type":"starts_with","value":"Paris"}`,
	"ends_with":               `{"type":"ends_with","value":"."}`,
	"blocklist":               `{"type":"blocklist","words":["darn"]}`,
	"length":                  `{"type":"length","max_chars":100}`,
	"string_check":            `{"type":"string_check","operation":"eq","reference":"Paris"}`,
	"regex":                   `{"type":"regex","pattern":"Paris.*"}`,
	"not_regex":               `{"type":"not_regex","pattern":"(a+)+$"}`,
	"json_valid":              `{"type":"json_valid"}`,
	"json_schema":             `{"type":"json_schema","schema":{"type":"object","required":["a"]}}`,
	"json_path":               `{"type":"json_path","path":"$.a","exists":true}`,
	"choice":                  `{"type":"choice","expected":"B"}`,
	"numeric":                 `{"type":"numeric","expected":42,"abs_tol":0.5}`,
	"refused":                 `{"type":"refused"}`,
	"not_refused":             `{"type":"not_refused"}`,
	"latency_threshold":       `{"type":"latency_threshold","max_ms":1000}`,
	"token_threshold":         `{"type":"token_threshold","max":100}`,
	"cost_threshold":          `{"type":"cost_threshold","max_usd":1}`,
	"http_status":             `{"type":"http_status","expected":200}`,
	"tool_called":             `{"type":"tool_called","name":"search"}`,
	"tool_not_called":         `{"type":"tool_not_called","name":"delete"}`,
	"tool_sequence":           `{"type":"tool_sequence","names":["search"]}`,
	"tool_argument_assertion": `{"type":"tool_argument_assertion","name":"search","path":"$.q","equals":"capital of France"}`,
	"no_pii":                  `{"type":"no_pii"}`,
	"no_secrets":              `{"type":"no_secrets"}`,
	"forbidden":               `{"type":"forbidden","entities":["Acme"]}`,
	"bleu":                    `{"type":"bleu","threshold":0.1}`,
	"rouge":                   `{"type":"rouge","variant":"rougeL","threshold":0.1}`,
	"token_f1":                `{"type":"token_f1","threshold":0.5}`,
	"gleu":                    `{"type":"gleu","threshold":0.1}`,
	"levenshtein":             `{"type":"levenshtein","threshold":0.5}`,
	"fuzzy_match":             `{"type":"fuzzy_match","threshold":0.5}`,
	"context_f1":              `{"type":"context_f1","threshold":0.5}`,
	"localization_f1":         `{"type":"localization_f1","threshold":0.5}`,
	"semantic_similarity":     `{"type":"semantic_similarity","threshold":0.5}`,
	"python_compiles":         `{"type":"python_compiles"}`,
	"go_compiles":             `{"type":"go_compiles"}`,
	// Port 9 on loopback, allowed below: the call is refused, never sent
	// anywhere else.
	"custom_webhook":     `{"type":"custom_webhook","url":"http://127.0.0.1:9/hook","timeout_ms":500}`,
	"llm_judge":          `{"type":"llm_judge","rubric":"The answer names the capital."}`,
	"llm_score":          `{"type":"llm_score","rubric":"The answer names the capital."}`,
	"llm_category":       `{"type":"llm_category","categories":["right","wrong"],"pass":["right"]}`,
	"llm_pairwise":       `{"type":"llm_pairwise","baseline":"Paris."}`,
	"llm_answer_match":   `{"type":"llm_answer_match"}`,
	"faithfulness":       `{"type":"faithfulness"}`,
	"relevance":          `{"type":"relevance"}`,
	"hallucination":      `{"type":"hallucination"}`,
	"toxicity":           `{"type":"toxicity"}`,
	"all":                `{"type":"all","graders":[{"type":"contains","value":"Paris"},{"type":"not_contains","value":"London"}]}`,
	"any":                `{"type":"any","graders":[{"type":"contains","value":"Paris"},{"type":"contains","value":"Lyon"}]}`,
	"not":                `{"type":"not","grader":{"type":"contains","value":"London"}}`,
	"text_similarity":    `{"type":"text_similarity","input":"{{sample.output_text}}","reference":"Paris","evaluation_metric":"fuzzy_match","pass_threshold":0.5}`,
	"multi":              `{"type":"multi","graders":{"a":{"type":"contains","value":"Paris"}},"calculate_output":"a","pass_threshold":0.5}`,
	"jaro":               `{"type":"jaro","threshold":0.8}`,
	"jaro_winkler":       `{"type":"jaro_winkler","threshold":0.8}`,
	"hamming":            `{"type":"hamming","threshold":0.8}`,
	"chrf":               `{"type":"chrf","word_order":2,"threshold":0.5}`,
	"tool_call_valid":    `{"type":"tool_call_valid","tools":[{"name":"search","parameters":{"type":"object"}}]}`,
	"tool_call_f1":       `{"type":"tool_call_f1","expected":["search"]}`,
	"tool_step_count":    `{"type":"tool_step_count","max":3}`,
	"trajectory_match":   `{"type":"trajectory_match","expected":[{"name":"search"}],"mode":"superset"}`,
	"tool_status":        `{"type":"tool_status"}`,
	"trace_spans":        `{"type":"trace_spans","max_count":10}`,
	"trajectory_judge":   `{"type":"trajectory_judge","rubric":"The agent searches first."}`,
	"conversation_judge": `{"type":"conversation_judge","rubric":"The assistant stays polite."}`,
	"json_diff":          `{"type":"json_diff","expected":{"a":1},"threshold":0.5}`,
	"numeric_diff":       `{"type":"numeric_diff","expected":42,"threshold":0.9}`,
	"list_contains":      `{"type":"list_contains","expected":["Paris","Lyon"],"threshold":0.5}`,
	"weighted":           `{"type":"weighted","graders":[{"type":"contains","value":"Paris"},{"type":"contains","value":"Lyon"}],"weights":[2,1],"threshold":0.5}`,
	"xml_valid":          `{"type":"xml_valid","root":"a"}`,
	"python":             `{"type":"python","source":"def grade(sample, item):\n    return 1.0 if 'Paris' in sample['output_text'] else 0.0\n","pass_threshold":0.5}`,
}

// TestBuiltinGraders runs the grader contract on every built-in spec type,
// as slog's slogtest_test.go runs slogtest on the built-in handlers.
func TestBuiltinGraders(t *testing.T) {
	comp := proctor.NewCompiler(builtin.Types(), proctor.WithNetworkAllow(netip.MustParsePrefix("127.0.0.1/32")))
	for _, typ := range comp.Types() {
		spec, ok := minimalSpecs[typ]
		if !ok {
			t.Logf("spec type %s has no minimal spec in the table: not checked", typ)
			continue
		}
		t.Run(typ, func(t *testing.T) {
			ch, err := comp.Compile([]byte(spec))
			if err != nil {
				t.Fatalf("the table's minimal spec %s does not compile (fix the table): %v", spec, err)
			}
			if err := proctortest.TestGrader(ch.Grader); err != nil {
				t.Error(err)
			}
		})
	}
}
