// Package proctor grades the outputs of large language models: it checks
// an answer against what it must contain, match or avoid, combines the
// checks of one attempt and the attempts of one case into a verdict, and
// reports the pass rate without ever folding "could not tell" into pass or
// fail.
//
// Proctor is a library first. It ships graders, spec loading and a runner;
// it calls no model by itself. Judges and embedders are functions the
// caller injects, and the proctor command (cmd/proctor) is a thin layer
// over the public API that other tools can call as a subprocess.
//
// # Statuses
//
// A [Grade] has one of three statuses: [StatusPassed], [StatusFailed] and
// [StatusNotGraded], the zero value, for a grader that could not do its job
// (no expected value, no judge, a missing measurement, a panic). A case
// run several times can also be [StatusFlaky]: some attempts passed and
// some failed. [AttemptVerdict] combines the grades of one attempt (any
// failure fails it; otherwise any not-graded check leaves it not graded)
// and [CaseVerdict] the verdicts of a case's attempts. A [Report] counts
// the four verdicts apart; its pass rate is passed / (passed + failed), and
// is not available, never 0 or 1, when nothing passed or failed.
// Package [github.com/proctorhq/proctor/reports] compares two runs'
// reports and merges the reports of a run's shards.
//
// # Graders
//
// A [Grader] has a name and a Grade method. Built-in graders are built
// with NewX functions taking an XOptions struct whose zero value is the
// documented default ([NewExactMatch], [NewContains], [NewStartsWith],
// [NewOneOf], [NewRegex], ...); they are immutable once built and safe for
// concurrent use. A failing output is a failed grade with a reason, never
// an error. A [Check] adds what a case needs to know about a grader: whether
// it is required, the criterion it reads and its severity.
//
// Beyond text, structure ([NewJSONSchema], [NewJSONPathEquals]) and answers
// ([NewChoice], [NewNumeric]), graders ask a service ([NewCustomWebhook]).
// The similarity graders (package similarity: BLEU, ROUGE, token F1, edit
// distances, and semantic similarity over an [EmbeddingProvider] given
// with [WithEmbedder]; the formulas themselves, callable on plain strings,
// are in package metric), the tool and agent graders (package agent), the
// disclosure graders (package disclosure) and the code graders (package
// code) are families built on this package's public API; package builtin
// gives a [Compiler] all of them.
// Network graders refuse loopback, private and other special-purpose
// addresses when they dial, after DNS, unless [WithNetworkAllow] allows
// them; nothing leaves the machine unless the caller wires it.
//
// # Specs
//
// A [Compiler] builds checks from declarative specs, JSON objects with a
// "type" and options, as docs/spec.md describes them (and `proctor types`
// prints them); the same vocabulary is used by suite files and by
// `proctor grade`. Loading is fail-closed: an unknown
// type, an unknown or ill-typed option, a value out of range or a missing
// option is a [*SpecError] naming the spec, the option and what was
// expected. Specs written in YAML go through the yamlspec subpackage first,
// so this package imports no YAML library. [Compiler.Register] adds custom
// spec types.
//
// The options that hold a value to compare with (exact_match's expected,
// contains' values, a regex pattern, the similarity references, ...) are
// templates, as string_check's are: {{item.KEY}}, {{input}}, {{output}},
// {{sample.output_text}} and {{expected}} render from each sample, a
// variable the sample lacks is [StatusNotGraded] with [ErrMissingVariable],
// and in a pattern a value matches as literal text. A value without
// variables costs what a literal always did. docs/templates.md has the
// rules.
//
// OpenAI-evals grader objects (string_check, text_similarity, score_model,
// label_model, multi, python) are specs as they stand, with OpenAI's field
// names, given to a Compiler by package openaievals (or builtin), whose
// CompileTestingCriteria reads a testing_criteria list. A grader that
// writes its own judge prompt, as score_model does, asks the judges
// through [Judging].
//
// # Judges and panels
//
// Model-graded checks ([NewLLMJudge], [NewLLMScore], [NewLLMCategory],
// [NewLLMPairwise], [NewLLMAnswerMatch]) ask a [Judge], a function the
// caller injects as a [JudgeModel] with its model and family through
// [WithJudges] given to the grader or to the [Runner] that runs it; without
// one they are not graded, with [ErrNoJudge] as the cause. Binary
// verdicts come with the reasoning first and may abstain. A verdict in
// doubt (low confidence, a deterministic check with the same
// criterion disagreeing, a high or critical severity, an abstention) goes
// to a panel of judges from other model families, whose verdict needs two
// votes that took a side and a majority of them; a same-family judge is
// refused unless the caller allows it, and then the report says so in its
// caveats.
// Judges see the check's case, severity and earlier grades through
// [CheckInfoFrom]. Every judge asked is in the grade's [JudgeEvidence];
// identical calls are coalesced and cached, transient errors retried
// ([JudgePolicy.Retry]), spending capped ([JudgePolicy.Budget]) and judged text
// redacted where the caller asks ([WithRedactor]). The subpackage
// [github.com/proctorhq/proctor/judges/openai] adapts OpenAI-compatible
// chat and embeddings endpoints to a [Judge] and an [EmbeddingProvider],
// using only net/http.
//
// # Concurrency
//
// A [Runner] ([NewRunner]) grades cases at most [WithConcurrency] (default
// 4) at a time and returns results in input order. Within an attempt,
// checks run deterministic first, then network, then model-graded
// ([Kinded]), whatever order they were given in, and an attempt stops at
// the first required check that fails or is not graded, so no judge is
// paid to read an answer that already broke its contract. A grader that panics is not graded with the
// panic message and the run goes on. When the context is cancelled,
// [Runner.Run] returns the report of the cases graded in full together
// with ctx.Err(), and leaves no goroutine behind.
//
// # Writing a grader
//
// Implement [Grader], or wrap a function with [Func]. Return a failed
// grade with a reason when the output breaks the check and a not-graded
// grade when the grader cannot decide ([NotGraded], [ErrorGrade]); never
// panic on input and never treat missing evidence as a pass. Compile what
// can be compiled when the grader is built, not per sample. A grader that
// calls a service or a model implements [Kinded], so a Runner orders it
// after the deterministic checks. The proctortest subpackage checks a
// grader against this contract
// ([github.com/proctorhq/proctor/proctortest.TestGrader]) and runs cases as
// subtests.
package proctor
