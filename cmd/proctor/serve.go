package main

import (
	"context"
	"fmt"
	"io"
)

func cmdServe(_ context.Context, _ []string, _ io.Reader, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "proctor serve: not built yet")
	return exitUsage
}
