package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestGradeWebhookAllowList shows that a custom_webhook on a private
// address is refused unless the --config network.allow list opens it, and
// that the signing key from webhook.signing_key_env is used.
func TestGradeWebhookAllowList(t *testing.T) {
	var (
		mu   sync.Mutex
		sigs []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sigs = append(sigs, r.Header.Get("X-Proctor-Signature"))
		mu.Unlock()
		var body struct {
			Candidate string `json:"candidate"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		_ = json.NewEncoder(w).Encode(map[string]any{"passed": strings.Contains(body.Candidate, "Paris")})
	}))
	defer srv.Close()
	spec := `{"type":"custom_webhook","url":"` + srv.URL + `/grade"}`

	code, _, stderr := runCLI(t, `{"output":"Paris"}`+"\n", "grade", "--grader", spec)
	if code != exitUsage || !strings.Contains(stderr, "blocked") {
		t.Fatalf("without an allow-list: exit %d, stderr %q; want exit 2 naming the blocked address", code, stderr)
	}

	t.Setenv("PROCTOR_TEST_WEBHOOK_KEY", "k3y")
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(cfg, []byte("network: {allow: [127.0.0.1/32]}\nwebhook: {signing_key_env: PROCTOR_TEST_WEBHOOK_KEY}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, `{"output":"Paris"}`+"\n"+`{"output":"Rome"}`+"\n", "grade", "--config", cfg, "--grader", spec)
	if code != exitFailed {
		t.Fatalf("with the allow-list: exit %d (stderr %q), want 1 (one passed, one failed)", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"passed"`) || !strings.Contains(lines[1], `"failed"`) {
		t.Errorf("got %q, want passed then failed", out)
	}
	if len(sigs) != 2 || !strings.HasPrefix(sigs[0], "t=") || !strings.Contains(sigs[0], ",v1=") {
		t.Errorf("signatures %q, want a t=...,v1=... header on each request", sigs)
	}

	if err := os.WriteFile(cfg, []byte(`{"network": {"allow": ["localhost"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "grade", "--config", cfg, "--grader", spec); code != exitUsage || !strings.Contains(stderr, "network.allow[0]") {
		t.Errorf("bad prefix: exit %d, stderr %q; want exit 2 naming network.allow[0]", code, stderr)
	}
}
