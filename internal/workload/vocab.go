package workload

// vocab holds the word lists the generator draws from. Their contents and
// order are part of the workload: changing one changes every sample after
// the first draw from it, and the recorded SHA256 with it.
var vocab = struct {
	cities, openers, subjects, verbs, objects, tails, connectors []string
	headings, closers, answers, fillers                          []string
	models, statuses, words, firstNames, lastNames               []string
	fenceBefore, fenceAfter                                      []string
}{
	// Paris thrice: the contains check looks for it.
	cities: []string{"Paris", "Paris", "Paris", "Tokyo", "Berlin", "Madrid", "Lisbon", "Nairobi", "Toronto", "Sydney", "Seoul", "Lima"},
	openers: []string{
		"Sure! Here's a concise overview.",
		"Great question.",
		"Certainly.",
		"Based on the information provided, here is my analysis.",
		"Short answer: it depends on the context, but there is a clear default.",
		"Here is a step-by-step explanation.",
		"Let me break this down.",
		"I reviewed the details you shared.",
		"There are a few things to consider here.",
	},
	subjects: []string{
		"The model", "This approach", "The city of %CITY%", "Our team", "The dataset", "A well-designed cache",
		"The committee", "Each request", "The new policy", "The migration plan", "A smaller batch size",
		"The evaluation suite", "The regional office in %CITY%", "The average user", "The retrieval step",
		"The second option", "An index on the timestamp column", "The quarterly report", "The scheduler",
	},
	verbs: []string{
		"improves", "reduces", "depends on", "requires", "supports", "highlights", "affects", "balances",
		"increases", "simplifies", "complicates", "protects", "doubles", "limits", "explains", "predicts",
	},
	objects: []string{
		"the overall latency", "memory usage", "the accuracy of the results", "long-term maintenance costs",
		"user trust", "the number of retries", "throughput under load", "the cost per request",
		"the risk of data loss", "the onboarding experience", "tourism in %CITY%", "the error budget",
		"the size of the context window", "response quality", "the time to first token", "energy consumption",
	},
	tails: []string{
		" in most production settings", " when the input is large", ", especially during peak hours",
		" by roughly %NUM%%", " according to the %YEAR% report", "", "", " compared with the baseline",
		" for teams of fewer than %NUM% people", " without changing the public API", " in %CITY% and nearby regions",
		" if the configuration is left at its defaults", " over a %NUM%-day window",
	},
	connectors: []string{
		"However, ", "In addition, ", "As a result, ", "For example, ", "In practice, ", "That said, ",
		"Notably, ", "On the other hand, ", "", "", "",
	},
	headings: []string{"Performance", "Cost", "Reliability", "Security", "Trade-offs", "Next steps", "Context", "Recommendation", "Risks"},
	closers: []string{
		"In summary, the recommended option is the simplest one that meets the requirements.",
		"Let me know if you would like a more detailed comparison.",
		"I hope this helps!",
		"Overall, the evidence points in one direction, although some uncertainty remains.",
	},
	answers:     []string{"%CITY%", "%NUM%", "Option B", "yes", "no", "the second approach", "%NUM% percent", "%CITY%, France", "approximately %NUM% days"},
	fillers:     []string{"basically", "really", "quite", "clearly", "generally", "typically", "somewhat", "mostly", "often", "rarely", "data", "system", "value", "result", "policy", "update", "signal", "model", "budget", "metric"},
	models:      []string{"gpt-4o-mini", "gpt-4o-mini", "gpt-4o", "claude-3-5-sonnet", "llama-3.1-70b", "mistral-large"},
	statuses:    []string{"ok", "ok", "ok", "error", "pending"},
	words:       []string{"alpha", "beta", "gamma", "delta", "release", "billing", "search", "latency", "invoice", "customer", "refund", "report", "cache", "vector", "region", "quota", "tenant", "shipping", "pricing", "support"},
	firstNames:  []string{"Ana", "Kenji", "Lena", "Omar", "Priya", "Lucas", "Mei", "Tariq", "Sofia", "Jonas"},
	lastNames:   []string{"Silva", "Tanaka", "Meyer", "Haddad", "Sharma", "Martin", "Chen", "Aziz", "Rossi", "Berg"},
	fenceBefore: []string{"", "", "Here is the JSON object you asked for:\n\n", "Sure! Below is the structured result.\n\n", "```json\n"},
	fenceAfter:  []string{"", "", "\n\nLet me know if you need any changes.", "\n\nNote: the score field is normalized to the range 0-1."},
}
