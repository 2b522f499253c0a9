package main

import (
	"context"
	"fmt"
	"io"
)

func cmdCompare(_ context.Context, _ []string, _ io.Reader, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "proctor compare: not built yet")
	return exitUsage
}
