package main

import (
	"context"
	"fmt"
	"io"
)

func cmdReport(_ context.Context, _ []string, _ io.Reader, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "proctor report: not built yet")
	return exitUsage
}
