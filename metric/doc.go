// Package metric computes text and evaluation metrics from plain values,
// with no grader, spec or run around them: BLEU, GLEU and chrF,
// Levenshtein and Indel similarity, SQuAD token F1 and exact match, ROUGE,
// code localization F1, autoevals' NumericDiff and ListContains, ragas'
// ToolCallAccuracy and tool-call F1, McNemar's exact test, the Wilson
// interval and pass@k, and the statistics of comparing and trusting pass
// rates: Newcombe's interval for a paired difference, non-inferiority at a
// margin, the minimum detectable difference and sample size for paired
// pass/fail outcomes, cluster-robust standard errors and a cluster
// bootstrap, the Rogan-Gladen pass rate corrected for a grader's own
// errors, and Krippendorff's alpha for the agreement of a panel's judges.
//
// Each function reproduces a published reference implementation (named in
// its doc comment, such as sacreBLEU, NLTK, rapidfuzz, the SQuAD v2
// evaluation script, Google's rouge-score, autoevals, ragas or
// statsmodels) and is tested against that implementation's own published
// values. Scores are on a 0-1 scale. Every function is safe for concurrent
// use and keeps no state between calls.
//
// The graders of package proctor (BLEU, GLEU, ChrF, Levenshtein,
// FuzzyMatch, TokenF1, Rouge, LocalizationF1, NumericDiff, ListContains)
// and of package agent (ToolSequence with calls, ToolCallF1) compute their
// scores here, and the report writers of package reportfmt take their
// intervals and pass@k from here; call this package directly to score
// texts outside a run.
package metric
