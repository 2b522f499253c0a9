// Package pyworker holds the Python program that runs python graders: it
// loads a grader's source once and answers one JSON line per request. The
// Go side that starts and talks to it lives in the proctor package.
package pyworker

import _ "embed"

//go:embed worker.py
var script string

// Script returns the worker program's source, to run with `python3 -c`
// and a pipe for replies on descriptor 3. Its protocol: requests are JSON
// lines on stdin, each with a "nonce"; each is answered on descriptor 3 by
// one frame, "NONCE LENGTH\n" followed by LENGTH bytes of JSON, NONCE
// being the request's. The first request {"nonce", "source", "memory_mb"}
// is answered by {"ok": true, "by_name": bool} or {"ok": false, "fatal":
// true, "error"}; then each {"nonce", "sample", "item"} by {"ok": true,
// "score"} or {"ok": false, "error", "memory"?}. The grader's prints go to
// stderr.
func Script() string { return script }
