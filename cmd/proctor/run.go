package main

import (
	"context"
	"fmt"
	"io"
)

func cmdRun(_ context.Context, _ []string, _ io.Reader, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "proctor run: not built yet")
	return exitUsage
}
