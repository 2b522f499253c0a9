package judgehttp

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/proctorhq/proctor"
)

// BaseURL returns url without trailing slashes, or an error naming vendor
// when it is not http(s).
func BaseURL(vendor, url string) (string, error) {
	base := strings.TrimRight(url, "/")
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return "", fmt.Errorf("%s: base URL %q: want http:// or https://", vendor, url)
	}
	return base, nil
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

// JudgeModel registers reply as a judge of model named name of the given
// family, with its confidence threshold.
func JudgeModel(name, family, model string, threshold float64, reply proctor.UsageJudge) proctor.JudgeModel {
	return proctor.JudgeModel{Name: name, Family: family, Model: model, CallWithUsage: reply, ConfidenceThreshold: threshold}
}

// PlainJudge is reply as a [proctor.Judge]: its text alone.
func PlainJudge(reply proctor.UsageJudge) proctor.Judge {
	return func(ctx context.Context, prompt string) (string, error) {
		r, err := reply(ctx, prompt)
		return r.Text, err
	}
}
