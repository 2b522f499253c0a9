package proctor

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/proctorhq/proctor/internal/redact"
)

func TestScrubEndpointText(t *testing.T) {
	const k = "sk-live-abcdefghijklmnop"
	cases := []struct{ in, want string }{
		{"Bearer " + k + " refused", "Bearer [redacted] refused"},
		{"clipped " + k[:10] + "…", "clipped [redacted]…"},
		{"no key here", "no key here"},
		{"short sk-l", "short sk-l"},
	}
	for _, c := range cases {
		if got := redact.Endpoint(c.in, []string{k, "abc"}); got != c.want {
			t.Errorf("scrub(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// What the no_secrets detector finds goes too, configured or not.
	aws := "key AKIAQ7ZJXKD3WPLM5RTB leaked"
	if got := redact.Endpoint(aws, nil); strings.Contains(got, "AKIAQ7ZJXKD3WPLM5RTB") {
		t.Errorf("scrub kept an AWS key: %q", got)
	}
}

func TestJudgeModelScrubs(t *testing.T) {
	const k = "sk-live-abcdefghijklmnop"
	base := errors.New("401: " + k)
	m := JudgeModel{Name: "j", Secrets: []string{k}, CallWithUsage: func(context.Context, string) (JudgeReply, error) {
		return JudgeReply{Text: "echo " + k}, &TransientError{Err: base}
	}}
	r, err := m.call(context.Background(), "p")
	if strings.Contains(r.Text, k) || strings.Contains(err.Error(), k) {
		t.Errorf("reply %q, error %q hold the key", r.Text, err)
	}
	var te *TransientError
	if !errors.As(err, &te) || !errors.Is(err, base) {
		t.Errorf("the scrubbed error lost its chain: %v", err)
	}
}
