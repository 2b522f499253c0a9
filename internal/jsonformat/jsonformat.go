// Package jsonformat holds the checks JSON Schema's "format" keyword runs
// when formats are asserted, where the validator's own checks accept text
// the standards refuse: e-mail addresses without a local part, host names
// with a trailing dot or a malformed A-label (RFC 5890-5893), IPv4 with a
// sign, URIs with characters RFC 3986 does not allow, durations whose
// units skip a level (RFC 3339 appendix A), and regular expressions that
// are not ECMA-262.
//
// Each check only refuses more: the caller runs it after the validator's
// own check for the same format has accepted the text.
package jsonformat

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// Checks maps a format name to its extra check. "regex" is apart
// ([Regex]): it replaces the validator's check rather than following it.
var Checks = map[string]func(string) error{
	"email":         Email,
	"hostname":      Hostname,
	"ipv4":          IPv4,
	"uri":           URI,
	"uri-reference": URI,
	"duration":      Duration,
	"idn-hostname":  IDNHostname,
}

// Replacements maps a format name to a check that replaces the
// validator's own, which refuses valid text.
var Replacements = map[string]func(string) error{
	"uri-template": URITemplate,
}

// uriTemplateRE is RFC 6570's grammar (section 2, with the apostrophe
// allowed in literals, as the errata and the test suite have it): literals and
// expressions with an optional operator and a list of variables, each
// with an optional prefix length (1 to 9999) or explode modifier.
// It compiles on first use, not at import.
var uriTemplateRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^(?:[^\\x00-\\x20\\x7f\"%<>\\\\^`{|}]|%[0-9A-Fa-f]{2}|" +
		`\{[+#./;?&=,!@|]?` + varspec + `(?:,` + varspec + `)*\})*$`)
})

const (
	varchar = `(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})`
	varspec = varchar + `(?:\.?` + varchar + `)*(?::[1-9][0-9]{0,3}|\*)?`
)

// URITemplate checks RFC 6570's grammar.
func URITemplate(s string) error {
	if !uriTemplateRE().MatchString(s) {
		return errors.New("not an RFC 6570 URI template")
	}
	return nil
}

// Email refuses an address with an empty local part.
func Email(s string) error {
	if strings.HasPrefix(s, "@") {
		return errors.New("no local part")
	}
	return nil
}

// IPv4 refuses anything but digits and dots (strconv accepts "+1").
func IPv4(s string) error {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '.' && (c < '0' || c > '9') {
			return fmt.Errorf("%q is not a digit", c)
		}
	}
	return nil
}

// Hostname refuses a trailing dot and A-labels that are not valid
// Punycode or whose Unicode form breaks the IDNA 2008 rules checked by
// [ULabel]. ("--" in the third and fourth place of a plain label is left
// alone: RFC 1123 allows it and the older drafts test that it passes.)
func Hostname(s string) error {
	if strings.HasSuffix(s, ".") {
		return errors.New("trailing dot")
	}
	for label := range strings.SplitSeq(s, ".") {
		if len(label) > 63 {
			// Also keeps Punycode's quadratic insertion small.
			return fmt.Errorf("label longer than 63 bytes")
		}
		if len(label) >= 4 && strings.EqualFold(label[:4], "xn--") {
			u, err := Punycode(label[4:])
			if err != nil {
				return fmt.Errorf("A-label %q: %w", label, err)
			}
			if err := ULabel(u); err != nil {
				return fmt.Errorf("A-label %q: %w", label, err)
			}
		}
	}
	return nil
}

// IDNHostname checks an internationalised host name: labels separated by
// dots (also the ideographic and full-width ones), each an ASCII label
// checked as [Hostname] does or a Unicode label checked by [ULabel], at
// most 63 bytes per label once encoded and 253 in all.
func IDNHostname(s string) error {
	s = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".").Replace(s)
	if s == "" {
		return errors.New("empty")
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" {
			return errors.New("empty label")
		}
		ascii := true
		for i := 0; i < len(label); i++ {
			if label[i] >= utf8.RuneSelf {
				ascii = false
				break
			}
		}
		if ascii {
			if err := Hostname(label); err != nil {
				return err
			}
			if label[0] == '-' || label[len(label)-1] == '-' || len(label) > 63 {
				return fmt.Errorf("label %q", label)
			}
			continue
		}
		if len(label) > 255 {
			return errors.New("label too long")
		}
		if err := ULabel(label); err != nil {
			return fmt.Errorf("label %q: %w", label, err)
		}
		if strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
			return fmt.Errorf("label %q starts or ends with a hyphen", label)
		}
	}
	return nil
}

// disallowed are the code points RFC 5892 section 2.6 makes DISALLOWED by
// exception.
var disallowed = map[rune]bool{0x0640: true, 0x07FA: true, 0x302E: true, 0x302F: true, 0x3031: true, 0x3032: true, 0x3033: true, 0x3034: true, 0x3035: true, 0x303B: true}

