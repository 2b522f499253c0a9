package detect

import (
	"encoding/base64"
	"encoding/json"
	"math"
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
			kind:    SlackToken,
			quick:   hasAny(slackAnchors...),
			re:      lazy(`\b(?:xox[abeoprs]-|xoxe\.xox[bp]-|xapp-)[0-9A-Za-z\-]{10,}`),
			windows: around(slackAnchors, tokenChars, 64, jwtChars, 512),
			accept:  keyBody(5, true),
			mask:    maskKnownPrefix(`xox[abeoprs]-|xoxe\.xox[bp]-|xapp-`),
		},
		{
			kind:    GoogleAPIKey,
			quick:   has("AIza"),
			re:      lazy(`\bAIza[0-9A-Za-z_\-]{35}`),
			windows: around([]string{"AIza"}, tokenChars, 64, tokenChars, 64),
			accept:  keyBody(4, false),
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
			kind: SecretAssignment,
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
			quick:   has("value"),
			re:      lazy(`(?i)key\s*=\s*"[^"]*(?:password|passwd|secret|token|api[_\-]?key)[^"]*"\s+value\s*=\s*"([^"]{8,256})"`),
			windows: around(xmlValueAnchors, nil, 256, nil, 300),
			group:   1,
			accept:  acceptAssignment,
			mask:    maskAll,
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
	return append(dets, providerDetectors()...)
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
	"<", ">", "${", "{{", "}}", "%(", "lorem", "foobar", "1234567", "abcdefg", "qwerty",
}

// IsPlaceholder reports whether v is a stand-in for a credential
// (sk-xxxx, <YOUR_API_KEY>, ${TOKEN}, ****, changeme, your-api-key-here,
// repeated characters) rather than one.
func IsPlaceholder(v string) bool {
	if v == "" {
		return true
	}
	low := strings.ToLower(v)
	for _, w := range placeholderWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	// A run of five identical characters, or few distinct ones.
	run, distinct := 1, 0
	var seen [256]bool
	for i := 0; i < len(low); i++ {
		if !seen[low[i]] {
			seen[low[i]] = true
			distinct++
		}
		if i > 0 && low[i] == low[i-1] {
			run++
			if run >= 5 {
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
	if strings.ContainsAny(v[:1], "$%{<:*[") || strings.Trim(v, "*x.X") == "" || IsPlaceholder(v) {
		return 0, 0, false
	}
	return s, e, true
}
