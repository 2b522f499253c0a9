package redact

import (
	"sort"
	"strings"

	"github.com/proctorhq/proctor/internal/detect"
)

// MinSecret is the shortest configured secret masked, and the shortest
// start of one masked where an endpoint's text was cut off in the middle
// of it.
const MinSecret = 6

// SecretMask is written in place of a configured secret.
const SecretMask = "[redacted]"

// Endpoint removes from s, text an endpoint sent back, every value in
// secrets (configured API keys) and everything the secret detectors find,
// each replaced by [SecretMask] or the detector's kind in brackets. A
// secret's start of [MinSecret] bytes or more that ends s (an error body
// clipped in the middle of a key) is masked too.
func Endpoint(s string, secrets []string) string {
	for _, k := range secrets {
		if len(k) < MinSecret {
			continue // too short to mask without masking ordinary words
		}
		s = strings.ReplaceAll(s, k, SecretMask)
		body := strings.TrimRight(strings.TrimSuffix(s, "…"), " ")
		for n := len(k) - 1; n >= MinSecret; n-- {
			if strings.HasSuffix(body, k[:n]) {
				s = body[:len(body)-n] + SecretMask + s[len(body):]
				break
			}
		}
	}
	return Found(s, detect.Secrets().Find(s))
}

// Found replaces each span found in s by its kind in brackets; a span
// overlapping one already masked extends the mask.
func Found(s string, found []detect.Finding) string {
	if len(found) == 0 {
		return s
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Start < found[j].Start })
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for _, f := range found {
		if f.Start < at {
			at = max(at, f.End)
			continue
		}
		b.WriteString(s[at:f.Start])
		b.WriteString("[" + f.Kind + "]")
		at = f.End
	}
	b.WriteString(s[at:])
	return b.String()
}

// scrubbed is an error whose text went through [Endpoint]; errors.Is and
// errors.As still see the original.
type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }

// EndpointError returns err with its text passed through [Endpoint], or
// err itself when nothing was removed (nil stays nil).
func EndpointError(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	if msg := Endpoint(err.Error(), secrets); msg != err.Error() {
		return &scrubbed{msg: msg, err: err}
	}
	return err
}
