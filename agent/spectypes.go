package agent

import "github.com/proctorhq/proctor"

// SpecTypes returns the agent family's spec types (tool_called,
// tool_not_called, tool_sequence, tool_call_valid, tool_call_f1,
// tool_step_count, tool_argument_assertion, trajectory_match,
// tool_status, trace_spans, and the judges trajectory_judge and
// conversation_judge) with their reference and builders, for
// [proctor.WithSpecTypes].
func SpecTypes() []proctor.SpecType { return append(toolTypes(), judgeTypes()...) }

// toolTypes returns the graders of the sample's tool calls, documented
// and with their builders.
func toolTypes() []proctor.SpecType {
	return []proctor.SpecType{
		{Name: "tool_called", Build: toolCalledSpec, Family: "tools", Summary: "a tool was called, at least some number of times",
			About: "Results are named after the type and the tool: tool_called:search.",
			Options: []proctor.SpecOptionDoc{
				{Name: "name", Type: "string", Default: "(required)", Meaning: "The tool's name."},
				{Name: "min_times", Type: "integer >= 1", Default: "1", Meaning: "The fewest calls."},
			},
			Example: `{"type": "tool_called", "name": "search"}`},
		{Name: "tool_not_called", Build: toolNotCalledSpec, Family: "tools", Summary: "a tool was not called",
			Options: []proctor.SpecOptionDoc{{Name: "name", Type: "string", Default: "(required)", Meaning: "The tool's name."}},
			Example: `{"type": "tool_not_called", "name": "delete_account"}`},
		{Name: "tool_sequence", Build: toolSequenceSpec, Family: "tools", Summary: "tools were called in a given order",
			About: "Give names or calls. With calls the arguments count too, scored as ragas' ToolCallAccuracy: 0 unless the called names equal the expected ones (in order for exact; as sorted lists for any_order), else the mean over expected calls of the share of their arguments the paired call has with an equal value. Values compare as JSON values (10 equals 10.0), where ragas compares Python str() forms; names compare exactly, without globs.",
			Options: []proctor.SpecOptionDoc{
				{Name: "names", Type: "string array", Default: "", Meaning: "The tool names, in order; each may be a glob pattern (*, ?, [...]). [] means no tool call is expected."},
				{Name: "mode", Type: "string", Default: "subsequence", Meaning: "subsequence (or in_order): these calls in this order, others may come between; exact (or strict): exactly these calls, in this order; any_order: exactly these calls, in any order."},
				{Name: "max", Type: "object of name to integer >= 0", Default: "none", Meaning: "At most that many calls may match each name or pattern, in every mode."},
				{Name: "calls", Type: "array of {name, arguments}", Default: "", Meaning: "Instead of names: the expected calls with their arguments (absent arguments are {}). Needs mode exact/strict or any_order."},
				{Name: "threshold", Type: "number in [0, 1]", Default: "1", Meaning: "The least passing score with calls."},
			},
			Example: `{"type": "tool_sequence", "names": ["search", "answer"]}`},
		{Name: "tool_call_valid", Build: toolCallValidSpec, Family: "tools", Summary: "every tool call names a declared tool, with arguments its schema accepts",
			About: "Reads the sample's tool_calls when there are any, else tool calls from the output text (OpenAI messages, tool_calls and function_call, chat completions, transcripts, Responses function_call items, Anthropic tool_use blocks, Google functionCall, arrays of {name, arguments}; one JSON value, or one per line; not inside fences). Arguments in a JSON string are decoded; absent arguments are {}. Fails on the first bad call, or when there is no call; not graded when no tools are declared or they do not compile. Matches promptfoo's is-valid-openai-tools-call and is-valid-openai-function-call.",
			Options: []proctor.SpecOptionDoc{
				{Name: "tools", Type: "array of tools", Default: "the sample's item.tools (or item.functions)", Meaning: `The declared tools: OpenAI tools ({"type": "function", "function": {"name", "parameters"}}), legacy functions ({"name", "parameters"}) or Anthropic tools ({"name", "input_schema"}). A tool without a schema takes any arguments.`},
			},
			Example: `{"type": "tool_call_valid", "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}`},
		{Name: "tool_call_f1", Build: toolCallF1Spec, Family: "tools", Summary: "F1 of the called tools against the expected ones",
			About: "Precision, recall and F1 of the distinct called tool names against the expected names (promptfoo's tool-call-f1), or of distinct (name, arguments) pairs against expected_calls (ragas' ToolCallF1, which rounds to 4 decimals; we do not). Order and repeats do not count. Reads tool calls as tool_call_valid does. Evidence: precision, recall, tool_calls.",
			Options: []proctor.SpecOptionDoc{
				{Name: "expected", Type: "string array", Default: "", Meaning: "The expected tool names. Give expected or expected_calls."},
				{Name: "expected_calls", Type: "array of {name, arguments}", Default: "", Meaning: "Instead of expected: a call counts only with the same name and equal arguments, compared as JSON values (absent arguments are {})."},
				{Name: "threshold", Type: "number in [0, 1]", Default: "1", Meaning: "The least passing F1 (promptfoo's default)."},
			},
			Example: `{"type": "tool_call_f1", "expected": ["search", "book"], "threshold": 0.8}`},
		{Name: "tool_step_count", Build: toolStepCountSpec, Family: "tools", Summary: "the number of tool calls is within bounds",
			About: "Give at least one bound; bounds are inclusive (promptfoo's trajectory step count). Reads tool calls as tool_call_valid does.",
			Options: []proctor.SpecOptionDoc{
				{Name: "min", Type: "integer >= 0", Default: "none", Meaning: "Fewest calls."},
				{Name: "max", Type: "integer >= min", Default: "none", Meaning: "Most calls."},
			},
			Example: `{"type": "tool_step_count", "min": 1, "max": 5}`},
		{Name: "tool_argument_assertion", Build: toolArgumentAssertionSpec, Family: "tools", Summary: "a tool was called with an argument equal to a value",
			Options: []proctor.SpecOptionDoc{
				{Name: "name", Type: "string", Default: "(required)", Meaning: "The tool's name."},
				{Name: "path", Type: "string", Default: "(required)", Meaning: "A JSONPath query into the call's arguments."},
				{Name: "equals", Type: "any JSON value", Default: "(required)", Meaning: "The value the argument must equal in some call."},
			},
			Example: `{"type": "tool_argument_assertion", "name": "search", "path": "$.q", "equals": "refund policy"}`},
		{Name: "trajectory_match", Build: trajectoryMatchSpec, Family: "tools", Summary: "the tool calls follow an expected path, under openevals' trajectory and argument modes",
			About: "The modes mean what openevals' (agentevals') trajectory match means. strict: the calls are the expected calls one for one, in order; unordered: the same calls in any order; subset: every call matches a different expected call (no more than expected); superset: every expected call matches a different call (at least what was expected). Calls pair greedily, each taking the first unpaired match, as openevals pairs them. Argument modes compare the call's arguments with the expected call's: exact (equal JSON values), ignore, subset (the call's arguments are among the expected ones), superset (the expected arguments are among the call's); as in openevals, subset mode and the second half of unordered compare the other way round (the expected call's arguments against the call's). openevals compares strict per message, with the calls of one message in any order; proctor's tool calls carry no message, so strict orders every call. Reads tool calls as tool_call_valid does. The reason names the first call where the path diverged.",
			Options: []proctor.SpecOptionDoc{
				{Name: "expected", Type: "array of {name, arguments}", Default: "(required)", Meaning: "The expected calls, in order; absent arguments are {}. [] means no call is expected."},
				{Name: "mode", Type: "string", Default: "strict", Meaning: "strict, unordered, subset or superset."},
				{Name: "args", Type: "string", Default: "exact", Meaning: "How arguments compare: exact, ignore, subset or superset."},
				{Name: "tool_args", Type: "object of name to mode or key list", Default: "none", Meaning: `Per-tool overrides of args: a mode, or a list of dotted key paths (["time.start"]) whose values alone must be equal.`},
			},
			Example: `{"type": "trajectory_match", "mode": "superset", "expected": [{"name": "get_weather", "arguments": {"city": "SF"}}], "tool_args": {"get_weather": "ignore"}}`},
		{Name: "tool_status", Build: toolStatusSpec, Family: "tools", Summary: "no tool call errored",
			About: "A call errored when its is_error is true (a span with status ERROR, an Anthropic tool_result with is_error). Reads the sample's recorded tool_calls only. The reason names the first failed call and its result. Evidence: tool_calls, errored (how many failed).",
			Options: []proctor.SpecOptionDoc{
				{Name: "names", Type: "string array", Default: "every tool", Meaning: "Check only calls to these tools."},
			},
			Example: `{"type": "tool_status", "names": ["charge_card"]}`},
		{Name: "trace_spans", Build: traceSpansSpec, Family: "tools", Summary: "a trace's span count, duration and error spans are within bounds",
			About: "Reads the sample's item.trace object (span_count, duration_ms, error_count), which a trace read by proctor run --traces (package agent/otlp) carries; a sample without it is not graded. Give at least one bound; bounds are inclusive. The reason names each bound passed. Matches promptfoo's trace-span-count, trace-span-duration and trace-error-spans over the whole trace.",
			Options: []proctor.SpecOptionDoc{
				{Name: "max_count", Type: "integer >= 0", Default: "none", Meaning: "Most spans."},
				{Name: "max_duration_ms", Type: "number >= 0", Default: "none", Meaning: "Longest trace, first span start to last span end, in milliseconds."},
				{Name: "max_errors", Type: "integer >= 0", Default: "none", Meaning: "Most spans with status ERROR."},
			},
			Example: `{"type": "trace_spans", "max_count": 40, "max_duration_ms": 30000, "max_errors": 0}`},
	}
}

