package suite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// baseEnv names the variables of proctor's environment every command
// subject gets, when set. SYSTEMROOT is what a Windows program needs to
// start at all.
var baseEnv = []string{"PATH", "HOME", "LANG", "TMPDIR", "SYSTEMROOT"}

// subjectEnviron builds a command subject's environment from the base
// variables and list (see [CommandOptions.Env]); a later entry wins.
func subjectEnviron(list []string) []string {
	vars := map[string]string{}
	var order []string
	set := func(name, value string) {
		if _, ok := vars[name]; !ok {
			order = append(order, name)
		}
		vars[name] = value
	}
	for _, e := range append(append([]string(nil), baseEnv...), list...) {
		if name, value, ok := strings.Cut(e, "="); ok {
			set(name, value)
		} else if v, ok := os.LookupEnv(e); ok {
			set(e, v)
		}
	}
	env := make([]string, 0, len(order))
	for _, name := range order {
		env = append(env, name+"="+vars[name])
	}
	return env
}

// subjectEnv reads subject.env: a list of "NAME" (passed on) and
// "NAME=value" (set) entries.
func (s *Suite) subjectEnv(n *node) ([]string, error) {
	list, err := s.strings(n, "subject.env")
	if err != nil {
		return nil, err
	}
	for i, e := range list {
		name, _, _ := strings.Cut(e, "=")
		if name == "" || strings.ContainsAny(name, "\x00") {
			return nil, s.errAt(n, fmt.Sprintf("subject.env[%d]", i), "want NAME or NAME=value, got %q", e)
		}
	}
	return list, nil
}

// errLeavesFolder is the error of a relative program path that resolves
// outside the suite's folder.
var errLeavesFolder = errors.New("leaves the suite's folder: a relative program path must stay inside it")

// confineProgram resolves a relative program path (one with a slash)
// inside the suite's folder: the file must exist there as a regular file,
// reached through the folder's root, and its real path, symbolic links
// followed, must stay inside the folder. It returns the real path, which
// the subject runs; a name without a slash (looked up in PATH) and an
// absolute path are returned as they are.
func (s *Suite) confineProgram(prog string) (string, error) {
	if !strings.ContainsRune(prog, '/') || filepath.IsAbs(prog) {
		return prog, nil
	}
	if !filepath.IsLocal(prog) {
		return "", fmt.Errorf("%q %w", prog, errLeavesFolder)
	}
	fi, err := s.root.Stat(prog)
	if err != nil {
		if strings.Contains(err.Error(), "path escapes") { // os.Root's error has no exported sentinel
			return "", fmt.Errorf("%q %w (through a symbolic link)", prog, errLeavesFolder)
		}
		return "", fmt.Errorf("%q: %w", prog, err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%q is not a regular file", prog)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(s.Path))
	if err != nil {
		return "", fmt.Errorf("%q: %w", prog, err)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(dir, prog))
	if err != nil {
		return "", fmt.Errorf("%q: %w", prog, err)
	}
	if rel, err := filepath.Rel(dir, real); err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%q %w", prog, errLeavesFolder)
	}
	return filepath.Abs(real)
}