// viramas are the code points of canonical combining class 9 (Virama),
// which a ZERO WIDTH JOINER must follow (RFC 5892 appendix A.2).
var viramas = map[rune]bool{
	0x094D: true, 0x09CD: true, 0x0A4D: true, 0x0ACD: true, 0x0B4D: true, 0x0BCD: true, 0x0C4D: true,
	0x0CCD: true, 0x0D3B: true, 0x0D3C: true, 0x0D4D: true, 0x0DCA: true, 0x0E3A: true, 0x0EBA: true,
	0x0F84: true, 0x1039: true, 0x103A: true, 0x1714: true, 0x1715: true, 0x1734: true, 0x17D2: true,
	0x1A60: true, 0x1B44: true, 0x1BAA: true, 0x1BAB: true, 0x1BF2: true, 0x1BF3: true, 0x2D7F: true,
	0xA806: true, 0xA82C: true, 0xA8C4: true, 0xA953: true, 0xA9C0: true, 0xAAF6: true, 0xABED: true,
	0x10A3F: true, 0x11046: true, 0x11070: true, 0x1107F: true, 0x110B9: true, 0x11133: true,
	0x11134: true, 0x111C0: true, 0x11235: true, 0x112EA: true, 0x1134D: true, 0x11442: true,
	0x114C2: true, 0x115BF: true, 0x1163F: true, 0x116B6: true, 0x1172B: true, 0x11839: true,
	0x1193D: true, 0x1193E: true, 0x119E0: true, 0x11A34: true, 0x11A47: true, 0x11A99: true,
	0x11C3F: true, 0x11D44: true, 0x11D45: true, 0x11D97: true,
}

// ULabel checks a label's Unicode form against the IDNA 2008 rules that
// need no tables beyond Go's: no "--" in the third and fourth place, no
// leading combining mark, none of the code points DISALLOWED by
// exception, and the contextual rules of RFC 5892 appendix A for MIDDLE
// DOT, Greek KERAIA, Hebrew GERESH and GERSHAYIM, KATAKANA MIDDLE DOT,
// Arabic-Indic digits and ZERO WIDTH JOINER.
func ULabel(u string) error {
	rs := []rune(u)
	if len(rs) == 0 {
		return errors.New("empty label")
	}
	if len(rs) >= 4 && rs[2] == '-' && rs[3] == '-' {
		return errors.New("-- in the third and fourth place")
	}
	if unicode.Is(unicode.M, rs[0]) {
		return errors.New("begins with a combining mark")
	}
	arabic, extended, kanaOrHan, katakanaDot := false, false, false, false
	for i, r := range rs {
		var prev, next rune = -1, -1
		if i > 0 {
			prev = rs[i-1]
		}
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		switch {
		case disallowed[r]:
			return fmt.Errorf("U+%04X is disallowed", r)
		case r == 0x00B7 && (prev != 'l' || next != 'l'):
			return errors.New("MIDDLE DOT not between two l")
		case r == 0x0375 && (next < 0 || !unicode.Is(unicode.Greek, next)):
			return errors.New("Greek KERAIA not followed by Greek")
		case (r == 0x05F3 || r == 0x05F4) && (prev < 0 || !unicode.Is(unicode.Hebrew, prev)):
			return errors.New("Hebrew GERESH or GERSHAYIM not preceded by Hebrew")
		case r == 0x200D && (prev < 0 || !viramas[prev]):
			return errors.New("ZERO WIDTH JOINER not preceded by a virama")
		case r == 0x30FB:
			katakanaDot = true
		case r >= 0x0660 && r <= 0x0669:
			arabic = true
		case r >= 0x06F0 && r <= 0x06F9:
			extended = true
		}
		if r != 0x30FB && (unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Han, r)) {
			kanaOrHan = true
		}
	}
	if katakanaDot && !kanaOrHan {
		return errors.New("KATAKANA MIDDLE DOT without Hiragana, Katakana or Han")
	}
	if arabic && extended {
		return errors.New("Arabic-Indic digits mixed with Extended Arabic-Indic digits")
	}
	return nil
}

