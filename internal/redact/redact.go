// Package redact masks personal data in text before it leaves the process:
// e-mail addresses and long runs of digits (phone, card, account and ID
// numbers). It is deliberately simple; it finds no names or addresses.
package redact

import (
	"regexp"
	"sync"
)

// Masks written in place of what was found.
const (
	EmailMask  = "[email]"
	NumberMask = "[number]"
)

// MinDigits is the shortest digit run masked: runs of this many digits or
// more, allowing single spaces, dots or dashes between them, are masked.
const MinDigits = 6

var patterns = sync.OnceValues(func() (*regexp.Regexp, *regexp.Regexp) {
	email := regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}`)
	digits := regexp.MustCompile(`\+?\d(?:[ .\-]?\d){5,}`)
	return email, digits
})

// Basic masks e-mail addresses as [EmailMask] and runs of [MinDigits] or
// more digits as [NumberMask]. Safe for concurrent use.
func Basic(s string) string {
	email, digits := patterns()
	s = email.ReplaceAllLiteralString(s, EmailMask)
	return digits.ReplaceAllLiteralString(s, NumberMask)
}
