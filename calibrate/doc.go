// Package calibrate measures how well a grader agrees with people: [Run]
// grades labelled samples and counts the grader's verdicts against the
// labels (agreement, Cohen's kappa, abstentions, and the sensitivity and
// specificity a corrected pass rate needs). [Parse] reads back what
// `proctor calibrate --json` writes, for reports that correct a
// model-graded check's pass rate for its judge's error.
//
// The package is one of proctor's families built on the root package's
// public API; it has no spec types.
package calibrate
