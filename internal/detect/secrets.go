package detect

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"sync"
)

// Secret detector kinds.
const (
	AWSAccessKeyID   = "aws_access_key_id"
	GitHubToken      = "github_token"
	SKKey            = "sk_api_key" // OpenAI, Anthropic and other sk- keys
	SlackToken       = "slack_token"
	GoogleAPIKey     = "google_api_key"
	StripeKey        = "stripe_key"
	PrivateKey       = "private_key"
	JWT              = "jwt"
	SecretAssignment = "secret_assignment"
)

// Entropy thresholds for values assigned to secret-looking names.
const (
	assignMinLen     = 10
	assignMinEntropy = 3.0 // bits per byte
)

// Secrets returns the Set of every secret detector.
func Secrets() *Set { return secretSet() }

var secretSet = sync.OnceValue(func() *Set { return &Set{dets: secretTable()} })

// hasAny returns a quick check for any of subs.
func hasAny(subs ...string) func(string) bool {
	return func(text string) bool {
		for _, s := range subs {
			if strings.Contains(text, s) {
				return true
			}
		}
		return false
	}
}

// keyBody accepts a provider key whose part after the prefix (of length
// prefix) is not a placeholder.
func keyBody(prefix int, needDigit bool) func(string, int, int) (int, int, bool) {
	return func(text string, s, e int) (int, int, bool) {
		body := text[s+min(prefix, e-s) : e]
		if IsPlaceholder(body) || (needDigit && !mixed(body)) {
			return 0, 0, false
		}
		return s, e, true
	}
}

