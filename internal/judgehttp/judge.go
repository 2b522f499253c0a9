package judgehttp

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/proctorhq/proctor"
)

// EndpointURL joins an API path such as "/chat/completions" to base, an
// http(s) base URL, before base's query string: "https://h/v1?api-version=2"
// gives "https://h/v1/chat/completions?api-version=2". A base URL with a
// fragment or with user:password@ is refused; the error names vendor and
// does not repeat the URL, which may hold a key.
func EndpointURL(vendor, base, path string) (string, error) {
	u, err := url.Parse(base)
	switch {
	case err != nil:
		return "", fmt.Errorf("%s: base URL is not a URL", vendor)
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		return "", fmt.Errorf("%s: base URL %s://%s: want http:// or https:// and a host", vendor, u.Scheme, u.Host)
	case u.User != nil || u.Fragment != "":
		return "", fmt.Errorf("%s: base URL of host %s: user information and #fragments are refused; give the key in api_key_env", vendor, u.Host)
	}
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawPath = ""
	return u.String(), nil
}

// URLSecrets returns the values of base's query parameters, which may be
// keys (?api-key=...), for the caller to redact from what it shows.
func URLSecrets(base string) []string {
	u, err := url.Parse(base)
	if err != nil {
		return nil
	}
	var out []string
	for _, vs := range u.Query() {
		out = append(out, vs...)
	}
	return out
}

// APIKey returns the key: key itself, or the value of the environment
// variable env when env is set (an error when it is unset or empty).
func APIKey(vendor, key, env string) (string, error) {
	if env == "" {
		return key, nil
	}
	v, ok := os.LookupEnv(env)
	if !ok || v == "" {
		return "", fmt.Errorf("%s: API key variable %s is not set", vendor, env)
	}
	return v, nil
}

// Cost is the price of in input and out output tokens at prices per
// million tokens.
func Cost(in, out int, inPerMTok, outPerMTok float64) float64 {
	return (float64(in)*inPerMTok + float64(out)*outPerMTok) / 1e6
}

// Registration is what a client knows of itself when it registers as a
// judge: its model, confidence threshold, completion cap and prices per
// million tokens (both 0: unpriced).
type Registration struct {
	Model                       string
	Threshold                   float64
	MaxTokens                   int
	InputPerMTok, OutputPerMTok float64
}

// JudgeModel registers reply as a judge named name of the given family,
// with r's model, confidence threshold and MaxTokens, and its prices when
// either is set, by which a [proctor.JudgeBudget] reserves each call
// before it is made.
func JudgeModel(name, family string, r Registration, reply proctor.UsageJudge) proctor.JudgeModel {
	m := proctor.JudgeModel{Name: name, Family: family, Model: r.Model, CallWithUsage: reply,
		ConfidenceThreshold: r.Threshold, MaxTokens: r.MaxTokens}
	if r.InputPerMTok > 0 || r.OutputPerMTok > 0 {
		m.Prices = &proctor.JudgePrices{InputPerMTok: r.InputPerMTok, OutputPerMTok: r.OutputPerMTok}
	}
	return m
}

// PlainJudge is reply as a [proctor.Judge]: its text alone.
func PlainJudge(reply proctor.UsageJudge) proctor.Judge {
	return func(ctx context.Context, prompt string) (string, error) {
		r, err := reply(ctx, prompt)
		return r.Text, err
	}
}
