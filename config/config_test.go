package config_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/config"
)

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	c, err := config.Load("")
	if err != nil || c.Options() != nil || c.Judges() != nil {
		t.Errorf("no path: %v, %v", err, c)
	}
	c, err = config.Load(write("j.yaml", "judges:\n  - {name: s, type: scripted, family: f, replies: [{reply: ok}]}\njudge_timeout_ms: 100\n"))
	if err != nil || len(c.Options()) != 2 || c.Judges() == nil || c.Judges().Stats()[0].Name != "s" {
		t.Errorf("scripted judge: %v, %d options", err, len(c.Options()))
	}
	for _, tt := range []struct{ name, body, want string }{
		{"bad.json", "{\n\"judges\": [{\"name\": 5}]}", `bad.json: line 2: field "judges.name": want a string, got a number`},
		{"unknown.json", `{"judgez": []}`, `unknown.json: unknown field "judgez"`},
		{"nofamily.yaml", "judges: [{name: j, model: m, base_url: 'http://127.0.0.1:1/v1'}]", "judges[0] (j): family is required"},
		{"noreply.yaml", "judges: [{name: j, type: scripted, family: f}]", "a scripted judge needs replies"},
	} {
		if _, err := config.Load(write(tt.name, tt.body)); err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "Go struct") {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := config.Load(filepath.Join(dir, "missing.yaml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
}

// TestForSuite: a suite's config file may not set judge_cache (files a
// suite names stay in its folder); anything else reads as Load reads it.
func TestForSuite(t *testing.T) {
	c, err := config.ForSuite("j.yaml", []byte("judges: [{name: s, type: scripted, family: f, replies: [{reply: ok}]}]\n"))
	if err != nil || len(c.Options()) != 1 || c.Judges() == nil || len(c.CompilerOptions()) != 1 {
		t.Errorf("%v, %d options, %d compiler options", err, len(c.Options()), len(c.CompilerOptions()))
	}
	if _, err := config.ForSuite("j.yaml", []byte("judge_cache: /tmp/x\n")); err == nil || !strings.Contains(err.Error(), "judge_cache") {
		t.Errorf("judge_cache in a suite's config: %v", err)
	}
}
