package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/builtin"
)

func runTypes(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"types"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestTypesListsEveryType: proctor types prints one line per spec type the
// Compiler knows, each with a summary.
func TestTypesListsEveryType(t *testing.T) {
	code, out, errs := runTypes(t)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	types := proctor.NewCompiler(builtin.Types()).Types()
	if len(lines) != len(types) {
		t.Errorf("%d lines, want one per type (%d)", len(lines), len(types))
	}
	listed := map[string]bool{}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) < 2 {
			t.Errorf("line %q has no summary", l)
			continue
		}
		listed[f[0]] = true
	}
	for _, typ := range types {
		if !listed[typ] {
			t.Errorf("type %s is not listed", typ)
		}
	}
}

// TestTypesName: proctor types NAME prints every option the Compiler
// reads for the type, and an example.
func TestTypesName(t *testing.T) {
	c := proctor.NewCompiler()
	for _, typ := range []string{"regex", "json_path", "llm_score", "custom_webhook"} {
		code, out, errs := runTypes(t, typ)
		if code != exitOK || errs != "" {
			t.Fatalf("%s: exit %d, stderr %q", typ, code, errs)
		}
		opts, _ := c.Options(typ)
		for _, o := range opts {
			if !strings.Contains(out, "\n  "+o+" ") {
				t.Errorf("%s: option %s not printed:\n%s", typ, o, out)
			}
		}
		if !strings.HasPrefix(out, typ+": ") || !strings.Contains(out, "Example:\n  {\"type\": \""+typ+"\"") {
			t.Errorf("%s: no summary line or example:\n%s", typ, out)
		}
	}
	code, out, _ := runTypes(t, "--common")
	if code != exitOK || !strings.Contains(out, "severity") {
		t.Errorf("--common: exit %d\n%s", code, out)
	}
}

func TestTypesErrors(t *testing.T) {
	code, out, errs := runTypes(t, "regexx")
	if code != exitUsage || out != "" || !strings.Contains(errs, `unknown spec type "regexx"`) || !strings.Contains(errs, `did you mean "regex"?`) {
		t.Errorf("unknown type: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, _ := runTypes(t, "a", "b"); code != exitUsage {
		t.Errorf("two names: exit %d, want %d", code, exitUsage)
	}
	code, out, errs = runTypes(t, "--help")
	if code != exitOK || !strings.HasPrefix(out, "usage: proctor types") || errs != "" {
		t.Errorf("--help: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