// secretTable is the secret detector table, built on first use. Add a
// detector by adding a row: a kind, a quick substring check, a pattern and
// a validator.
var secretTable = sync.OnceValue(func() []*detector {
	dets := []*detector{
		{
			kind:    AWSAccessKeyID,
			quick:   hasAny(awsAnchors...),
			re:      lazy(`\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`),
			windows: around(awsAnchors, tokenChars, 64, tokenChars, 64),
			accept:  keyBody(4, false),
			mask:    maskPrefix(4),
		},
		{
			kind:    GitHubToken,
			quick:   hasAny("gh", "github_pat_"),
			re:      lazy(`\b(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{82})\b`),
			windows: around(githubAnchors, tokenChars, 64, tokenChars, 128),
			accept:  keyBody(4, true),
			mask:    maskKnownPrefix(`gh[pousr]_|github_pat_`),
		},
		{
			kind:    SKKey,
			quick:   has("sk-"),
			re:      lazy(`\bsk-(?:proj-|ant-(?:api\d\d-|admin\d\d-)?|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}`),
			windows: around([]string{"sk-"}, tokenChars, 64, tokenChars, 512),
			accept:  acceptSK,
			mask:    maskKnownPrefix(`sk-(?:proj-|ant-(?:api\d\d-|admin\d\d-)?|svcacct-|admin-)?`),
		},
		{
			kind:  SlackToken,
			quick: hasAny(slackAnchors...),
			// Bot, legacy bot, user, legacy, workspace, app and
			// configuration tokens, each in its documented shape.
			re: lazy(`\b(?:xoxb-[0-9]{8,14}-[0-9]{8,14}[A-Za-z0-9\-]*|xoxb-[0-9]{8,14}-[A-Za-z0-9]{18,26}` +
				`|xox[pe](?:-[0-9]{10,13}){3}-[A-Za-z0-9\-]{28,34}|xox[os]-[0-9]+-[0-9A-Za-z\\-]{10,}` +
				`|xox[ar]-(?:[0-9]-)?[0-9A-Za-z]{8,48}|xapp-[0-9]-[A-Za-z0-9]+-[0-9]+-[A-Za-z0-9]+` +
				`|xoxe\.xox[bp]-[0-9]-[A-Za-z0-9]{163,166}|xoxe-[0-9]-[A-Za-z0-9]{146})\b`),
			windows: around(slackAnchors, tokenChars, 64, jwtChars, 512),
			accept:  acceptSlack,
			mask:    maskKnownPrefix(`xox[abeoprs]-|xoxe\.xox[bp]-|xapp-`),
		},
		{
			kind:    GoogleAPIKey,
			quick:   has("AIza"),
			re:      lazy(`\bAIza[0-9A-Za-z_\-]{35}`),
			windows: around([]string{"AIza"}, tokenChars, 64, tokenChars, 64),
			accept:  acceptGoogle,
			mask:    maskPrefix(4),
		},
		{
			kind: StripeKey,
			// Publishable keys (pk_live_, pk_test_) are meant to be shipped
			// to browsers and are not secrets.
			quick:   hasAny(stripeAnchors...),
			re:      lazy(`\b(?:sk|rk)_(?:live|test|prod)_[0-9A-Za-z]{10,99}\b`),
			windows: around(stripeAnchors, tokenChars, 64, tokenChars, 512),
			accept:  keyBody(8, true),
			mask:    maskKnownPrefix(`(?:sk|rk)_(?:live|test|prod)_`),
		},
		{
			kind:  PrivateKey,
			quick: has("PRIVATE KEY-----"),
			// Line breaks may be escaped (\n inside a JSON string, as in a
			// cloud service-account file).
			re: lazy(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----` +
				`(?:(?:\s|\\[nr])*[A-Za-z\-]+: [^\n\\]*)*(?:(?:\s|\\[nr])*[A-Za-z0-9+/=]+)*(?:\s|\\[nr])*` +
				`(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)?`),
			windows: around([]string{"-----BEGIN "}, nil, 0, nil, 16<<10),
			accept:  acceptPEM,
			mask:    maskPEM,
		},
		{
			kind:    JWT,
			quick:   has("eyJ"),
			re:      lazy(`\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*`),
			windows: around([]string{"eyJ"}, tokenChars, 64, jwtChars, 16<<10),
			accept:  acceptJWT,
			mask:    maskPrefix(3),
		},
		{
			// scheme://user:password@host: the password is the finding.
			kind:    ConnectionPassword,
			quick:   has("://"),
			re:      lazy(`\b[A-Za-z][A-Za-z0-9+.\-]{1,24}://[^\s:/?#@"'<>` + "`" + `]{0,128}:([^\s/?#@"'<>` + "`" + `]{1,256})@[A-Za-z0-9.\-\[\]]`),
			windows: around([]string{"://"}, schemeChars, 32, nil, 400),
			group:   1,
			accept:  acceptURLPassword,
			mask:    maskAll,
		},
	}
	// Provider tokens, then assignments: of two findings with the same
	// span the first in the table is kept, and a value assigned to a
	// secret-looking name is reported as the provider's token when it is
	// one.
	dets = append(dets, providerDetectors()...)
	return append(dets, []*detector{
		{
			kind:    SecretAssignment,
			generic: true,
			re: lazy(`(?i)[a-z0-9_.\-]*(?:password|passwd|pwd|secret|token|api[_\-]?key|apikey|access[_\-]?key|auth[_\-]?key|private[_\-]?key|credentials?)(?:[_\-]?key)?` +
				`["']?\s*(?::=|=>|[:=])\s*["']?([^\s"'` + "`" + `,;<>(){}\[\]]{8,256})`),
			windows: assignWindows,
			group:   1,
			accept:  acceptAssignment,
			mask:    maskAll,
		},
		{
			// XML configuration: <add key="ApiKey" value="..."/>.
			kind:    SecretAssignment,
			generic: true,
			quick:   has("value"),
			re:      lazy(`(?i)key\s*=\s*"[^"]*(?:password|passwd|secret|token|api[_\-]?key)[^"]*"\s+value\s*=\s*"([^"]{8,256})"`),
			windows: around(xmlValueAnchors, nil, 256, nil, 300),
			group:   1,
			accept:  acceptAssignment,
			mask:    maskAll,
		},
	}...)
})

// Anchors of the detectors that look for several: each region a pattern
// runs on holds one of them.
var (
	awsAnchors      = []string{"AKIA", "ASIA", "A3T", "ABIA", "ACCA"}
	slackAnchors    = []string{"xox", "xapp-"}
	githubAnchors   = []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}
	stripeAnchors   = []string{"_live_", "_test_", "_prod_"}
	xmlValueAnchors = []string{"value=", "Value=", "value =", "VALUE="}
)

var (
	tokenChars  = setOf("_-", digits, lowers, uppers)
	jwtChars    = setOf("_-.", digits, lowers, uppers)
	nameChars   = setOf("_.-", digits, lowers, uppers)
	schemeChars = setOf("+.-", digits, lowers, uppers)
	valueEnds   = setOf(" \t\r\n\"'`,;<>(){}[]")
)

// assignKeywords are the name parts that make an assignment worth a look;
// the pattern decides.
var assignKeywords = []string{"pass", "pwd", "secret", "token", "key", "credential"}

