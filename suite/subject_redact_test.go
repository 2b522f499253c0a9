package suite_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/suite"
)

// TestOpenAISubjectErrorRedacted: an endpoint that echoes the key in its
// error body leaves no key in the attempt's error, which reports quote.
func TestOpenAISubjectErrorRedacted(t *testing.T) {
	const key = "sk-subject-0123456789abcdef"
	t.Setenv("PROCTOR_TEST_SUBJECT_KEY", key)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "bad key: "+r.Header.Get("Authorization")+" "+r.URL.RawQuery, http.StatusUnauthorized)
	}))
	defer srv.Close()
	subj := suite.OpenAISubject(suite.OpenAIOptions{BaseURL: srv.URL + "/v1?api-key=qk-0123456789", Model: "m", APIKeyEnv: "PROCTOR_TEST_SUBJECT_KEY"})
	_, err := subj(context.Background(), proctor.Sample{Input: "q"}, 0)
	if err == nil || !strings.Contains(err.Error(), "[redacted]") || strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "qk-0123456789") {
		t.Errorf("error %v: want the keys redacted", err)
	}
}
