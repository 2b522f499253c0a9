package detect

import (
	"fmt"
	"net/netip"
	"regexp"
	"strings"
	"sync"
)

// PII kinds, as the no_pii spec names them.
const (
	Email      = "email"
	Phone      = "phone"
	SSN        = "ssn"
	CreditCard = "credit_card"
	IBAN       = "iban"
	IP         = "ip"
)

// Set is a compiled set of detectors. The zero Set finds nothing. A Set is
// immutable and safe for concurrent use.
type Set struct {
	dets []*detector
}

// Find returns what the set's detectors find in text, sorted by offset;
// nil when nothing is found. Spans never overlap.
func (s *Set) Find(text string) []Finding {
	if s == nil {
		return nil
	}
	return scan(text, s.dets)
}

// Kinds returns the kinds the set looks for.
func (s *Set) Kinds() []string { return kindsOf(s.dets) }

// PIIKinds returns every PII kind, in the order no_pii lists them.
func PIIKinds() []string { return kindsOf(piiTable()) }

// PII returns a Set finding the given PII kinds; none means all. An unknown
// kind is an error naming the known ones.
func PII(kinds ...string) (*Set, error) {
	all := piiTable()
	if len(kinds) == 0 {
		return &Set{dets: all}, nil
	}
	var dets []*detector
	for _, k := range kinds {
		found := false
		for _, d := range all {
			if d.kind == k {
				dets = append(dets, d)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown PII kind %q (known: %s)", k, strings.Join(PIIKinds(), ", "))
		}
	}
	return &Set{dets: dets}, nil
}

// lazy compiles a pattern on first use.
func lazy(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

func has(sub string) func(string) bool {
	return func(text string) bool { return strings.Contains(text, sub) }
}

func hasDigit(text string) bool { return strings.ContainsAny(text, "0123456789") }

// piiTable is the PII detector table, built on first use.
var piiTable = sync.OnceValue(func() []*detector {
	return []*detector{
		{
			kind:    Email,
			quick:   has("@"),
			re:      lazy(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,24}`),
			windows: emailWindows,
			accept:  acceptEmail,
			mask:    maskEmail,
		},
		{
			// North American numbers: an area code in parentheses or
			// followed by a separator, and a separator before the line
			// number, so plain digit runs and dates do not match.
			kind:    Phone,
			quick:   hasDigit,
			re:      lazy(`(?:\+?1[ .\-]?)?(?:\([2-9]\d{2}\)[ .\-]?|[2-9]\d{2}[ .\-])[2-9]\d{2}[ .\-]\d{4}`),
			windows: numberWindows,
			accept:  acceptNANP,
			mask:    maskDigits,
		},
		{
			// International numbers in E.164 form: a leading + and 8 to 15
			// digits, optionally grouped.
			kind:    Phone,
			quick:   has("+"),
			re:      lazy(`\+[1-9]\d{0,3}(?:[ .\-]?\(\d{1,4}\)|[ .\-]?\d{1,6}){1,7}`),
			windows: numberWindows,
			accept:  acceptE164,
			mask:    maskDigits,
		},
		{
			kind:    SSN,
			quick:   hasDigit,
			re:      lazy(`\d{3}[- ]\d{2}[- ]\d{4}`),
			windows: numberWindows,
			accept:  acceptSSN,
			mask:    func(string) string { return "***-**-****" },
		},
		{
			kind:    CreditCard,
			quick:   hasDigit,
			re:      lazy(`\d(?:[ \-]?\d){11,18}`),
			windows: numberWindows,
			accept:  acceptCard,
			mask:    maskCard,
		},
		{
			kind:    IBAN,
			quick:   hasDigit,
			re:      lazy(`[A-Z]{2}\d{2}(?: ?[A-Z0-9]){10,40}`),
			windows: ibanWindows,
			accept:  acceptIBAN,
			mask:    maskIBAN,
		},
		{
			kind:    IP,
			quick:   has("."),
			re:      lazy(`\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}`),
			windows: numberWindows,
			accept:  acceptIPv4,
			mask:    maskIP,
		},
		{
			kind:    IP,
			quick:   has(":"),
			re:      lazy(`(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9A-Fa-f]{1,4})?`),
			windows: ipv6Windows,
			accept:  acceptIPv6,
			mask:    maskIP,
		},
	}
})

// Windows: the regions each PII pattern runs on.
var (
	emailWindows = around([]string{"@"}, setOf("._%+-", digits, lowers, uppers), 64, setOf(".-", digits, lowers, uppers), 255)
	// numberWindows are runs of digits and number punctuation holding at
	// least four digits: phones, SSNs, cards, IPv4.
	numberWindows = runsOf(setOf(" .()+-", digits), 7, func(run string) bool {
		n := 0
		for i := 0; i < len(run) && n < 4; i++ {
			if run[i] >= '0' && run[i] <= '9' {
				n++
			}
		}
		return n >= 4
	})
	ibanWindows = runsOf(setOf(" ", digits, uppers), 15, hasDigit)
	ipv6Windows = runsOf(setOf(":.", digits, hexLowers, hexUppers), 2, func(run string) bool { return strings.Count(run, ":") >= 2 })
)

// fileExts are "top-level domains" that are file extensions in practice
// (icon@2x.png).
var fileExts = []string{"png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "js", "ts", "css", "md", "txt", "pdf"}

func acceptEmail(text string, s, e int) (int, int, bool) {
	if !bounded(text, s, e, "") || before(text, s) == '@' || after(text, e) == '@' ||
		strings.HasSuffix(text[:s], "://") { // user info of a URL
		return 0, 0, false
	}
	v := text[s:e]
	at := strings.IndexByte(v, '@')
	local, domain := v[:at], v[at+1:]
	if local[0] == '.' || local[len(local)-1] == '.' || strings.Contains(local, "..") {
		return 0, 0, false
	}
	labels := strings.Split(domain, ".")
	for _, l := range labels {
		if l == "" || l[0] == '-' || l[len(l)-1] == '-' {
			return 0, 0, false
		}
	}
	tld := strings.ToLower(labels[len(labels)-1])
	for _, x := range fileExts {
		if tld == x {
			return 0, 0, false
		}
	}
	return s, e, true
}

// numberGlued reports whether text[s:e], a number, continues a longer
// token: a word, a digit group, a version string.
func numberGlued(text string, s, e int) bool {
	if s > 0 {
		b := before(text, s)
		if IsWord(b) || strings.ContainsRune("-+./#", b) {
			return true
		}
	}
	if e < len(text) {
		a := after(text, e)
		if IsWord(a) || strings.ContainsRune("-/#", a) {
			return true
		}
		if (a == '.' || a == ',' || a == ':') && e+1 < len(text) && text[e+1] >= '0' && text[e+1] <= '9' {
			return true
		}
	}
	return false
}

func acceptNANP(text string, s, e int) (int, int, bool) {
	if numberGlued(text, s, e) {
		return 0, 0, false
	}
	return s, e, true
}

func acceptE164(text string, s, e int) (int, int, bool) {
	// The pattern may swallow a trailing separator-less tail; trim a
	// dangling separator.
	for e > s && strings.ContainsRune(" .-", rune(text[e-1])) {
		e--
	}
	if numberGlued(text, s, e) {
		return 0, 0, false
	}
	v := text[s:e]
	var buf [32]byte
	d := digitsOf(buf[:0], v)
	n := len(d)
	separated := strings.ContainsAny(v[1:], " .-()")
	if n > 15 || n < 8 || (!separated && n < 10) {
		return 0, 0, false
	}
	// A dotted form with three groups or fewer reads as a decimal or a
	// version number (+1.234.5678).
	if strings.Contains(v, ".") && !strings.ContainsAny(v, " -") && strings.Count(v, ".") < 3 {
		return 0, 0, false
	}
	return s, e, true
}

func acceptSSN(text string, s, e int) (int, int, bool) {
	if numberGlued(text, s, e) {
		return 0, 0, false
	}
	v := text[s:e]
	if v[3] != v[6] {
		return 0, 0, false
	}
	area, group, serial := v[0:3], v[4:6], v[7:11]
	if area == "000" || area == "666" || area[0] == '9' || group == "00" || serial == "0000" {
		return 0, 0, false
	}
	return s, e, true
}

// acceptCard keeps a Luhn-valid number of a real issuer's length and
// prefix, written with one kind of separator (or none). When the whole
// candidate fails it retries without trailing groups, so a card followed by
// a year still counts.
func acceptCard(text string, s, e int) (int, int, bool) {
	for {
		if !numberGlued(text, s, e) && validCard(text[s:e]) {
			return s, e, true
		}
		cut := strings.LastIndexAny(text[s:e], " -")
		if cut <= 0 {
			return 0, 0, false
		}
		e = s + cut
		var buf [32]byte
		if len(digitsOf(buf[:0], text[s:e])) < 12 {
			return 0, 0, false
		}
	}
}

func validCard(v string) bool {
	if strings.Contains(v, " ") && strings.Contains(v, "-") {
		return false
	}
	var buf [32]byte
	d := digitsOf(buf[:0], v)
	return cardIssuer(d) != "" && luhn(d)
}

// cardIssuer names the issuer whose prefix and length d has, or "".
// Ranges from the issuers' published IIN tables (Visa, Mastercard incl.
// 2-series, Amex, Discover, JCB, Diners Club, UnionPay).
func cardIssuer(d []byte) string {
	n := len(d)
	p := func(k int) int {
		v := 0
		for i := 0; i < k && i < n; i++ {
			v = v*10 + int(d[i]-'0')
		}
		return v
	}
	switch {
	case d[0] == '4' && (n == 13 || n == 16 || n == 19):
		return "visa"
	case p(2) >= 51 && p(2) <= 55 && n == 16, p(4) >= 2221 && p(4) <= 2720 && n == 16:
		return "mastercard"
	case (p(2) == 34 || p(2) == 37) && n == 15:
		return "amex"
	case (p(4) == 6011 || (p(3) >= 644 && p(3) <= 649) || p(2) == 65 || (p(6) >= 622126 && p(6) <= 622925)) && n >= 16 && n <= 19:
		return "discover"
	case p(4) >= 3528 && p(4) <= 3589 && n >= 16 && n <= 19:
		return "jcb"
	case ((p(3) >= 300 && p(3) <= 305) || p(2) == 36 || p(2) == 38 || p(2) == 39) && n >= 14 && n <= 19:
		return "diners"
	case p(2) == 62 && n >= 16 && n <= 19:
		return "unionpay"
	}
	return ""
}

// luhn reports whether the digits pass the Luhn check.
func luhn(d []byte) bool {
	sum := 0
	for i := range d {
		v := int(d[len(d)-1-i] - '0')
		if i%2 == 1 {
			v *= 2
			if v > 9 {
				v -= 9
			}
		}
		sum += v
	}
	return sum%10 == 0
}

// ibanLengths is the length of an IBAN per country, from the SWIFT IBAN
// Registry (release 99, 2024).
var ibanLengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27,
	"BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28,
	"EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
	"GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27,
	"JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25,
	"MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18,
	"NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33,
	"SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28,
	"TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}

// acceptIBAN cuts the candidate at its country's IBAN length and keeps it
// when the ISO 7064 mod-97 check holds.
func acceptIBAN(text string, s, e int) (int, int, bool) {
	want, ok := ibanLengths[text[s:s+2]]
	if !ok {
		return 0, 0, false
	}
	var buf [40]byte
	b := buf[:0]
	end := s
	for i := s; i < e && len(b) < want; i++ {
		if text[i] != ' ' {
			b = append(b, text[i])
			end = i + 1
		}
	}
	if len(b) != want || numberGlued(text, s, end) {
		return 0, 0, false
	}
	if mod97(b) != 1 {
		return 0, 0, false
	}
	return s, end, true
}

// mod97 computes the IBAN checksum remainder: the first four characters
// moved to the end, letters as 10..35, the number mod 97.
func mod97(iban []byte) int {
	r := 0
	add := func(c byte) {
		switch {
		case c >= '0' && c <= '9':
			r = (r*10 + int(c-'0')) % 97
		default:
			v := int(c-'A') + 10
			r = (r*100 + v) % 97
		}
	}
	for _, c := range iban[4:] {
		add(c)
	}
	for _, c := range iban[:4] {
		add(c)
	}
	return r
}

func acceptIPv4(text string, s, e int) (int, int, bool) {
	if s > 0 {
		if b := before(text, s); IsWord(b) || b == '.' {
			return 0, 0, false
		}
	}
	if e < len(text) {
		a := after(text, e)
		if IsWord(a) {
			return 0, 0, false
		}
		if a == '.' && e+1 < len(text) && text[e+1] >= '0' && text[e+1] <= '9' {
			return 0, 0, false
		}
	}
	if _, err := netip.ParseAddr(text[s:e]); err != nil || numbered(text[:s]) {
		return 0, 0, false
	}
	return s, e, true
}

// numberingWords name what a dotted number that follows them is: a
// section or a version, not an address.
var numberingWords = []string{"chapter", "section", "sec.", "version", "ver.", "release", "build", "patch", "update", "firmware", "kernel", "v", "§", "rule", "clause", "article", "step"}

// numbered reports whether the text before a dotted number ends with a
// numbering word ("Chapter 3.2.1.4", "version 1.2.3.4").
func numbered(head string) bool {
	head = strings.TrimRight(head[max(0, len(head)-16):], " \t")
	low := strings.ToLower(head)
	for _, w := range numberingWords {
		if strings.HasSuffix(low, w) {
			if len(low) == len(w) || !IsWord(before(low, len(low)-len(w))) {
				return true
			}
		}
	}
	return false
}

func acceptIPv6(text string, s, e int) (int, int, bool) {
	// A trailing single colon ends a sentence or a label ("at fe80::1:").
	for e > s && text[e-1] == ':' && (e-s < 2 || text[e-2] != ':') {
		e--
	}
	if s > 0 {
		if b := before(text, s); IsWord(b) || b == '.' || b == ':' {
			return 0, 0, false
		}
	}
	if e < len(text) {
		if a := after(text, e); IsWord(a) || a == ':' || a == '.' && e+1 < len(text) && isHex(text[e+1]) {
			return 0, 0, false
		}
	}
	v := text[s:e]
	if !strings.ContainsAny(v, "0123456789abcdefABCDEF") {
		return 0, 0, false
	}
	a, err := netip.ParseAddr(v)
	if err != nil || !a.Is6() {
		return 0, 0, false
	}
	return s, e, true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
