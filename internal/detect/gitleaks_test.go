package detect

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// gitleaksRules maps the gitleaks rule ids our detectors cover to the kind
// that finds them: the provider table's rows and the detectors below it.
func gitleaksRules() map[string]string {
	m := map[string]string{
		"aws-access-token":             AWSAccessKeyID,
		"github-app-token":             GitHubToken,
		"github-fine-grained-pat":      GitHubToken,
		"github-oauth":                 GitHubToken,
		"github-pat":                   GitHubToken,
		"github-refresh-token":         GitHubToken,
		"openai-api-key":               SKKey,
		"anthropic-api-key":            SKKey,
		"anthropic-admin-api-key":      SKKey,
		"slack-app-token":              SlackToken,
		"slack-bot-token":              SlackToken,
		"slack-config-access-token":    SlackToken,
		"slack-config-refresh-token":   SlackToken,
		"slack-legacy-bot-token":       SlackToken,
		"slack-legacy-token":           SlackToken,
		"slack-legacy-workspace-token": SlackToken,
		"slack-user-token":             SlackToken,
		"gcp-api-key":                  GoogleAPIKey,
		"stripe-access-token":          StripeKey,
		"private-key":                  PrivateKey,
		"jwt":                          JWT,
		"sidekiq-sensitive-url":        ConnectionPassword,
	}
	for _, p := range providers {
		for _, r := range p.rules {
			m[r] = p.kind
		}
	}
	for _, r := range assignmentRules {
		m[r] = SecretAssignment
	}
	return m
}

// assignmentRules are gitleaks' keyword rules (a provider's name in the
// variable, a value of the provider's shape after it) that the generic
// assignment detector covers: their values are long, mixed and high in
// entropy, and their example names hold key, token, secret or password.
var assignmentRules = []string{
	"adafruit-api-key",
	"adobe-client-id",
	"airtable-api-key",
	"algolia-api-key",
	"alibaba-secret-key",
	"asana-client-secret",
	"atlassian-api-token",
	"beamer-api-token",
	"bitbucket-client-id",
	"bitbucket-client-secret",
	"bittrex-access-key",
	"bittrex-secret-key",
	"cloudflare-api-key",
	"cloudflare-global-api-key",
	"codecov-access-token",
	"coinbase-access-token",
	"confluent-access-token",
	"confluent-secret-key",
	"contentful-delivery-api-token",
	"datadog-access-token",
	"defined-networking-api-token",
	"discord-api-token",
	"droneci-access-token",
	"dropbox-api-token",
	"etsy-access-token",
	"facebook-secret",
	"fastly-api-token",
	"finicity-api-token",
	"finicity-client-secret",
	"finnhub-access-token",
	"flickr-access-token",
	"flutterwave-encryption-key",
	"flutterwave-secret-key",
	"freshbooks-access-token",
	"gitter-access-token",
	"gocardless-api-token",
	"intercom-api-key",
	"jfrog-identity-token",
	"kucoin-access-token",
	"kucoin-secret-key",
	"launchdarkly-access-token",
	"linear-client-secret",
	"linkedin-client-id",
	"linkedin-client-secret",
	"lob-api-key",
	"looker-client-id",
	"looker-client-secret",
	"mailgun-private-api-token",
	"mailgun-signing-key",
	"mattermost-access-token",
	"messagebird-api-token",
	"new-relic-user-api-id",
	"nytimes-access-token",
	"okta-access-token",
	"plaid-secret-key",
	"privateai-api-token",
	"rapidapi-access-token",
	"sendbird-access-id",
	"sendbird-access-token",
	"sentry-access-token",
	"squarespace-access-token",
	"sumologic-access-token",
	"travisci-access-token",
	"twitch-api-token",
	"twitter-access-secret",
	"twitter-api-key",
	"twitter-api-secret",
	"zendesk-secret-key",
}

type gitleaksExample struct {
	Rule   string `json:"rule"`
	TP     bool   `json:"tp"`
	Text   string `json:"text"`
	File   string `json:"file"`
	Commit string `json:"commit"`
}

