package specdoc

// The reference of the root package's own spec types. The drift test in
// package builtin (spec_reference_test.go) checks every type the full
// Compiler knows against its reference: the same options as its builder
// reads, examples that compile, and docs/spec.md as Markdown renders it.

// templates is said of options that take {{ }} template variables.
const templates = "Template variables: {{input}}, {{output}}, {{expected}}, {{item.KEY}}, {{sample.output_text}}."

// valueTemplate is said of options that hold a value to compare with: a
// string value is a template rendered per sample.
const valueTemplate = "May hold templates such as {{item.KEY}} (docs/templates.md)."

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

var referenceOptions = []Option{
	{"expected", "string", "the sample's expected", "The reference to compare with. " + valueTemplate},
	{"references", "string array", "the sample's references", "More references; the best score counts. Given with expected, expected comes first. " + valueTemplate},
}

// threshold is the threshold option of a scored type, def its default.
func threshold(def string) Option {
	return Option{"threshold", "number in [0, 1]", def, "The least passing score."}
}

func similarity(def string) []Option {
	return append(referenceOptions[:2:2], threshold(def))
}

var containsOptions = []Option{
	{"value", "string", "", "The text to look for. Give value or values. " + valueTemplate},
	{"values", "string array", "", "Several texts to look for. " + valueTemplate},
	{"mode", "string", "all", "all: contains needs every value, not_contains needs every value absent; any: contains needs one value, not_contains needs one value absent."},
	{"case_sensitive", "boolean", "true", "Compare letter case."},
}

var regexOptions = func(def string) []Option {
	return []Option{
		{"pattern", "string", "(required)", "An RE2 pattern (Go syntax) or one with the backtracking constructs of docs/regex.md, at most 1,024 characters. May hold templates such as {{item.KEY}}, whose values match as literal text (docs/templates.md)."},
		{"match", "string", def, "full: the pattern must match the whole trimmed output; search: anywhere in it."},
		{"case_sensitive", "boolean", "true", "Compare letter case."},
	}
}

var judgeRubric = Option{"rubric", "string", "(required)", "What the judge checks, in plain words. " + templates}

