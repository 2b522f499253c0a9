package specdoc

// Families lists the type families in the order the reference shows them.
var Families = []Family{
	{"text", "Text", "The output is trimmed of surrounding white space before it is compared."},
	{"structure", "Structure", "Markdown code fences and prose around the JSON are removed before it is parsed."},
	{"answers", "Answers", "Graders that read the answer out of a longer output."},
	{"measurements", "Measurements", "Graders over the sample's metrics. A measurement that is absent, negative, NaN or infinite is not graded; it is never read as zero."},
	{"tools", "Tool evidence", "Graders over the sample's tool_calls, in order."},
	{"disclosure", "Disclosure", "Graders that fail when the output discloses what it must not. Reasons name the kind and where it is, never the whole value."},
	{"similarity", "Similarity", "Scores in [0, 1] against a reference: the spec's expected or references when given, else the sample's expected (and references). Without any reference the result is not graded. Each passes when its score reaches threshold."},
	{"code", "Code", "A Markdown code fence around the code, and prose outside it, is removed first."},
	{"network", "Network", "Graders that call a service over the network. proctor serve builds them only with --allow-network."},
	{"judges", "Model-graded", "Graders that ask the configured judges. Without a judge the result is not graded, with the reason. The first judge is the primary; others form the panel."},
	{"openai", "OpenAI evals", "OpenAI evals grader objects compile as they stand, with OpenAI's field names, so a testing_criteria list is a list of specs."},
	{"combinators", "Combinators", "Specs made of other specs. Nested specs take every option a spec at the top takes."},
}

// Common lists the options every spec takes, read by the Compiler itself.
var Common = []Option{
	{"type", "string", "(required)", "Which grader: one of the types below."},
	{"name", "string", "the type", "The name results show. The tool graders read name as the tool's name instead."},
	{"required", "boolean", "false", "A failure or a not-graded result of this check ends the attempt: later checks are skipped."},
	{"criterion", "string", "none", "Links a deterministic check and a judge check that read the same property, so that a disagreement between them is escalated."},
	{"severity", "string", "none", "How serious a failure of this check is: low, medium, high or critical; reports show it."},
	{"turns", "string", "none", "Grade a conversation (the sample's messages) turn by turn: all turns, assistant turns, or the last assistant turn. Each turn is graded with its text as the output and its tool calls as the calls; the check fails when a turn fails and is not graded when no turn was graded, and its evidence keeps each turn's verdict."},
}
