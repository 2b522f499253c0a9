package detect

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Masks keep just enough of a value for a person to recognise which one
// was found (the last digits of a card, the first letter of an email) and
// never the whole value.

// maskEmail keeps the first letter of the local part and of the domain and
// the top-level domain: j***@e***.com.
func maskEmail(v string) string {
	at := strings.IndexByte(v, '@')
	if at <= 0 || at == len(v)-1 {
		return "***"
	}
	local, domain := v[:at], v[at+1:]
	tld := ""
	if dot := strings.LastIndexByte(domain, '.'); dot >= 0 {
		tld = domain[dot:]
	}
	r1, _ := utf8.DecodeRuneInString(local)
	r2, _ := utf8.DecodeRuneInString(domain)
	return string(r1) + "***@" + string(r2) + "***" + tld
}

// maskDigits keeps the last two digits: ***67.
func maskDigits(v string) string {
	var buf [64]byte
	d := digitsOf(buf[:0], v)
	if len(d) < 6 {
		return "***"
	}
	return "***" + string(d[len(d)-2:])
}

// maskCard keeps the last four digits: ****1111.
func maskCard(v string) string {
	var buf [64]byte
	d := digitsOf(buf[:0], v)
	if len(d) < 12 {
		return "****"
	}
	return "****" + string(d[len(d)-4:])
}

// maskIBAN keeps the country and the last four characters: DE**…3000.
func maskIBAN(v string) string {
	c := strings.ReplaceAll(v, " ", "")
	if len(c) < 12 {
		return "****"
	}
	return c[:2] + "**…" + c[len(c)-4:]
}

// maskIP keeps the first octet or group: 192.*.*.* or 2001:*.
func maskIP(v string) string {
	a, err := netip.ParseAddr(v)
	if err != nil {
		return "*"
	}
	if a.Is4() {
		return strconv.Itoa(int(a.As4()[0])) + ".*.*.*"
	}
	if i := strings.IndexByte(v, ':'); i > 0 {
		return v[:i] + ":*"
	}
	return ":*"
}

// maskPrefix keeps a detector's fixed prefix (AKIA, ghp_, sk-proj-) and the
// length: AKIA…(20 chars).
func maskPrefix(n int) func(string) string {
	return func(v string) string {
		n := min(n, len(v)/3)
		return v[:n] + "…(" + strconv.Itoa(len(v)) + " chars)"
	}
}

// maskKnownPrefix keeps the provider prefix that pattern (anchored at the
// start) matches, at most a third of the value, and the length:
// sk-proj-…(164 chars). Only the fixed prefix is kept: keeping what came
// before the last dash of the first bytes, as before, kept part of the
// secret itself when the key's body held a dash (sk-abcdefghij-…).
func maskKnownPrefix(pattern string) func(string) string {
	re := lazy(`^(?:` + pattern + `)`)
	return func(v string) string {
		return maskPrefix(len(re().FindString(v)))(v)
	}
}

// maskAll keeps only the length.
func maskAll(v string) string { return "****(" + strconv.Itoa(len(v)) + " chars)" }

// maskPEM keeps the BEGIN line.
func maskPEM(v string) string {
	if i := strings.Index(v[5:], "-----"); i >= 0 {
		return v[:i+10] + " …(" + strconv.Itoa(len(v)) + " chars)"
	}
	return maskAll(v)
}
