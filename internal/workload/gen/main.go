// Command gen writes the benchmark workload (see package workload) to a
// file and prints its sha256, for use outside the Go benchmarks:
//
//	go run ./internal/workload/gen -out /tmp/proctor-workload.jsonl
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/proctorhq/proctor/internal/workload"
)

func main() {
	out := flag.String("out", "proctor-workload.jsonl", "file to write")
	n := flag.Int("n", workload.Samples, "number of samples")
	seed := flag.Uint64("seed", workload.Seed, "seed of the generator")
	flag.Parse()
	if err := write(*out, *n, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func write(path string, n int, seed uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	h := sha256.New()
	err = workload.Generate(io.MultiWriter(f, h), n, seed)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Printf("wrote %s: %d samples, sha256 %s\n", path, n, hex.EncodeToString(h.Sum(nil)))
	return nil
}
