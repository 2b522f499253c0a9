package proctor

import (
	"sync"

	"github.com/proctorhq/proctor/internal/detect"
	"github.com/proctorhq/proctor/internal/redact"
)

// RedactBasic masks e-mail addresses as "[email]" and runs of six or more
// digits (spaces, dots or dashes allowed between them) as "[number]". Pass
// it to [WithRedactor] to keep those out of judge prompts. It is simple on
// purpose; [RedactDisclosures] masks what the no_pii and no_secrets graders
// find, and your own function can chain in front of either:
//
//	proctor.WithRedactor(func(s string) string { return proctor.RedactBasic(mine(s)) })
//
// Redaction is off by default: without [WithRedactor], judged text is sent
// to the judge as it is.
func RedactBasic(s string) string { return redact.Basic(s) }

// piiSet is every PII detector, compiled on first use and read-only after.
var piiSet = sync.OnceValue(func() *detect.Set {
	s, _ := detect.PII() // all kinds: cannot fail
	return s
})

// RedactDisclosures masks everything the [NoPII] and [NoSecrets] detectors
// find (e-mail addresses, phone numbers, SSNs, card numbers, IBANs, IP
// addresses, provider keys, private-key blocks, JWTs, high-entropy
// assignments), each replaced by its kind in brackets: "[email]",
// "[credit_card]", "[aws_access_key_id]". Pass it to [WithRedactor], alone
// or after your own function, to keep those values out of judge prompts; the
// CLI's `redact: true` uses it followed by [RedactBasic]. Names, street
// addresses and other free-text personal data are not found. Safe for
// concurrent use.
func RedactDisclosures(s string) string {
	return redact.Found(s, append(piiSet().Find(s), detect.Secrets().Find(s)...))
}
