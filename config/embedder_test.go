package config

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/similarity"
)

// TestEmbedderErrorsScrubbed: an embeddings endpoint that echoes the key
// it was sent in an error body puts the key in no error a grade can show.
func TestEmbedderErrorsScrubbed(t *testing.T) {
	const key = "sk-proctortest-embedder-0123456789abcdef"
	t.Setenv("PROCTOR_TEST_EMBED_KEY", key)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"bad key `+r.Header.Get("Authorization")+`"}}`, http.StatusUnauthorized)
	}))
	defer srv.Close()
	c, err := Parse("c.json", []byte(`{"embedder":{"model":"m","base_url":"`+srv.URL+`","api_key_env":"PROCTOR_TEST_EMBED_KEY"}}`))
	if err != nil {
		t.Fatal(err)
	}
	g, err := proctor.NewCompiler(append(c.CompilerOptions(), similarity.Types())...).Compile([]byte(`{"type":"semantic_similarity","expected":"a"}`))
	if err != nil {
		t.Fatal(err)
	}
	got := g.Grade(context.Background(), &proctor.Sample{Output: "b"})
	text := got.Reason
	if got.Err != nil {
		text += " " + got.Err.Error()
	}
	if got.Status != proctor.StatusNotGraded || strings.Contains(text, key) || !strings.Contains(text, "[redacted]") {
		t.Errorf("got %v %q: want not graded, the echoed key redacted", got.Status, text)
	}
}