// templates is said of options that take {{ }} template variables.
const templates = "Template variables: {{input}}, {{output}}, {{expected}}, {{item.KEY}}, {{sample.output_text}}."

// judgeTypes returns the judges of an agent's path and conversation,
// documented and with their builders; the reference lists them with the
// other model-graded types.
func judgeTypes() []proctor.SpecType {
	return []proctor.SpecType{
		{Name: "trajectory_judge", Build: judgeSpec(NewTrajectoryJudge, trajectorySpecRubric), Family: "judges", Summary: "a judge checks the path an agent took against a rubric",
			About:   "The judge is shown the rubric, the input and the sample's tool calls in order, each with its arguments, result and failure, quoted like any other material; not graded without tool calls. Verdicts as llm_judge.",
			Options: []proctor.SpecOptionDoc{{Name: "rubric", Type: "string", Default: "(required)", Meaning: "What the judge checks, in plain words. " + templates}},
			Example: `{"type": "trajectory_judge", "rubric": "The agent looks the order up before it refunds, and refunds once."}`},
		{Name: "conversation_judge", Build: judgeSpec(NewConversationJudge, conversationSpecRubric), Family: "judges", Summary: "a judge checks a whole conversation against a rubric",
			About: "The judge is shown the rubric, the input and every turn of the sample's messages, each quoted on its own in nonce tags with its role and tool calls. Give a rubric, or name a built-in one with criterion: knowledge_retention (later turns keep what the user said earlier), role_adherence (every assistant turn stays in the role its instructions set) or completeness (every user request is dealt with by the end). With both, the rubric follows the criterion's text as a further condition (the role, say). Not graded without messages. Verdicts as llm_judge.",
			Options: []proctor.SpecOptionDoc{
				{Name: "rubric", Type: "string", Default: "(required without criterion)", Meaning: "What the judge checks, in plain words; with criterion, a further condition. " + templates},
				{Name: "criterion", Type: "string", Default: "none", Meaning: "A built-in rubric: knowledge_retention, role_adherence or completeness."},
			},
			Example: `{"type": "conversation_judge", "rubric": "The assistant remembers the user's name and stays in the role of a travel agent."}`},
	}
}

// Types gives a [proctor.Compiler] the agent family's spec types.
func Types() proctor.CompilerOption { return proctor.WithSpecTypes(SpecTypes()...) }
