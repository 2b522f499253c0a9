// Command proctor grades LLM outputs from the command line: `proctor grade`
// reads JSONL samples and writes JSONL results (docs/formats.md).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit statuses, as docs/exit-codes.md gives them.
const (
	exitOK     = 0 // nothing failed
	exitFailed = 1 // something failed
	exitUsage  = 2 // usage or spec error
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first signal, a second one ends the process at once,
		// even while a read from standard input is blocked.
		<-ctx.Done()
		stop()
	}()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const usage = `usage: proctor <command> [flags]

commands:
  grade      grade JSONL samples with a grader spec, writing JSONL results
  run        run a suite file and write reports
  report     report merge: join shard reports
  compare    compare two reports: regressions, fixes, McNemar's test
  calibrate  measure a judge grader against human labels
  serve      serve grading over HTTP on loopback
  types      list the spec types, or one type's options
`

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "grade":
		return cmdGrade(ctx, args[1:], stdin, stdout, stderr)
	case "run":
		return cmdRun(ctx, args[1:], stdin, stdout, stderr)
	case "report":
		return cmdReport(ctx, args[1:], stdin, stdout, stderr)
	case "compare":
		return cmdCompare(ctx, args[1:], stdin, stdout, stderr)
	case "calibrate":
		return cmdCalibrate(ctx, args[1:], stdin, stdout, stderr)
	case "serve":
		return cmdServe(ctx, args[1:], stdin, stdout, stderr)
	case "types":
		return cmdTypes(ctx, args[1:], stdin, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "proctor: unknown command %q\n%s", args[0], usage)
	return exitUsage
}
