package proctor

import "github.com/proctorhq/proctor/internal/redact"

// RedactBasic masks e-mail addresses as "[email]" and runs of six or more
// digits (spaces, dots or dashes allowed between them) as "[number]". Pass
// it to [WithRedactor] to keep those out of judge prompts. It is simple on
// purpose: it finds no names, street addresses or secrets, so chain your
// own detectors in front of it where those matter:
//
//	proctor.WithRedactor(func(s string) string { return proctor.RedactBasic(mine(s)) })
//
// Redaction is off by default: without [WithRedactor], judged text is sent
// to the judge as it is.
func RedactBasic(s string) string { return redact.Basic(s) }
