package main

import (
	"context"
	"fmt"
	"io"
)

func cmdCalibrate(_ context.Context, _ []string, _ io.Reader, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "proctor calibrate: not built yet")
	return exitUsage
}
