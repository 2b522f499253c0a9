// Package pyworker holds the Python program that runs python graders: it
// loads a grader's source once and answers one JSON line per request. The
// Go side that starts and talks to it lives in the proctor package.
package pyworker

import _ "embed"

//go:embed worker.py
var script string

// Script returns the worker program's source, to run with `python3 -c`.
// Its protocol: the first line sent is {"source", "memory_mb"}, answered by
// {"ok": true, "by_name": bool} or {"ok": false, "fatal": true, "error"};
// then each line {"sample", "item"} is answered by {"ok": true, "score"} or
// {"ok": false, "error", "memory"?}. The grader's prints go to stderr.
func Script() string { return script }
