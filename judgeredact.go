package proctor

import (
	"strings"

	"github.com/proctorhq/proctor/internal/detect"
)

// minSecretPrefix is the shortest start of a secret that is masked where
// an endpoint's text was cut off in the middle of the secret.
const minSecretPrefix = 6

// scrubEndpointText removes from s, text a judge endpoint sent back, every
// value in secrets (the configured API keys) and everything the
// [NoSecrets] detector finds, each replaced by "[redacted]" or the
// detector's kind in brackets. A secret's start of minSecretPrefix bytes
// or more that ends s (an error body clipped in the middle of a key) is
// masked too.
func scrubEndpointText(s string, secrets []string) string {
	for _, k := range secrets {
		if len(k) < minSecretPrefix {
			continue // too short to mask without masking ordinary words
		}
		s = strings.ReplaceAll(s, k, "[redacted]")
		body := strings.TrimRight(strings.TrimSuffix(s, "…"), " ")
		for n := len(k) - 1; n >= minSecretPrefix; n-- {
			if strings.HasSuffix(body, k[:n]) {
				s = body[:len(body)-n] + "[redacted]" + s[len(body):]
				break
			}
		}
	}
	return maskFound(s, detect.Secrets().Find(s))
}

// scrubbedError is a judge's error whose text went through
// scrubEndpointText; errors.Is and errors.As still see the original.
type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }

// scrub passes what a judge sent back, its reply text and its error's
// text, through scrubEndpointText with the judge's secrets, before the
// judge cache stores it or a grade quotes it.
func (m JudgeModel) scrub(r JudgeReply, err error) (JudgeReply, error) {
	r.Text = scrubEndpointText(r.Text, m.Secrets)
	if err != nil {
		if msg := scrubEndpointText(err.Error(), m.Secrets); msg != err.Error() {
			err = &scrubbedError{msg: msg, err: err}
		}
	}
	return r, err
}
