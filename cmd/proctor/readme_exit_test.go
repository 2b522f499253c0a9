package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEExitCodes runs the README's exit-code commands and checks each
// prints the status its comment gives: the built binary (this test binary
// acting as proctor) reports 1, 2 and 3, and `go run` turns 2 into 1 with
// "exit status 2" on standard error.
func TestREADMEExitCodes(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i := strings.Index(s, "```sh\ngo build -o proctor ./cmd/proctor\n")
	if i < 0 {
		t.Fatal("README.md shows no exit-code commands with a built binary")
	}
	block := s[i+len("```sh\n"):]
	block = block[:strings.Index(block, "```")]
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "proctor")
	script := "#!/bin/sh\n" + asCLI + "=1 exec '" + exe + "' \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`#\s*(\d)\b(?:, after "(exit status \d)")?`)
	lines := strings.Split(strings.TrimSpace(block), "\n")[1:] // the build is done
	if len(lines) < 4 {
		t.Fatalf("only %d commands in the block", len(lines))
	}
	for _, ln := range lines {
		m := want.FindStringSubmatch(ln)
		if m == nil {
			t.Fatalf("command %q has no expected status in its comment", ln)
		}
		cmdline := strings.ReplaceAll(ln, "./proctor ", wrapper+" ")
		if strings.Contains(ln, "go run ") {
			if testing.Short() {
				continue
			}
			if _, err := exec.LookPath("go"); err != nil {
				t.Log("no go command: the go run line is not checked")
				continue
			}
		}
		cmd := exec.Command("sh", "-c", cmdline)
		cmd.Dir = "../.."
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", ln, err)
		}
		outLines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if got := outLines[len(outLines)-1]; got != m[1] {
			t.Errorf("%s\nprinted %q, want status %s", ln, got, m[1])
		}
		if m[2] != "" && !strings.Contains(stderr.String(), m[2]) {
			t.Errorf("%s\nstandard error %q lacks %q", ln, stderr.String(), m[2])
		}
	}
}
