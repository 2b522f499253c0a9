package redact

import (
	"strings"
	"testing"
)

// FuzzEndpoint: no configured secret survives in what Endpoint returns,
// wherever it sits in an endpoint's text.
func FuzzEndpoint(f *testing.F) {
	f.Add("bad key Bearer ", " sent", "sk-0123456789")
	f.Add("", "…", "abcdefgh")
	f.Fuzz(func(t *testing.T, before, after, secret string) {
		if len(secret) < MinSecret || strings.Contains(SecretMask, secret) {
			return
		}
		got := Endpoint(before+secret+after, []string{secret})
		if strings.Contains(got, secret) {
			t.Fatalf("Endpoint(%q) = %q keeps the secret", before+secret+after, got)
		}
	})
}