// Punycode decodes the part of an A-label after "xn--" (RFC 3492).
func Punycode(s string) (string, error) {
	var out []rune
	rest := s
	if i := strings.LastIndexByte(s, '-'); i >= 0 {
		for _, c := range s[:i] {
			if c >= utf8.RuneSelf {
				return "", errors.New("non-ASCII basic code point")
			}
			out = append(out, c)
		}
		rest = s[i+1:]
	}
	if rest == "" && len(out) > 0 {
		return "", errors.New("no encoded code points")
	}
	n, bias, i := rune(punyInitialN), punyInitialBias, 0
	for len(rest) > 0 {
		oldi, w := i, 1
		for k := punyBase; ; k += punyBase {
			if len(rest) == 0 {
				return "", errors.New("truncated")
			}
			c := rest[0]
			rest = rest[1:]
			digit, ok := punyDigit(c)
			if !ok {
				return "", fmt.Errorf("invalid digit %q", c)
			}
			if digit > (1<<31-1-i)/w {
				return "", errors.New("overflow")
			}
			i += digit * w
			t := k - bias
			if k <= bias {
				t = punyTMin
			} else if k >= bias+punyTMax {
				t = punyTMax
			}
			if digit < t {
				break
			}
			if w > (1<<31-1)/(punyBase-t) {
				return "", errors.New("overflow")
			}
			w *= punyBase - t
		}
		numPoints := len(out) + 1
		bias = punyAdapt(i-oldi, numPoints, oldi == 0)
		if i/numPoints > 0x10FFFF-int(n) {
			return "", errors.New("overflow")
		}
		n += rune(i / numPoints)
		i %= numPoints
		if n > unicode.MaxRune || (n >= 0xD800 && n <= 0xDFFF) {
			return "", errors.New("invalid code point")
		}
		out = append(out[:i], append([]rune{n}, out[i:]...)...)
		i++
	}
	return string(out), nil
}

// The parameters of Punycode (RFC 3492, section 5).
const (
	punyBase, punyTMin, punyTMax, punySkew, punyDamp = 36, 1, 26, 38, 700
	punyInitialBias, punyInitialN                    = 72, 128
)

// punyDigit is the value of a Punycode digit: a-z (either case) 0-25,
// 0-9 26-35; false for any other byte.
func punyDigit(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c-'0') + 26, true
	case c >= 'a' && c <= 'z':
		return int(c - 'a'), true
	case c >= 'A' && c <= 'Z':
		return int(c - 'A'), true
	}
	return 0, false
}

// punyAdapt is the bias adaptation of RFC 3492 (section 6.1) after a
// code point is decoded from delta, with numPoints code points now
// decoded; first for the first code point.
func punyAdapt(delta, numPoints int, first bool) int {
	if first {
		delta /= punyDamp
	} else {
		delta /= 2
	}
	delta += delta / numPoints
	k := 0
	for delta > ((punyBase-punyTMin)*punyTMax)/2 {
		delta /= punyBase - punyTMin
		k += punyBase
	}
	return k + (punyBase-punyTMin+1)*delta/(delta+punySkew)
}

// URI refuses characters RFC 3986 does not allow anywhere in a URI
// (spaces, quotes, backslashes, non-ASCII, "<>{}^`|"), a "%" not followed
// by two hex digits, square brackets outside the host, and more than one
// "@" in the authority.
func URI(s string) error {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0:
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return errors.New("% not followed by two hex digits")
			}
		default:
			return fmt.Errorf("character %q is not allowed in a URI", c)
		}
	}
	// The authority follows "//" at the start or after the scheme.
	rest := s
	if i := strings.IndexAny(s, ":/?#"); i > 0 && s[i] == ':' {
		rest = s[i+1:]
	}
	authority := ""
	if after, ok := strings.CutPrefix(rest, "//"); ok {
		end := strings.IndexAny(after, "/?#")
		if end < 0 {
			end = len(after)
		}
		authority, rest = after[:end], after[end:]
	}
	if strings.Count(authority, "@") > 1 {
		return errors.New("more than one @ in the authority")
	}
	if strings.ContainsAny(rest, "[]") {
		return errors.New("square brackets outside the host")
	}
	return nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// durationRE is RFC 3339 appendix A's duration grammar: each unit may be
// followed only by the next smaller one, so P1Y2D and PT1H2S are refused.
// It compiles on first use, not at import.
var durationRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^P(?:(?:\d+Y(?:\d+M(?:\d+D)?)?|\d+M(?:\d+D)?|\d+D)(?:T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?|T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S)|\d+W)$`)
})

// Duration checks RFC 3339 appendix A's grammar.
func Duration(s string) error {
	if !durationRE().MatchString(s) {
		return errors.New("not an RFC 3339 duration")
	}
	return nil
}

// Regex checks that s is an ECMA-262 regular expression: it must compile
// in regexp2's ECMAScript mode, and it must not use what that mode
// tolerates but ECMA-262 refuses: the escape \a, comment groups (?#...)
// and global inline flag groups such as (?i).
func Regex(s string) error {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			if s[i+1] == 'a' {
				return errors.New(`\a is not an ECMA-262 escape`)
			}
			i++
		case strings.HasPrefix(s[i:], "(?#"):
			return errors.New("comment groups are not ECMA-262")
		case strings.HasPrefix(s[i:], "(?") && i+2 < len(s) && s[i+2] != ':' && s[i+2] != '=' && s[i+2] != '!' && s[i+2] != '<':
			j := i + 2
			for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] == '-') {
				j++
			}
			if j > i+2 && j < len(s) && s[j] == ')' {
				return errors.New("global inline flags are not ECMA-262")
			}
		}
	}
	_, err := regexp2.Compile(s, regexp2.ECMAScript)
	return err
}
