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
