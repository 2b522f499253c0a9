package openai

import (
	"net/url"
	"strings"
	"testing"
)

func TestEndpointURL(t *testing.T) {
	cases := []struct{ base, want string }{
		{"https://h.example/v1", "https://h.example/v1/chat/completions"},
		{"https://h.example/v1/", "https://h.example/v1/chat/completions"},
		{"https://h.example/openai?api-version=2024-02-01&api-key=K", "https://h.example/openai/chat/completions?api-version=2024-02-01&api-key=K"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/chat/completions"},
	}
	for _, c := range cases {
		got, err := endpointURL("chat", c.base, "/chat/completions")
		if err != nil || got != c.want {
			t.Errorf("endpointURL(%q) = %q, %v; want %q", c.base, got, err, c.want)
		}
	}
	for _, bad := range []string{"ftp://h/v1", "h.example/v1", "https://user:sk-secret@h.example/v1", "https://h.example/v1#sk-secret", "://"} {
		_, err := endpointURL("chat", bad, "/chat/completions")
		if err == nil || strings.Contains(err.Error(), "sk-secret") {
			t.Errorf("endpointURL(%q): %v, want an error that does not repeat the key", bad, err)
		}
	}
	if got := URLSecrets("https://h/v1?api-key=K1&x=K2"); len(got) != 2 {
		t.Errorf("URLSecrets = %q", got)
	}
}

// FuzzEndpointURL: a base URL from a config file gives an error or a URL
// whose path ends with the API path, before any query.
func FuzzEndpointURL(f *testing.F) {
	for _, s := range []string{"https://h/v1", "http://h?api-key=K", "https://u:p@h/", "https://h/v1#x", "http://[::1]:80/a%2Fb?x=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, base string) {
		got, err := endpointURL("chat", base, "/chat/completions")
		if err != nil {
			return
		}
		u, perr := url.Parse(got)
		if perr != nil || !strings.HasSuffix(u.Path, "/chat/completions") || (u.Scheme != "http" && u.Scheme != "https") {
			t.Fatalf("endpointURL(%q) = %q (%v)", base, got, perr)
		}
	})
}
