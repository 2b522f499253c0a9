package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestGradeConfiguredEmbedder runs semantic_similarity through an
// embeddings endpoint named in --config (an httptest server on loopback)
// and checks the built-in lexical embedder is used without one.
func TestGradeConfiguredEmbedder(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer emb-key" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i, in := range req.Input {
			// A "semantic" space of two axes: capitals of France, the rest.
			v := []float32{0, 1}
			if strings.Contains(in, "Paris") || strings.Contains(in, "French capital") {
				v = []float32{1, 0}
			}
			data = append(data, item{Index: i, Embedding: v})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data, "model": req.Model})
	}))
	defer srv.Close()
	t.Setenv("PROCTOR_TEST_EMB_KEY", "emb-key")
	cfg := filepath.Join(t.TempDir(), "c.json")
	conf := `{"embedder": {"model": "emb-1", "base_url": "` + srv.URL + `/v1", "api_key_env": "PROCTOR_TEST_EMB_KEY"}}`
	if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := `{"type":"semantic_similarity","threshold":0.9}`
	in := `{"output":"the French capital","expected":"Paris"}` + "\n"
	code, out, stderr := runCLI(t, in, "grade", "--config", cfg, "--grader", spec)
	if code != exitOK || !strings.Contains(out, `"passed"`) {
		t.Fatalf("configured embedder: exit %d, out %q, stderr %q; want passed", code, out, stderr)
	}
	if calls.Load() == 0 {
		t.Error("the configured embedder was never called")
	}
	// Without the config, the lexical embedder compares wording: these
	// share none, so the same sample fails, and the reason says lexical.
	code, out, _ = runCLI(t, in, "grade", "--grader", spec)
	if code != exitFailed || !strings.Contains(out, "lexical") {
		t.Errorf("lexical embedder: exit %d, out %q; want failed with a reason naming the lexical embedder", code, out)
	}
	if err := os.WriteFile(cfg, []byte(`{"embedder": {"base_url": "`+srv.URL+`"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "grade", "--config", cfg, "--grader", spec); code != exitUsage || !strings.Contains(stderr, "model is required") {
		t.Errorf("embedder without a model: exit %d, stderr %q; want exit 2", code, stderr)
	}
}
