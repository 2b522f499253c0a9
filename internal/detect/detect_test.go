package detect

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func kinds(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Kind)
	}
	return out
}

func TestPII(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		why  string
	}{
		{"write to ana@corp.io", []string{Email}, "plain email"},
		{"see https://tok@host.com/x", nil, "URL user info is not an email"},
		{"asset logo@2x.png", nil, "file name with @2x"},
		{"a..b@corp.io", nil, "consecutive dots in the local part"},
		{"call (415) 555-0132", []string{Phone}, "NANP with parentheses"},
		{"call 415-555-0132.", []string{Phone}, "NANP at sentence end"},
		{"call 4155550132", nil, "bare digit run"},
		{"id 115-555-0132", nil, "area code cannot start with 1"},
		{"v2-415-555-0132", nil, "glued to a token"},
		{"+44 20 7946 0958", []string{Phone}, "E.164 grouped"},
		{"+14155550132", []string{Phone}, "E.164 plain"},
		{"+1234567", nil, "too few digits"},
		{"+1234567890123456", nil, "more than 15 digits"},
		{"2024-03-15", nil, "date"},
		{"ssn 219-09-9999", []string{SSN}, "valid SSN"},
		{"ssn 219 09 9999", []string{SSN}, "spaced SSN"},
		{"ssn 219-09 9999", nil, "mixed separators"},
		{"000-12-3456 666-12-3456 900-12-3456 123-00-4567 123-45-0000", nil, "invalid SSN ranges"},
		{"4111 1111 1111 1111", []string{CreditCard}, "Visa 16"},
		{"4111-1111 1111-1111", nil, "mixed separators"},
		{"4111 1111 1111 1112", nil, "Luhn fails"},
		{"card 4111 1111 1111 1111 2029", []string{CreditCard}, "trailing year trimmed"},
		{"9111111111111111", nil, "no issuer starts with 9"},
		{"GB82 WEST 1234 5698 7654 32", []string{IBAN}, "grouped IBAN"},
		{"GB82WEST12345698765432X", nil, "glued to a letter"},
		{"GB82 WEST 1234 5698 7654 33", nil, "checksum fails"},
		{"from 10.1.2.3.", []string{IP}, "IPv4 at sentence end"},
		{"1.2.3.4.5", nil, "five parts"},
		{"v1.2.3.4", nil, "version prefix glued"},
		{"version 1.2.3.4", nil, "numbering word"},
		{"01.2.3.4", nil, "leading zero is not net/netip's IPv4"},
		{"[2001:db8::1]:443", []string{IP}, "bracketed IPv6"},
		{"12:30:45", nil, "time"},
		{"std::vector", nil, "C++ scope"},
		{"at :: and ::: here", nil, "colons only"},
		{"00:1A:2B:3C:4D:5E", nil, "MAC address"},
		{"mail a@b.co from 10.0.0.1", []string{Email, IP}, "two kinds, in order"},
	}
	set, err := PII()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		got := kinds(set.Find(tt.in))
		if !slices.Equal(got, tt.want) {
			t.Errorf("Find(%q) = %v, want %v (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}

func TestPIIKinds(t *testing.T) {
	set, err := PII(Email)
	if err != nil {
		t.Fatal(err)
	}
	if got := kinds(set.Find("a@b.co 10.0.0.1")); !slices.Equal(got, []string{Email}) {
		t.Errorf("email-only set found %v, want [email]", got)
	}
	if _, err := PII("passport"); err == nil {
		t.Error("PII(passport) = nil error, want unknown kind")
	}
	if got := PIIKinds(); !slices.Equal(got, []string{Email, Phone, SSN, CreditCard, IBAN, IP}) {
		t.Errorf("PIIKinds() = %v", got)
	}
}

func TestRuneOffsets(t *testing.T) {
	text := "Zoë — zoë@mail.de"
	set, _ := PII(Email)
	fs := set.Find(text)
	if len(fs) != 0 {
		// The local part is ASCII only; "zoë" is not matched as a whole.
		for _, f := range fs {
			if f.RuneStart != utf8.RuneCountInString(text[:f.Start]) {
				t.Errorf("rune start %d for byte %d", f.RuneStart, f.Start)
			}
		}
	}
	text = "Zoë — ana@mail.de"
	fs = set.Find(text)
	if len(fs) != 1 || fs[0].RuneStart != 6 || fs[0].RuneEnd != 17 || fs[0].Start != 9 {
		t.Errorf("Find(%q) = %+v, want runes 6-17 (bytes from 9)", text, fs)
	}
}

// Card numbers: the issuers' published test numbers (Stripe "Testing" docs,
// PayPal sandbox test cards), which are Luhn-valid by construction.
func TestLuhnAndIssuer(t *testing.T) {
	tests := []struct {
		num    string
		issuer string
	}{
		{"4242424242424242", "visa"},
		{"4000056655665556", "visa"},
		{"4222222222222", "visa"},
		{"5555555555554444", "mastercard"},
		{"2223003122003222", "mastercard"},
		{"378282246310005", "amex"},
		{"6011111111111117", "discover"},
		{"6011000990139424", "discover"},
		{"3566002020360505", "jcb"},
		{"3056930009020004", "diners"},
		{"36227206271667", "diners"},
		{"6200000000000005", "unionpay"},
	}
	for _, tt := range tests {
		d := []byte(tt.num)
		if !luhn(d) {
			t.Errorf("luhn(%s) = false, want true", tt.num)
		}
		if got := cardIssuer(d); got != tt.issuer {
			t.Errorf("cardIssuer(%s) = %q, want %q", tt.num, got, tt.issuer)
		}
	}
	// Changing any one digit breaks the Luhn check.
	d := []byte("4242424242424242")
	for i := range d {
		c := slices.Clone(d)
		c[i] = '0' + (c[i]-'0'+1)%10
		if luhn(c) {
			t.Errorf("luhn(%s) = true after changing digit %d", c, i)
		}
	}
}

// mod97Big is the ISO 7064 MOD 97-10 check done the long way with
// math/big, as the IBAN standard (ISO 13616) describes it.
func mod97Big(iban string) int {
	var sb strings.Builder
	for _, c := range iban[4:] + iban[:4] {
		if c >= 'A' && c <= 'Z' {
			fmt.Fprintf(&sb, "%d", int(c-'A')+10)
		} else {
			sb.WriteRune(c)
		}
	}
	n, _ := new(big.Int).SetString(sb.String(), 10)
	return int(new(big.Int).Mod(n, big.NewInt(97)).Int64())
}

func TestMod97(t *testing.T) {
	// Examples from the SWIFT IBAN Registry.
	for _, iban := range []string{"GB82WEST12345698765432", "DE89370400440532013000", "FR1420041010050500013M02606", "NL91ABNA0417164300", "MT84MALT011000012345MTLCAST001S"} {
		if got := mod97([]byte(iban)); got != 1 {
			t.Errorf("mod97(%s) = %d, want 1", iban, got)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for range 2000 {
		b := []byte{byte('A' + r.IntN(26)), byte('A' + r.IntN(26)), byte('0' + r.IntN(10)), byte('0' + r.IntN(10))}
		for range 10 + r.IntN(25) {
			b = append(b, alnum[r.IntN(len(alnum))])
		}
		if got, want := mod97(b), mod97Big(string(b)); got != want {
			t.Fatalf("mod97(%s) = %d, math/big says %d", b, got, want)
		}
	}
}

func TestIBANLengths(t *testing.T) {
	// Every registry example above has its country's length.
	for iban, n := range map[string]int{"GB82WEST12345698765432": 22, "MT84MALT011000012345MTLCAST001S": 31, "NO9386011117947": 15} {
		if ibanLengths[iban[:2]] != n {
			t.Errorf("length of %s = %d, want %d", iban[:2], ibanLengths[iban[:2]], n)
		}
	}
}

func TestSecrets(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		why  string
	}{
		{"AKIAQ7ZJXKD3WPLM5RTB", []string{AWSAccessKeyID}, "AWS key id"},
		{"AKIAIOSFODNN7EXAMPLE", nil, "AWS's documented example"},
		{"AKIAQ7ZJXKD3WPLM5RTBX", nil, "too long: not a word boundary"},
		{"ghp_8fKq2LmZx7RtY4vBnW1cJd9sPa3HeUo6QiTg", []string{GitHubToken}, "classic token"},
		{"ghp_8fKq2LmZx7RtY4vBnW1cJd9sPa3HeUo6QiT", nil, "35 characters"},
		{"sk-proj-Qm3xT9vLpZ2wRk7YhN4cB8dJ", []string{SKKey}, "project key"},
		{"sk-xxxxxxxxxxxxxxxxxxxxxxxx", nil, "placeholder"},
		{"task-force-meeting-notes-2024-q3", nil, "sk- inside a word"},
		{"sk-learn-compatible-estimators", nil, "no digits: a name"},
		{"xoxb-482916305712-2364535789652-9fK2mQ7xLp4RtZ8wNc3vB6yD", []string{SlackToken}, "slack bot token"},
		{"xoxb-your-token-here", nil, "placeholder"},
		{"AIzaSyD3k9Lm2Qx7Rt5Vb8Nc1Wz4Hj6Pf0Gs2Ke", []string{GoogleAPIKey}, "google key"},
		{"sk_live_4eC7x9Lm2Qz8Rt5Vb1Nc3Wp6", []string{StripeKey}, "stripe live key"},
		{"sk_live_xxxxxxxxxxxxxxxxxxxxxxxx", nil, "placeholder"},
		{"-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----", nil, "empty body"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA3q8Zk2Lm9Xv7Rt5Yb1Nc3Wp6Hj8Qf0Gs2Ke4Td7Ua9Ic1Oe3Bg5Dh\n-----END RSA PRIVATE KEY-----", []string{PrivateKey}, "RSA key"},
		{"-----BEGIN PUBLIC KEY-----\nMIIEowIBAAKCAQEA3q8Zk2Lm9Xv7Rt5Yb1Nc3Wp6Hj8Qf0Gs2Ke4Td7Ua9Ic1Oe3Bg5Dh\n-----END PUBLIC KEY-----", nil, "public key"},
		{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ", []string{JWT}, "signed JWT"},
		{"eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ", nil, "header without alg"},
		{"eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24gYXQgYWxs.c2lnbmF0dXJlLXNpZ25hdHVyZQ", nil, "payload not JSON"},
		{"password = \"Vq7#pL2m!xR9\"", []string{SecretAssignment}, "assigned password"},
		{"password = \"changeme\"", nil, "placeholder"},
		{"password: ${DB_PASSWORD}", nil, "environment reference"},
		{"api_key = settings.OPENAI_API_KEY", nil, "settings reference, no digits"},
		{"SECRET_KEY = 'django-insecure-7f3k9x2m4q8w1z5r6t0y'", []string{SecretAssignment}, "secret_key"},
		{"max_tokens = 4096", nil, "not a secret name"},
	}
	for _, tt := range tests {
		got := kinds(Secrets().Find(tt.in))
		if !slices.Equal(got, tt.want) {
			t.Errorf("Find(%q) = %v, want %v (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}

func TestIsPlaceholder(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"xxxxxxxxxxxx", true},
		{"<YOUR_API_KEY>", true},
		{"${TOKEN}", true},
		{"********", true},
		{"changeme", true},
		{"your-api-key-here", true},
		{"aaaaaaaaaaaa", true},
		{"abababababab", true},
		{"XXXXXXXX", true},
		{"IOSFODNN7EXAMPLE", true},
		{"Q7ZJXKD3WPLM5RTB", false},
		{"Vq7#pL2m!xR9", false},
	}
	for _, tt := range tests {
		if got := IsPlaceholder(tt.in); got != tt.want {
			t.Errorf("IsPlaceholder(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestEntropy(t *testing.T) {
	tests := []struct {
		in   string
		want float64
	}{
		{"", 0}, {"aaaa", 0}, {"aabb", 1}, {"abcd", 2}, {"abcdefgh", 3},
	}
	for _, tt := range tests {
		if got := entropy(tt.in); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("entropy(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestMasks(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"john.doe@acme.com", "j***@a***.com"},
		{"4111 1111 1111 1111", "****1111"},
		{"(415) 555-0132", "***32"},
		{"GB82 WEST 1234 5698 7654 32", "GB**…5432"},
		{"192.168.1.20", "192.*.*.*"},
		{"2001:db8::1", "2001:*"},
		{"::1", ":*"},
	}
	set, _ := PII()
	for _, tt := range tests {
		fs := set.Find(tt.in)
		if len(fs) != 1 || fs[0].Masked != tt.want {
			t.Errorf("Find(%q) = %+v, want one finding masked %q", tt.in, fs, tt.want)
		}
	}
	if fs := Secrets().Find("AKIAQ7ZJXKD3WPLM5RTB"); len(fs) != 1 || fs[0].Masked != "AKIA…(20 chars)" {
		t.Errorf("AWS mask = %+v", fs)
	}
	// Secret masks keep the provider's fixed prefix only, never part of the
	// key's body, even when the body holds dashes or underscores.
	secrets := []struct {
		in, want string
	}{
		{"sk-abcdefghij-K7mQ2xR9vL4pT8wZ3nB6cY1dF5", "sk-…(40 chars)"},
		{"sk-proj-ab_cd-Q7mK2xR9vL4pT8wZ3nB6cY1dF5hJ", "sk-proj-…(42 chars)"},
		{"sk-ant-api03-7VIrxaR7kQfWv52uvEgoqiXnLAC1lIAYJRfza0hW_rdE2oapzzQbkrck-z1iYylswfgItIepZEufUlSoU5AZzcWQa3oBCAA", "sk-ant-api03-…(108 chars)"},
		{"xoxb-2718281828-3141592653-Zq8Lm3Xw9Rt6Yb2Nc5Vd", "xoxb-…(47 chars)"},
		{"sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_…(32 chars)"},
		{"ghp_8fKq2LmZx7RtY4vBnW1cJd9sPa3HeUo6QiTg", "ghp_…(40 chars)"},
	}
	for _, tt := range secrets {
		fs := Secrets().Find(tt.in)
		if len(fs) != 1 || fs[0].Masked != tt.want {
			t.Errorf("Secrets().Find(%q) = %+v, want one finding masked %q", tt.in, fs, tt.want)
		}
	}
}

// checkFindings asserts the invariants every Find result keeps.
func checkFindings(t *testing.T, text string, fs []Finding) {
	t.Helper()
	prevEnd := 0
	for _, f := range fs {
		if f.Start < prevEnd || f.End <= f.Start || f.End > len(text) {
			t.Fatalf("span %d-%d out of order or outside the text (len %d, previous end %d)", f.Start, f.End, len(text), prevEnd)
		}
		prevEnd = f.End
		if f.RuneStart != utf8.RuneCountInString(text[:f.Start]) || f.RuneEnd != utf8.RuneCountInString(text[:f.End]) {
			t.Fatalf("rune span %d-%d does not match bytes %d-%d", f.RuneStart, f.RuneEnd, f.Start, f.End)
		}
		if v := text[f.Start:f.End]; strings.Contains(f.Masked, v) {
			t.Fatalf("mask %q of %s contains the value %q", f.Masked, f.Kind, v)
		}
	}
}

var fuzzSeeds = []string{
	"", "a@b.co", "john.doe@acme-corp.com", "(415) 555-0132", "+44 20 7946 0958", "219-09-9999",
	"4111 1111 1111 1111", "GB82 WEST 1234 5698 7654 32", "10.0.0.1", "::1", "2001:db8::1", "::ffff:1.2.3.4",
	"AKIAQ7ZJXKD3WPLM5RTB", "ghp_8fKq2LmZx7RtY4vBnW1cJd9sPa3HeUo6QiTg", "sk-proj-Qm3xT9vLpZ2wRk7YhN4cB8dJ",
	"password = \"Vq7#pL2m!xR9\"", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ",
	"-----BEGIN PRIVATE KEY-----\nMIIEowIBAAKCAQEA3q8Zk2Lm9Xv7Rt5Yb1Nc3Wp6Hj8Qf0Gs2Ke4Td7Ua9Ic1Oe3Bg5Dh\n",
	"Zoë \xff\xfe a@b.co", "1.2.3.4.5", "+1", "sk-", "-----BEGIN PRIVATE KEY-----",
}

func FuzzPII(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	set, _ := PII()
	f.Fuzz(func(t *testing.T, text string) {
		checkFindings(t, text, set.Find(text))
	})
}

func FuzzSecrets(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkFindings(t, text, Secrets().Find(text))
	})
}

// adversarial are 64 KiB texts built to make a detector's own scanning
// loops do more than linear work: long runs of one anchor with the others
// missing, of digits, '@', '.', '-', ':' and separators.
func adversarial() map[string]string {
	const n = 64 << 10
	rep := func(unit string) string { return strings.Repeat(unit, n/len(unit)) }
	return map[string]string{
		"gho_":    rep("gho_ "),
		"github":  rep("github_pat_ "),
		"ASIA":    rep("ASIA "),
		"_test_":  rep("_test_ "),
		"Value=":  "value " + rep("Value= "),
		"VALUE=":  "value " + rep("VALUE="),
		"digits":  rep("1"),
		"digit-":  rep("1-"),
		"digit .": rep("1 ."),
		"at":      rep("@"),
		"a@":      rep("a@"),
		"dots":    rep("."),
		"dashes":  rep("-"),
		"colons":  rep("a:"),
		"token=":  rep("token="),
		"sk-":     rep("sk-"),
		"eyJ":     rep("eyJ."),
		"BEGIN":   rep("-----BEGIN "),
	}
}

// TestNextAnchorLinear: resuming a scan right after each anchor found, the
// bytes searched add up to about the text's length, for every anchor list
// of the tables and for texts full of one anchor and missing the others.
// (The search used to look for each anchor in the whole rest of the text
// and keep the earliest, so a text of 13,000 "gho_ " searched about 400 MB
// for the missing "ghp_".)
func TestNextAnchorLinear(t *testing.T) {
	lists := map[string][]string{"aws": awsAnchors, "github": githubAnchors, "stripe": stripeAnchors, "xml": xmlValueAnchors, "email": {"@"}}
	lists["slack"] = slackAnchors
	for _, p := range providers {
		if len(p.anchors) > 1 {
			lists[p.kind+" "+p.anchors[0]] = p.anchors
		}
	}
	texts := adversarial()
	for ln, anchors := range lists {
		var first byteSet
		for _, a := range anchors {
			first[a[0]] = true
		}
		for _, a := range anchors {
			texts["only "+a] = strings.Repeat(a+" ", (64<<10)/(len(a)+1))
		}
		for tn, text := range texts {
			searched, found := 0, 0
			for from := 0; from < len(text); {
				p, k, n := nextAnchor(text, from, anchors, &first)
				searched += n
				if p < 0 {
					break
				}
				found++
				from = p + len(anchors[k])
			}
			if searched > 2*len(text) {
				t.Errorf("anchors %s, text %q: searched %d bytes of a %d-byte text (%d anchors found), want at most twice its length", ln, tn, searched, len(text), found)
			}
		}
	}
}

// BenchmarkFindAdversarial times the full PII and secret scans of the
// adversarial texts; each should cost about what a plain text of the same
// length costs, not its square.
func BenchmarkFindAdversarial(b *testing.B) {
	pii, _ := PII()
	texts := adversarial()
	for _, name := range slices.Sorted(maps.Keys(texts)) {
		text := texts[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				pii.Find(text)
				Secrets().Find(text)
			}
		})
	}
}