// assignWindows proposes, for each = or : whose name before it holds an
// assignKeywords word (any case), the line from the name on.
func assignWindows(text string, from int) (int, int, bool) {
	for i := from; i < len(text); i++ {
		if c := text[i]; c != '=' && c != ':' {
			continue
		}
		j := i
		if j > 0 && text[j-1] == ':' {
			j-- // :=
		}
		for k := 0; k < 3 && j > 0 && (text[j-1] == ' ' || text[j-1] == '"' || text[j-1] == '\''); k++ {
			j--
		}
		s := j
		for s > 0 && j-s < 64 && nameChars[text[s-1]] {
			s--
		}
		if s == j || !containsAnyFold(text[s:j], assignKeywords) {
			continue
		}
		// The value: past the operator and at most three spaces or quotes,
		// up to the first byte that cannot be part of it, and one more
		// (a closing quote).
		e := i + 1
		if e < len(text) && (text[e] == '=' || text[e] == '>') {
			e++
		}
		for k := 0; k < 3 && e < len(text) && (text[e] == ' ' || text[e] == '"' || text[e] == '\''); k++ {
			e++
		}
		v := e
		for e < len(text) && e-v < 256 && !valueEnds[text[e]] {
			e++
		}
		return s, min(e+1, len(text)), true
	}
	return 0, 0, false
}

// containsAnyFold reports whether s holds any of words (ASCII lower case)
// ignoring ASCII case.
func containsAnyFold(s string, words []string) bool {
	for _, w := range words {
		for i := 0; i+len(w) <= len(s); i++ {
			ok := true
			for k := 0; k < len(w); k++ {
				c := s[i+k]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				if c != w[k] {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
	}
	return false
}

// acceptSlack keeps a Slack token that is no placeholder and not too
// uniform.
func acceptSlack(text string, s, e int) (int, int, bool) {
	v := text[s:e]
	if hasPlaceholderWord(v) || entropy(v) < 2 || strings.Count(strings.ToLower(v), "x") > len(v)/2 {
		return 0, 0, false
	}
	return s, e, true
}

func acceptSK(text string, s, e int) (int, int, bool) {
	v := text[s:e]
	// The body is what follows the last prefix dash in the first 16 bytes.
	head := v[:min(len(v), 16)]
	body := v[strings.LastIndexByte(head, '-')+1:]
	if IsPlaceholder(body) || !mixed(body) || entropy(body) < assignMinEntropy {
		return 0, 0, false
	}
	return s, e, true
}

// acceptPEM keeps a private-key block with a real body: at least 40
// base64 characters that are not a placeholder.
func acceptPEM(text string, s, e int) (int, int, bool) {
	v := text[s:e]
	open := strings.Index(v[5:], "-----") + 10
	body := v[open:]
	if i := strings.Index(body, "-----END"); i >= 0 {
		body = body[:i]
	}
	body = strings.NewReplacer(`\n`, "\n", `\r`, "").Replace(body)
	n := 0
	var b strings.Builder
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		if strings.Contains(line, ": ") {
			continue // Proc-Type and DEK-Info headers
		}
		b.WriteString(line)
		n += len(line)
	}
	if n < 40 || IsPlaceholder(b.String()) {
		return 0, 0, false
	}
	return s, e, true
}

// acceptJWT keeps three base64url parts whose header is a JSON object with
// an "alg" and whose payload is a JSON object.
func acceptJWT(text string, s, e int) (int, int, bool) {
	parts := strings.SplitN(text[s:e], ".", 3)
	if len(parts) != 3 {
		return 0, 0, false
	}
	var hdr struct {
		Alg *string `json:"alg"`
	}
	if !decodeB64JSON(parts[0], &hdr) || hdr.Alg == nil {
		return 0, 0, false
	}
	var payload map[string]any
	if !decodeB64JSON(parts[1], &payload) {
		return 0, 0, false
	}
	if !strings.EqualFold(*hdr.Alg, "none") && len(parts[2]) < 16 {
		return 0, 0, false
	}
	return s, e, true
}

func decodeB64JSON(part string, v any) bool {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(part, "="))
	if err != nil {
		return false
	}
	return json.Unmarshal(b, v) == nil
}

// acceptAssignment keeps a value assigned to a secret-looking name when it
// is long, mixed, high in entropy and not a placeholder or a reference to
// somewhere else (an environment variable, a settings field, a URL).
func acceptAssignment(text string, s, e int) (int, int, bool) {
	v := text[s:e]
	v = strings.TrimRight(v, ".")
	e = s + len(v)
	if len(v) < assignMinLen || IsPlaceholder(v) || !mixed(v) || strings.Contains(v, "://") ||
		strings.HasPrefix(v, "$") || strings.HasPrefix(v, "%") || entropy(v) < assignMinEntropy {
		return 0, 0, false
	}
	return s, e, true
}

// mixed reports whether v holds both letters and digits.
func mixed(v string) bool {
	var l, d bool
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= '0' && c <= '9':
			d = true
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			l = true
		}
	}
	return l && d
}

