package proctor

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDiskEntryMAC(t *testing.T) {
	secret := []byte("0123456789abcdef")
	e := diskEntry{Judge: "j", PromptVersion: PromptVersion, Text: `{"verdict":"fail"}`}
	mac := e.mac(secret, "k1")
	for name, other := range map[string]string{
		"another key":    diskEntry{Judge: "j", PromptVersion: PromptVersion, Text: e.Text}.mac(secret, "k2"),
		"another text":   diskEntry{Judge: "j", PromptVersion: PromptVersion, Text: `{"verdict":"pass"}`}.mac(secret, "k1"),
		"another secret": e.mac([]byte("fedcba9876543210"), "k1"),
	} {
		if other == mac {
			t.Errorf("%s gives the same MAC", name)
		}
	}
	e.MAC = "ignored"
	if e.mac(secret, "k1") != mac {
		t.Error("the MAC covers its own field")
	}
}

func TestLoadCacheKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	k1, err := loadCacheKey(dir)
	if err != nil || len(k1) != 32 {
		t.Fatalf("loadCacheKey = %x, %v", k1, err)
	}
	fi, err := os.Stat(filepath.Join(dir, JudgeCacheKeyFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file %v, %v: want mode 0600", fi, err)
	}
	k2, err := loadCacheKey(dir)
	if err != nil || string(k1) != string(k2) {
		t.Errorf("second load gave another key: %v", err)
	}
	os.WriteFile(filepath.Join(dir, JudgeCacheKeyFile), []byte("abcd"), 0o600)
	if _, err := loadCacheKey(dir); err == nil {
		t.Error("a 2-byte key was accepted")
	}
}