// TestGitleaksExamples runs every covered rule's own true-positive
// examples (each must be found, with the rule's kind) and false-positive
// examples (none may be found as that kind), as gitleaks' rule files at
// the commit in testdata/disclosure/gitleaks-examples.jsonl define them.
// Values gitleaks generates at random are regenerated with the same shape.
func TestGitleaksExamples(t *testing.T) {
	f, err := os.Open("../../testdata/disclosure/gitleaks-examples.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rules := gitleaksRules()
	tested := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ex gitleaksExample
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			t.Fatal(err)
		}
		kind, ok := rules[ex.Rule]
		if !ok {
			continue
		}
		if why, ok := disagreements[ex.Rule+" "+ex.Text]; ok {
			if got := kinds(Secrets().Find(ex.Text)); slices.Contains(got, kind) == ex.TP {
				t.Errorf("%s: %q is listed as a disagreement (%s) but we now agree", ex.Rule, ex.Text, why)
			}
			continue
		}
		got := kinds(Secrets().Find(ex.Text))
		switch {
		case ex.TP && !slices.Contains(got, kind):
			t.Errorf("%s (%s@%.7s): true positive not found as %s (got %v): %q", ex.Rule, ex.File, ex.Commit, kind, got, ex.Text)
		case !ex.TP && slices.Contains(got, kind):
			t.Errorf("%s (%s@%.7s): false positive found as %s: %q", ex.Rule, ex.File, ex.Commit, kind, ex.Text)
		}
		tested[ex.Rule]++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, ex := range shapeExamples() {
		got := kinds(Secrets().Find(ex.Text))
		if kind := rules[ex.Rule]; ex.TP != slices.Contains(got, kind) {
			t.Errorf("%s (%s): found as %s = %v, want %v: %q", ex.Rule, ex.File, kind, !ex.TP, ex.TP, ex.Text)
		}
		tested[ex.Rule]++
	}
	for r := range rules {
		if tested[r] == 0 {
			t.Errorf("%s: no example tested", r)
		}
	}
	t.Logf("%d rules, %d examples", len(tested), sum(tested))
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// disagreements, keyed by rule id and example, are gitleaks true positives we deliberately do not flag:
// documentation stand-ins, which this package treats as placeholders
// everywhere (as it does AKIAIOSFODNN7EXAMPLE).
var disagreements = map[string]string{
	"anthropic-api-key sk-ant-api03-abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde-1234fghijklmnopby56aaaogaopaaaabc123xyzAA":                                             "typed sequence klmnopqrstuvwx",
	"anthropic-admin-api-key sk-ant-admin01-abc12fake-456def789ghij-klmnopqrstuvwx-3456yza789bcde-12fakehijklmnopby56aaaogaopaaaabc123xyzAA":                                     "says fake",
	"aws-amazon-bedrock-api-key-long-lived ABSKQmVkcm9ja0FQSUtleS1EXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXM=": "says EXAMPLE",
}

// shapeExamples are examples for the rules whose gitleaks examples the
// extraction script cannot evaluate (a value built from a regular
// expression): literal ones copied from the rule file, the others
// regenerated in the shape the rule file gives, at the same commit.
func shapeExamples() []gitleaksExample {
	const c = "b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b"
	ex := func(rule, file string, tp bool, text string) gitleaksExample {
		return gitleaksExample{Rule: rule, TP: tp, Text: text, File: "cmd/generate/config/rules/" + file, Commit: c}
	}
	return []gitleaksExample{
		ex("age-secret-key", "age.go", true, `age_api_token = "AGE-SECRET-KEY-1SKPA0R28H70CX0QD63TC2YGUGGQQDD22J5VDTVCNPH62FSY4NQ4YNKN75T"`),
		ex("age-secret-key", "age.go", false, `AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ`), // gitleaks: tp; a run of Q is a stand-in here
		ex("airtable-personnal-access-token", "airtable.go", true, `airtableToken = "pat44ldqbwzb90xya.e15637ebb8e3b91d26ab4a829a95249f512c17b8ed411fa644d35db41d94e5ef"`),
		ex("maxmind-license-key", "maxmind.go", true, `maxmind_api_token = "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"`),
		ex("sentry-user-token", "sentry.go", true, `sentry_api_token = "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"`),
		ex("microsoft-teams-webhook", "teams.go", true, "https://mycompany.webhook.office.com/webhookb2/u4rs4zjh-y8l5-vlf5-r696-xewctx9r5qsv@la49qur3-s6ww-rw0w-l2xv-7j7kmx4sf0k7/IncomingWebhook/0t9rbmk2lolc4okdihul4m9c03wyenpx/awzr0h9x-c9tg-s86v-swi0-08x3jky4mifw"),
		ex("telegram-bot-api-token", "telegram.go", true, `telegram_api_token = "48213957:Ak9x-2mQ_7LpR4tZ8wN3vB6yC1dF5hJ0sGe"`),
		ex("telegram-bot-api-token", "telegram.go", true, `telegram bot: 2718281828459045:AAq7Lm2xR9vK4pT8wZ3nB6cY1dF5hJ0sGeU`),
		ex("telegram-bot-api-token", "telegram.go", false, `telegram_api_token = "4821:Ak9x-2mQ_7LpR4tZ8wN3vB6yC1dF5hJ0sGe"`),
		ex("telegram-bot-api-token", "telegram.go", false, `telegram_api_token = "27182818284590452:Ak9x-2mQ_7LpR4tZ8wN3vB6yC1dF5hJ0sGe"`),
		ex("telegram-bot-api-token", "telegram.go", false, `<xsd:element name="AgencyIdentificationCode" type="clm48213:AgencyIdentificationCodeContentType"/>`),
		ex("telegram-bot-api-token", "telegram.go", false, `telegram_api_token = "48213957:Ahellok9x-2mQ_7LpR4tZ8wN3vB6yC1dF5hJ0sGe"`),
		ex("telegram-bot-api-token", "telegram.go", false, `telegram_api_token = "48213957:Ak9x-2mQ_7LpR4tZ8wN3vB6yC1dF5hJ0sGe-some-other-thing"`),
		ex("jwt", "jwt.go", true, `https://dai2-playlistserver.aws.syncbak.com/cpl/20980038/dai2v5/1.0/7b2264657669636554797065223a387d/master.m3u8?access_token=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IkdyYXkyMDE2MDgyOSJ9.eyJtaWQiOiIyMDk4MDAzOCIsImNpZCI6MjE5MDMsInNpZCI6MTU4LCJtZDUiOiIwN2QxMmRjNjAwOTM2MGI0MmY3NjNkNTRiMWIwZjI1NCIsImlhdCI6MTY2MDkxMzU2MCwiZXhwIjoxNjkyNDQ5NTYwLCJpc3MiOiJTeW5jYmFrIChURykifQ.JrWVgwzIn_RcNuWhkzIjr1i4qjXU1v4n0KFrSzoTQvQ`),
	}
}