// entropy is the Shannon entropy of v's bytes, in bits per byte.
func entropy(v string) float64 {
	if v == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(v); i++ {
		counts[v[i]]++
	}
	h, n := 0.0, float64(len(v))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// placeholderWords mark a value as a stand-in, not a credential.
var placeholderWords = []string{
	"xxxx", "example", "your", "changeme", "change_me", "change-me", "placeholder", "redacted",
	"dummy", "sample", "insert", "replace", "here", "todo", "fixme", "****", "...", "…",
	"<", ">", "${", "{{", "}}", "%(", "lorem", "foobar", "fake", "1234567", "abcdefg", "qwerty",
}

// hasPlaceholderWord reports whether v holds one of placeholderWords, in
// any case. In a value of 40 bytes or more, a short word of letters (five
// or fewer) counts only
// standing apart from other letters (-fake-, 12fake): a long random token
// holds "here" or "fake" by chance (uFakE3) more often than one would
// think.
func hasPlaceholderWord(v string) bool {
	low := strings.ToLower(v)
	for _, w := range placeholderWords {
		for from := 0; ; {
			i := strings.Index(low[from:], w)
			if i < 0 {
				break
			}
			i += from
			if len(low) < 40 || len(w) > 5 || !allLetters(w) ||
				((i == 0 || !isLetter(low[i-1])) && (i+len(w) == len(low) || !isLetter(low[i+len(w)]))) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func allLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isLetter(w[i]) {
			return false
		}
	}
	return true
}

// IsPlaceholder reports whether v is a stand-in for a credential
// (sk-xxxx, <YOUR_API_KEY>, ${TOKEN}, ****, changeme, your-api-key-here,
// repeated characters) rather than one.
func IsPlaceholder(v string) bool {
	if v == "" {
		return true
	}
	if hasPlaceholderWord(v) {
		return true
	}
	low := strings.ToLower(v)
	// A run of five identical characters (in a value shorter than 40
	// bytes; in a longer one, a run of a third of it: binary tokens hold
	// runs of A, padding), or few distinct characters.
	longRun := 5
	if len(low) >= 40 {
		longRun = max(5, len(low)/3)
	}
	run, distinct, asc := 1, 0, 1
	var seen [256]bool
	for i := 0; i < len(low); i++ {
		if !seen[low[i]] {
			seen[low[i]] = true
			distinct++
		}
		// Six characters in a row in alphabet order (abcdef, 123456,
		// klmnop): typed, not generated.
		if i > 0 && low[i] == low[i-1]+1 && (isAlnum(low[i]) && isAlnum(low[i-1])) {
			asc++
			if asc >= 6 {
				return true
			}
		} else {
			asc = 1
		}
		if i > 0 && low[i] == low[i-1] {
			run++
			if run >= longRun {
				return true
			}
		} else {
			run = 1
		}
	}
	return len(v) >= 8 && distinct < 6
}

// urlPasswordStandIns are passwords that documentation writes in place of
// a real one: postgres://user:password@localhost is an example, not a leak.
var urlPasswordStandIns = []string{
	"password", "passwd", "pass", "pwd", "pw", "secret", "mypassword", "yourpassword", "user", "username",
	"postgres", "mysql", "root", "admin", "guest", "test", "example", "changeme", "xxx", "dbpass", "db_password",
}

// acceptURLPassword keeps the password of a connection or basic-auth URL
// unless it is a stand-in: a placeholder, a conventional word
// (urlPasswordStandIns), a template or environment reference ($PASS,
// ${PASS}, {{pass}}, %(pass)s, {password}, <password>, :password) or a
// masked value (****).
func acceptURLPassword(text string, s, e int) (int, int, bool) {
	v := text[s:e]
	low := strings.ToLower(v)
	for _, w := range urlPasswordStandIns {
		if low == w {
			return 0, 0, false
		}
	}
	if strings.ContainsAny(v[:1], "$%{<:*[") || strings.Trim(v, "*x.X") == "" || hasPlaceholderWord(v) {
		return 0, 0, false
	}
	return s, e, true
}

// googleExampleKeys are API keys published in Google's own SDK samples
// (firebase-android-sdk), restricted and meant to be public: gitleaks'
// gcp-api-key rule lists the same ones as known false positives.
var googleExampleKeys = []string{
	"AIzaSyabcdefghijklmnopqrstuvwxyz1234567", "AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs",
	"AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM", "AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU",
	"AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0", "AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A",
	"AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c", "AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4",
	"AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY", "AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM",
	"AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ", "AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g",
	"AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU", "AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw",
	"AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE", "AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY",
}

// acceptGoogle keeps a Google API key that ends where the token ends, is
// no placeholder, varied enough and not one of googleExampleKeys.
func acceptGoogle(text string, s, e int) (int, int, bool) {
	v := text[s:e]
	if (e < len(text) && wordBytes[text[e]]) || IsPlaceholder(v[4:]) || entropy(v) < 3.5 || slices.Contains(googleExampleKeys, v) {
		return 0, 0, false
	}
	return s, e, true
}

func isAlnum(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' }
