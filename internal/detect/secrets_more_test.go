package detect

import (
	"slices"
	"strings"
	"testing"
)

// TestSecretsMissedBefore covers values the detectors used to miss and
// the publishable keys they used to flag.
func TestSecretsMissedBefore(t *testing.T) {
	pemBody := strings.Repeat("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7", 3)
	tests := []struct {
		name, text string
		want       []string
	}{
		{"slack webhook", `SLACK_URL=https://hooks.slack.com/services/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`, []string{SlackWebhook}},
		{"slack webhook without scheme", `post to hooks.slack.com/workflows/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`, []string{SlackWebhook}},
		{"slack webhook placeholder", `https://hooks.slack.com/services/XXXXXXXXX/XXXXXXXXX/XXXXXXXXXXXXXXXXXXXXXXXX`, nil},
		{"escaped PEM in JSON", `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\n` + pemBody + `\n` + pemBody + `\n-----END PRIVATE KEY-----\n"}`, []string{PrivateKey}},
		{"escaped PEM placeholder", `"private_key": "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n"`, nil},
		{"postgres url", `DATABASE_URL=postgres://app:Wq7tZ2kLp9@db.internal:5432/orders`, []string{ConnectionPassword}},
		{"mongodb+srv url", `client = MongoClient("mongodb+srv://admin:x8Kd2mQp7Lz@cluster0.ab1cd.mongodb.net/test")`, []string{ConnectionPassword}},
		{"redis url no user", `REDIS_URL=redis://:T9vX2qLm8Rw@cache:6379/0`, []string{ConnectionPassword}},
		{"amqp url", `amqp://worker:9fJ2kq7Xw1@rabbit.local:5672/`, []string{ConnectionPassword}},
		{"mysql stand-in password", `mysql://root:password@localhost:3306/app`, nil},
		{"env reference", `postgres://app:${DB_PASSWORD}@db:5432/app`, nil},
		{"masked", `postgres://app:****@db:5432/app`, nil},
		{"template", `postgresql://{user}:{password}@{host}/{db}`, nil},
		{"no password", `postgres://app@db:5432/app and https://example.com:8443/path`, nil},
		{"stripe publishable", `const stripe = Stripe("pk_live_51H8x2Kq9Lw3Tz7Yb4Rn")`, nil},
		{"stripe publishable test", `pk_test_TYooMQauvdEDq54NiTphI7jx`, nil},
		{"stripe secret", `sk_live_51H8x2Kq9Lw3Tz7Yb4Rn`, []string{StripeKey}},
	}
	for _, tt := range tests {
		got := kinds(Secrets().Find(tt.text))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q: got %v, want %v", tt.name, tt.text, got, tt.want)
		}
		for _, f := range Secrets().Find(tt.text) {
			if v := tt.text[f.Start:f.End]; len(v) > 8 && strings.Contains(f.Masked, v) {
				t.Errorf("%s: mask %q shows the value", tt.name, f.Masked)
			}
		}
	}
}

// TestProviderTable checks the provider table's invariants: it fits the
// presence array, every row has anchors of two bytes or more, and every
// row's pattern compiles.
func TestProviderTable(t *testing.T) {
	if len(providers) > maxProviders {
		t.Fatalf("%d provider rows, more than maxProviders (%d)", len(providers), maxProviders)
	}
	for _, p := range providers {
		if len(p.anchors) == 0 || len(p.rules) == 0 {
			t.Errorf("%s: no anchors or no rules", p.kind)
		}
		for _, a := range p.anchors {
			if len(a) < 2 {
				t.Errorf("%s: anchor %q shorter than two bytes", p.kind, a)
			}
		}
		_ = lazy(p.pattern)()
	}
}

// TestProviderPresence: the one-pass anchor search finds exactly the rows
// a literal search per row finds.
func TestProviderPresence(t *testing.T) {
	for _, text := range []string{"", "x", "token glpat-abc and SK12 and :A and hooks.slack.com/ x", "pnu_pul-pplx-pscale_pw_", "sq0atp-EAAAEZAK"} {
		var present [maxProviders]bool
		providerPresence(text, &present)
		for i, p := range providers {
			want := false
			for _, a := range p.anchors {
				want = want || strings.Contains(text, a)
			}
			if present[i] != want {
				t.Errorf("%q: row %d (%s) present = %v, want %v", text, i, p.kind, present[i], want)
			}
		}
	}
}
