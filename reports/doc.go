// Package reports compares and merges the reports of proctor runs
// ([proctor.Report]), on the root package's public API only.
//
// [Compare] pairs the cases of a base and a head run of one suite by id
// and returns a [Comparison]: the regressions, the fixes and the other
// verdict changes, with the exact McNemar test, the paired difference in
// pass rate with its interval ([Difference]), the smallest difference the
// runs could detect ([MDE]) and warnings when the suites or the judges
// differ. [CompareWith] adds a non-inferiority test at a margin
// ([CompareOptions]); [CompareVerdicts] compares reports too large to
// hold, from each case's id, verdict and cluster ([ComparedCase]).
// proctor compare prints these figures and docs/statistics.md explains
// them.
//
// [Merge] joins the reports of the shards of one run (proctor run --shard
// I/N, each recording its [proctor.ReportShard]) into the report of the
// whole run, its cases in the whole run's order; [MergeWith] names the
// reports in its errors and may merge a partial set ([MergeOptions]). A
// set that is not the shards of one run is refused with an error
// wrapping [ErrSuiteMismatch], [ErrDuplicateCase], [ErrRepeatedShard] or
// [ErrIncompleteShards]. proctor report merge does the same on files,
// as streams (docs/sharding.md).
package reports