// Root is the reference of the root package's own spec types, by family.
var Root = []Type{
	// Text
	{Name: "exact_match", Family: "text", Summary: "the output equals the expected answer",
		About: "A JSON object or array as expected is compared structurally with the output decoded as JSON (fences removed), keys in any order. A number or boolean compares as its JSON text.",
		Options: []Option{
			{"expected", "string or any JSON value", "the sample's expected", "The answer to match. " + valueTemplate},
			{"case_sensitive", "boolean", "false", "Compare letter case."},
			{"remove_punctuation", "boolean", "false", "Drop punctuation from both sides first."},
		},
		Example: `{"type": "exact_match", "expected": "Paris"}`},
	{Name: "one_of", Family: "text", Summary: "the output equals one of several answers",
		Options: []Option{
			{"values", "string array", "(required)", "The accepted answers. " + valueTemplate},
			{"case_sensitive", "boolean", "false", "Compare letter case."},
		},
		Example: `{"type": "one_of", "values": ["yes", "y"]}`},
	{Name: "contains", Family: "text", Summary: "the output contains a text (or all or any of several)",
		Options: containsOptions, Example: `{"type": "contains", "values": ["refund", "order"], "mode": "any"}`},
	{Name: "not_contains", Family: "text", Summary: "the output does not contain a text (or none of several)",
		Options: containsOptions, Example: `{"type": "not_contains", "value": "As an AI"}`},
	{Name: "starts_with", Family: "text", Summary: "the output begins with a text",
		Options: []Option{{"value", "string", "(required)", "The prefix. " + valueTemplate}, {"case_sensitive", "boolean", "true", "Compare letter case."}},
		Example: `{"type": "starts_with", "value": "Dear"}`},
	{Name: "ends_with", Family: "text", Summary: "the output ends with a text",
		Options: []Option{{"value", "string", "(required)", "The suffix. " + valueTemplate}, {"case_sensitive", "boolean", "true", "Compare letter case."}},
		Example: `{"type": "ends_with", "value": "Best regards."}`},
	{Name: "blocklist", Family: "text", Summary: "the output uses none of the listed words, as whole words",
		Options: []Option{{"words", "string array", "(required)", "The words (or phrases) that must not appear."}, {"case_sensitive", "boolean", "false", "Compare letter case."}},
		Example: `{"type": "blocklist", "words": ["guarantee", "risk-free"]}`},
	{Name: "length", Family: "text", Summary: "the output's length in characters or words is within bounds",
		About: "Give at least one bound; bounds are inclusive. Characters are Unicode code points; words are runs of non-space.",
		Options: []Option{
			{"min_chars", "integer >= 0", "none", "Fewest characters."},
			{"max_chars", "integer >= 0", "none", "Most characters."},
			{"min_words", "integer >= 0", "none", "Fewest words."},
			{"max_words", "integer >= 0", "none", "Most words."},
		},
		Example: `{"type": "length", "max_words": 120}`},
	{Name: "regex", Family: "text", Summary: "the output matches a regular expression",
		About: "A candidate over 64 KiB, or a match that runs past 250 ms, fails with the reason; it never hangs. " +
			"RE2 runs the pattern when it can; lookaround, backreferences (Python's (?P=name) too), conditionals, atomic groups and " +
			"possessive quantifiers run on a backtracking engine with the 250 ms budget per match. [docs/regex.md](regex.md) says what each engine takes and what is refused.",
		Options: regexOptions("full"), Example: `{"type": "regex", "pattern": "(?s).*Final answer: [A-D]\\.?"}`},
	{Name: "not_regex", Family: "text", Summary: "the output does not match a regular expression",
		About:   "Patterns are read as for regex; a match that runs past 250 ms fails, never passes.",
		Options: regexOptions("search"), Example: `{"type": "not_regex", "pattern": "(?i)lorem ipsum"}`},

	// Structure
	{Name: "json_valid", Family: "structure", Summary: "the output holds valid JSON",
		About: "An output that parses whole is the value; otherwise the first fenced block or bracketed span in the prose that parses is taken, never a piece of a broken value the output starts with: `[{\"a\": 1}` and `{a: {\"b\": 1}}` fail, while a broken fenced block followed by a corrected one passes.",
		Options: []Option{
			{"strict", "boolean", "false", "The whole trimmed output must be JSON: no fences or prose around it."},
		},
		Example: `{"type": "json_valid"}`},
	{Name: "json_schema", Family: "structure", Summary: "the output's JSON is accepted by a JSON Schema",
		About: "JSON Schema 2020-12 unless the schema's $schema names another draft.",
		Options: []Option{
			{"schema", "object", "", "The schema, inline. Give schema or schema_file. Objects and arrays may nest at most 128 levels deep (in each file it references too); a deeper schema is refused before it compiles."},
			{"schema_file", "string", "", "A path to the schema, inside the suite's folder (from Go: the files given with WithFiles). The same depth limit holds."},
			{"draft", "string or number", "2020-12", "The draft for a schema without $schema: 4, 6, 7, 2019-09 or 2020-12. $schema wins when present."},
			{"format_assertion", "boolean", "false", "Assert formats (date, date-time, time, email, hostname, ipv4, ipv6, uri, uri-reference, uuid, regex, duration, json-pointer, ...) instead of treating them as annotations."},
			{"content_assertion", "boolean", "false", "Assert contentEncoding and contentMediaType."},
			{"any_block", "boolean", "false", "Pass when any JSON block of the output validates, not only the first that parses."},
			{"strict", "boolean", "false", "The whole trimmed output must be the JSON value: no fences or prose around it (an API's structured output). Not with any_block."},
			{"max_visits", "integer > 0", "16384", "Bound on the schema nodes one position of the output may visit through $ref and applicators; a schema over it is refused at load, and an output that would exceed it is not graded."},
		},
		Example: `{"type": "json_schema", "schema": {"type": "object", "required": ["id"]}}`},
	{Name: "json_path", Family: "structure", Summary: "a JSONPath query over the output's JSON meets an assertion",
		About: "Give exactly one of equals, exists and one_of. A query that selects one node is compared through that node; one that can select several (wildcards, filters, slices) is compared as the list of nodes.",
		Options: []Option{
			{"path", "string", "(required)", "An RFC 9535 JSONPath query. Brackets and parentheses (filters, groups, function calls) may nest at most 32 levels deep; a deeper query is refused before it compiles."},
			{"equals", "any JSON value", "", "The value the node (or node list) must equal."},
			{"exists", "boolean", "", "true: the query must select something; false: nothing."},
			{"one_of", "array of JSON values", "", "The node must equal one of these."},
			{"max_work", "integer >= 0", "4194304", "Bound on the work of one grade, in nodes visited and filter work charged; past it the check is not graded, with the reason."},
			{"max_nodes", "integer >= 0", "262144", "Bound on the nodes held at once in the query's node lists; past it the check is not graded."},
		},
		Example: `{"type": "json_path", "path": "$.status", "one_of": ["ok", "pending"]}`},
	{Name: "xml_valid", Family: "structure", Summary: "the output is one well-formed XML document",
		About: "Go's encoding/xml in strict mode plus the checks it leaves out: exactly one root element, elements closed in order, attributes quoted and not repeated, only the five predefined entities and character references, nothing but white space, comments and processing instructions outside the root. When the output has a code fence labelled xml, or unlabelled, that block is what is checked. Document type declarations are skipped, so entities they declare are errors. Fails with the first error and its line; not graded past 10,000 levels of nesting. Well-formedness only, not a schema (XSD or DTD).",
		Options: []Option{
			{"root", "string", "any", "The required root element: its local name (invoice) or its name as written (x:invoice)."},
		},
		Example: `{"type": "xml_valid", "root": "invoice"}`},

	// Answers
	{Name: "choice", Family: "answers", Summary: "the multiple-choice letter in the output is the right one",
		About: "Reads forms like B, (B), B., Answer: B, **B** and The answer is B. No letter, or several different ones, fails.",
		Options: []Option{
			{"expected", "string", "the sample's expected", "The right letter. " + valueTemplate},
			{"choices", "string", "ABCDE", "The letters (or digits) offered, in order, any case."},
		},
		Example: `{"type": "choice", "expected": "C", "choices": "ABCD"}`},
	{Name: "numeric", Family: "answers", Summary: "the last number in the output equals the expected one, within tolerance",
		About: "Passes when |got - want| <= max(abs_tol, rel_tol * |want|). Thousands separators, signs, decimals and exponents are read; a trailing % is dropped (12% reads as 12).",
		Options: []Option{
			{"expected", "number or numeric string", "the sample's expected", "The right number. " + valueTemplate},
			{"abs_tol", "number >= 0", "0", "Absolute tolerance."},
			{"rel_tol", "number >= 0", "0", "Tolerance relative to |expected|."},
		},
		Example: `{"type": "numeric", "expected": 42, "rel_tol": 0.01}`},
	{Name: "refused", Family: "answers", Summary: "the output declines the request",
		Example: `{"type": "refused"}`},
	{Name: "not_refused", Family: "answers", Summary: "the output does not decline the request",
		Example: `{"type": "not_refused"}`},

	// Measurements
	{Name: "latency_threshold", Family: "measurements", Summary: "the sample's latency_ms is at most a limit",
		Options: []Option{{"max_ms", "number >= 0", "(required)", "The most milliseconds allowed."}},
		Example: `{"type": "latency_threshold", "max_ms": 2000}`},
	{Name: "token_threshold", Family: "measurements", Summary: "a token count of the sample is at most a limit",
		Options: []Option{
			{"max", "integer >= 0", "(required)", "The most tokens allowed."},
			{"field", "string", "output_tokens", "Which count: output_tokens, input_tokens or total_tokens."},
		},
		Example: `{"type": "token_threshold", "max": 500, "field": "total_tokens"}`},
	{Name: "cost_threshold", Family: "measurements", Summary: "the sample's cost_usd is at most a limit",
		Options: []Option{{"max_usd", "number >= 0", "(required)", "The most US dollars allowed."}},
		Example: `{"type": "cost_threshold", "max_usd": 0.01}`},
	{Name: "http_status", Family: "measurements", Summary: "the sample's http_status is one of the expected codes",
		Options: []Option{{"expected", "integer or integer array", "(required)", "The accepted status codes, 100 to 599."}},
		Example: `{"type": "http_status", "expected": [200, 201]}`},

	// Similarity
	{Name: "bleu", Family: "similarity", Summary: "sentence BLEU against the references, on a 0-1 scale",
		About: "Computed as sacreBLEU does by default (13a tokeniser, exponential smoothing), divided by 100. With weights, score = BP * exp(sum of w_n log p_n) for n = 1 .. len(weights), with sacreBLEU's smoothed precisions, no effective order and the weights used as given (not normalised), as NLTK's sentence_bleu(weights=...) uses them; an order the output is too short for scores 0 unless its weight is 0. Not graded when the output or a reference is over 256 KiB (262,144 bytes).",
		Options: append(similarity("0.5"),
			Option{"weights", "1 to 4 numbers >= 0, one > 0", "none (sacreBLEU's 4 equal orders)", "Weights of the log n-gram precisions, for n = 1 .. len(weights)."}),
		Example: `{"type": "bleu", "threshold": 0.4}`},
	{Name: "gleu", Family: "similarity", Summary: "sentence GLEU against the references",
		About:   "Computed as NLTK's sentence_gleu does.",
		Options: similarity("0.5"), Example: `{"type": "gleu", "threshold": 0.4}`},
	{Name: "rouge", Family: "similarity", Summary: "ROUGE-N, ROUGE-L or ROUGE-Lsum against the references",
		About: "Computed as Google's rouge-score does; with several references the best F-measure counts.",
		Options: append(similarity("0.5"),
			Option{"variant", "string", "rougeL", "rouge1 to rouge9 (n-gram overlap), rougeL (longest common subsequence) or rougeLsum (over newline-separated sentences)."},
			Option{"measure", "string", "fmeasure", "Which measure is compared with threshold: fmeasure, precision or recall."},
			Option{"stemmer", "boolean", "false", "Porter-stem tokens longer than three characters."}),
		Example: `{"type": "rouge", "variant": "rouge1", "threshold": 0.6}`},
	{Name: "token_f1", Family: "similarity", Summary: "SQuAD token F1 against the best reference",
		About:   "Lower-cased, punctuation and articles removed, as the SQuAD evaluation does.",
		Options: similarity("0.5"), Example: `{"type": "token_f1", "expected": "the Eiffel Tower"}`},
	{Name: "levenshtein", Family: "similarity", Summary: "1 - edit distance / longer length, over code points",
		About: "With max_distance it passes when the edit distance to the closest reference is at most that many edits, as promptfoo's levenshtein assertion's threshold does; the score is that reference's similarity, and threshold, when also given, must be reached too.",
		Options: append(similarity("0.5"),
			Option{"max_distance", "integer >= 0", "none", "The most code-point edits (insertions, deletions, substitutions) allowed."}),
		Example: `{"type": "levenshtein", "threshold": 0.8}`},
	{Name: "fuzzy_match", Family: "similarity", Summary: "normalised Indel similarity (rapidfuzz's fuzz.ratio on a 0-1 scale)",
		Options: similarity("0.5"), Example: `{"type": "fuzzy_match", "threshold": 0.9}`},
	{Name: "jaro", Family: "similarity", Summary: "Jaro similarity over code points (rapidfuzz's Jaro.normalized_similarity)",
		About:   "Characters match when equal and at most max(len)/2 - 1 positions apart; half the matched characters out of order count as transpositions. Two empty strings score 0, as in rapidfuzz. Not graded when the output's and a reference's lengths multiply past 2^30.",
		Options: similarity("0.5"), Example: `{"type": "jaro", "expected": "MARHTA", "threshold": 0.9}`},
	{Name: "jaro_winkler", Family: "similarity", Summary: "Jaro-Winkler similarity over code points (rapidfuzz's JaroWinkler.normalized_similarity)",
		About: "The Jaro similarity, raised when above 0.7 by prefix_weight * (shared prefix, at most 4 characters) * (1 - Jaro). Same limits as jaro.",
		Options: append(similarity("0.5"),
			Option{"prefix_weight", "number in [0, 0.25]", "0.1", "The weight of each shared leading character."}),
		Example: `{"type": "jaro_winkler", "expected": "MARHTA", "threshold": 0.95}`},
	{Name: "hamming", Family: "similarity", Summary: "1 - differing positions / longer length (rapidfuzz's Hamming.normalized_similarity, padded)",
		About:   "Over code points; the difference in length counts as differing positions, as rapidfuzz's default padding does. Two empty strings score 1.",
		Options: similarity("0.5"), Example: `{"type": "hamming", "expected": "ABC-1234", "threshold": 0.75}`},
	{Name: "chrf", Family: "similarity", Summary: "sentence chrF (or chrF++) against the references, on a 0-1 scale",
		About: "Computed as sacreBLEU's sentence chrF, divided by 100; with several references the one with the best F-score decides, as in sacreBLEU. word_order 2 is chrF++. Not graded when the output or a reference is over 256 KiB (262,144 bytes).",
		Options: append(similarity("0.5"),
			Option{"char_order", "integer, 1 to 32", "6", "The highest character n-gram order."},
			Option{"word_order", "integer, 0 to 32", "0", "The highest word n-gram order; 2 is chrF++."},
			Option{"beta", "integer, 1 to 1000", "2", "Recall weighs beta times precision."},
			Option{"lowercase", "boolean", "false", "Compare case-insensitively."},
			Option{"whitespace", "boolean", "false", "Keep white space in character n-grams."},
			Option{"eps_smoothing", "boolean", "false", "Average every order's F-score (chrF++.py, NLTK) instead of sacreBLEU's effective order."}),
		Example: `{"type": "chrf", "word_order": 2, "threshold": 0.6}`},
	{Name: "json_diff", Family: "similarity", Summary: "partial credit between the output's JSON and the expected value (autoevals' JSONDiff)",
		About: "Objects score the mean over the union of their keys (a key missing on one side scores 0 unless the other side is null), arrays the sum over positions divided by the longer length, strings by string_scorer, numbers by numeric_diff's formula, two nulls 1, mismatched kinds by string_scorer on both sides' JSON text. A string that holds a JSON object or array (the output too) is parsed first; an output that is neither is compared as a string. No references: only expected.",
		Options: []Option{
			{"expected", "any JSON value", "the sample's expected", "The expected value. A string may hold templates such as {{item.KEY}} (docs/templates.md)."},
			threshold("0.5"),
			{"string_scorer", "string", "levenshtein", "How strings compare: levenshtein (over code points, as autoevals' Python version), exact, fuzzy_match, jaro, jaro_winkler or hamming."},
			{"number_scorer", "string", "numeric_diff", "How numbers compare: numeric_diff or exact."},
			{"preserve_strings", "boolean", "false", "Do not parse strings that hold JSON."},
		},
		Example: `{"type": "json_diff", "expected": {"name": "Ada", "born": 1815}, "threshold": 0.9}`},
	{Name: "numeric_diff", Family: "similarity", Summary: "1 - |expected - output| / (|expected| + |output|) (autoevals' NumericDiff)",
		About: "1 when both are 0, so numbers of opposite sign score 0. The trimmed output must be a number, else the grade fails with score 0.",
		Options: []Option{
			{"expected", "number, or a template string", "the sample's expected", "The expected number. " + valueTemplate},
			threshold("0.5"),
		},
		Example: `{"type": "numeric_diff", "expected": 42, "threshold": 0.95}`},
	{Name: "list_contains", Family: "similarity", Summary: "best one-to-one pairing of the output's items with the expected ones (autoevals' ListContains)",
		About: "Each output item is scored against each expected item, the pairing with the highest total is found (the Hungarian method, as autoevals' linear sum assignment) and the total is divided by the longer list's length (the expected list's with allow_extra). Two empty lists score 1, one empty list 0. The output must be a JSON array (non-string items compare as their JSON text), else the grade fails with score 0. Not graded past 500 items a side.",
		Options: []Option{
			{"expected", "array", "the sample's expected (a JSON array)", "The expected items."},
			threshold("0.5"),
			{"allow_extra", "boolean", "false", "Extra output items cost nothing."},
			{"string_scorer", "string", "levenshtein", "How items compare, as for json_diff."},
		},
		Example: `{"type": "list_contains", "expected": ["Paris", "Lyon"], "threshold": 0.8}`},
	{Name: "semantic_similarity", Family: "similarity", Summary: "cosine of the embeddings of the output and the best reference",
		About:   "Uses the configured embedder; without one, the built-in lexical embedder, which measures shared wording rather than meaning and says so in the reason. Negative cosines score 0.",
		Options: similarity("0.8"), Example: `{"type": "semantic_similarity", "threshold": 0.85}`},
	{Name: "localization_f1", Family: "similarity", Summary: "cited path:start-end lines against the expected locations",
		About: "Scores files and line overlap. An output that cites nothing or cannot be read fails, even at threshold 0.",
		Options: []Option{
			{"expected", "string or object", "the sample's expected", "The right locations: path:start-end citations, or an object mapping a file to ranges. A string may hold templates such as {{item.KEY}} (docs/templates.md)."},
			threshold("0.5"),
		},
		Example: `{"type": "localization_f1", "expected": "src/auth.go:10-24"}`},
	{Name: "context_f1", Family: "similarity", Summary: "precision, recall or F1 of the retrieved context items against the relevant ones",
		About: `Items given as {"id": ...} match by id; text items match when equal after folding case and white space.`,
		Options: []Option{
			{"expected_contexts", "array of strings or {\"id\": ...} objects", "the sample's references", "The relevant items."},
			{"measure", "string", "f1", "f1, precision or recall."},
			threshold("0.5"),
		},
		Example: `{"type": "context_f1", "measure": "recall", "threshold": 0.8}`},

	// Network
	{Name: "custom_webhook", Family: "network", Summary: "an HTTP service of yours decides",
		About: `POSTs {"candidate": output} and reads a JSON reply {"passed": bool, "score": number, "reason": string} of which passed is required. Redirects are refused, and so are private, loopback and other non-public addresses, checked when connecting. An unreachable service or a bad reply is not graded, with the reason.`,
		Options: []Option{
			{"url", "string", "(required)", "Where to POST."},
			{"timeout_ms", "integer, 1 to 10000", "10000", "Bound on the whole call."},
			{"headers", "object of strings", "none", "Headers to add (not Host, Content-Length, Content-Type, Transfer-Encoding, Connection or the signature header)."},
			{"send", "string array", "none", "More of the sample to send: id, input, expected."},
			{"sign_secret_env", "string", "the configured key", "An environment variable holding a key; each request is signed with HMAC-SHA256 in the X-Proctor-Signature header (t=UNIX,v1=HEX)."},
		},
		Example: `{"type": "custom_webhook", "url": "https://grader.example.com/check", "send": ["input"]}`},

	// Judges
	{Name: "llm_judge", Family: "judges", Summary: "a judge gives a pass or fail verdict on a rubric",
		About:   "The judge reasons first and may abstain; an abstention is not graded.",
		Options: []Option{judgeRubric},
		Example: `{"type": "llm_judge", "rubric": "The reply apologises and offers a refund."}`},
	{Name: "llm_score", Family: "judges", Summary: "a judge scores the output on a scale",
		About: "Give scale with pass_at, or range [0, 1] with threshold.",
		Options: []Option{
			{"rubric", "string", "(required without prompt)", "What the judge checks, in plain words. " + templates},
			{"prompt", "string", "none", "Your own judge prompt, sent in place of proctor's (an MT-Bench prompt, say), with the template variables `{{input}}`, `{{output}}`, `{{expected}}`, `{{item.KEY}}`. The reply is read in the shape the prompt asks for (`Rating: [[8]]`, `[RESULT] 4`, ...) on `scale`. It carries no nonce tags, so it has none of the defence proctor's prompts have against an output that imitates a verdict."},
			{"scale", "two integers [low, high]", "[1, 4]", "The scale the judge scores on."},
			{"pass_at", "integer", "3 on [1, 4]; else two thirds up the scale", "The lowest passing score."},
			{"range", "[0, 1]", "none", "Score on [0, 1] instead of a scale."},
			{"threshold", "number in [0, 1]", "(required with range)", "The lowest passing score on range."},
			{"whole_scores", "boolean", "false", "Refuse half points on the scale: a reply scoring 3.5 is then unreadable. By default a half point (MT-Bench's `[[8.5]]`) is read as written."},
		},
		Example: `{"type": "llm_score", "rubric": "How complete is the answer?", "scale": [1, 5], "pass_at": 4}`},
	{Name: "llm_category", Family: "judges", Summary: "a judge puts the output in a category",
		Options: []Option{
			{"categories", "string array", "(required)", "The categories the judge chooses from."},
			{"pass", "string array", "(required)", "The categories that pass."},
			{"rubric", "string", "none", "What the categories mean. " + templates},
		},
		Example: `{"type": "llm_category", "categories": ["resolved", "escalated", "ignored"], "pass": ["resolved"]}`},
	{Name: "llm_pairwise", Family: "judges", Summary: "a judge compares the output with a baseline",
		About: "Judged in both orders; a verdict that flips with the order is an abstention.",
		Options: []Option{
			{"baseline", "string", "(required)", "The answer to beat. " + templates},
			{"rubric", "string", "none", "What better means. " + templates},
			{"prompt", "string", "none", "Your own judge prompt, sent in place of proctor's (an arena-hard or MT-Bench pairwise prompt, say), in both orders. `{{answer_a}}` and `{{answer_b}}` place the two answers (both required); `{{input}}`, `{{expected}}` and `{{item.KEY}}` are the sample's. The reply is read in the shape the prompt asks for: `[[A>>B]]` … `[[B>>A]]`, `[[A=B]]`, `[[A]]`, `[[B]]`, `[[C]]`, a ranking. It carries no nonce tags."},
		},
		Example: `{"type": "llm_pairwise", "baseline": "{{item.previous_answer}}"}`},
	{Name: "llm_answer_match", Family: "judges", Summary: "a judge decides whether the output means the same as the expected answer",
		Options: []Option{{"expected", "string", "the sample's expected", "The answer to match. " + valueTemplate}},
		Example: `{"type": "llm_answer_match"}`},
	{Name: "faithfulness", Family: "judges", Summary: "a judge checks that the output claims nothing the context does not support",
		Example: `{"type": "faithfulness"}`},
	{Name: "relevance", Family: "judges", Summary: "a judge checks that the output answers the input",
		Example: `{"type": "relevance"}`},
	{Name: "hallucination", Family: "judges", Summary: "a judge checks the output for invented facts",
		Example: `{"type": "hallucination"}`},
	{Name: "toxicity", Family: "judges", Summary: "a judge checks the output for abusive or hateful content",
		Example: `{"type": "toxicity"}`},

	// Combinators
	{Name: "all", Family: "combinators", Summary: "every nested spec passes",
		Options: []Option{{"graders", "spec array", "(required)", "The nested specs."}},
		Example: `{"type": "all", "graders": [{"type": "json_valid"}, {"type": "contains", "value": "id"}]}`},
	{Name: "any", Family: "combinators", Summary: "at least one nested spec passes",
		Options: []Option{{"graders", "spec array", "(required)", "The nested specs."}},
		Example: `{"type": "any", "graders": [{"type": "contains", "value": "refund"}, {"type": "contains", "value": "credit"}]}`},
	{Name: "not", Family: "combinators", Summary: "the nested spec fails",
		Options: []Option{{"grader", "spec", "(required)", "The nested spec."}},
		Example: `{"type": "not", "grader": {"type": "contains", "value": "TODO"}}`},
	{Name: "weighted", Family: "combinators", Summary: "the weighted mean of the nested specs' scores",
		About: "promptfoo's assert-set with a threshold. A nested spec's score is its own when it has one, else 1 for passed and 0 for failed. Nested specs not graded (or flaky) are left out of the mean with their weights, and the reason names each with its reason; weight 0 runs but does not count. Not graded when no weighted spec was graded. Evidence maps each nested spec's name to its score (null when left out).",
		Options: []Option{
			{"graders", "spec array, or object of name to spec", "(required)", "The nested specs."},
			{"weights", "number array (one per spec), or object of name to number", "all 1", "Weights >= 0, not all 0."},
			{"threshold", "number in [0, 1]", "none", "The least passing weighted score; without it every counted spec must pass."},
		},
		Example: `{"type": "weighted", "threshold": 0.7, "graders": {"facts": {"type": "contains", "value": "Paris"}, "tone": {"type": "length", "max_words": 80}}, "weights": {"facts": 3, "tone": 1}}`},
}
