package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/judges/anthropic"
	"github.com/proctorhq/proctor/judges/openai"
)

// modelJudge builds a judge of type openai ("" too) or anthropic, checking
// that the entry holds only keys its type takes.
func modelJudge(j judgeEntry, structured openai.Structured) (proctor.JudgeModel, error) {
	if len(j.Replies) > 0 {
		return proctor.JudgeModel{}, fmt.Errorf("replies are for type scripted")
	}
	if j.ThinkingBudget < 0 {
		return proctor.JudgeModel{}, errors.New("thinking_budget must not be negative")
	}
	temp, omit, err := temperature(j.Temperature)
	if err != nil {
		return proctor.JudgeModel{}, err
	}
	var m proctor.JudgeModel
	switch j.Type {
	case "", "openai":
		m, err = openaiJudge(j, structured, temp, omit)
	case "anthropic":
		m, err = anthropicJudge(j, structured, temp, omit)
	default:
		return m, fmt.Errorf("type %q: want openai (the default), anthropic or scripted", j.Type)
	}
	m.Concurrency = j.Concurrency
	if j.Prices != nil {
		// Given, even as zeros: a free judge, not one of unknown cost.
		m.Prices = &proctor.JudgePrices{InputPerMTok: j.Prices.InputPerMTok, OutputPerMTok: j.Prices.OutputPerMTok}
	}
	return m, err
}

// temperature reads a judge's temperature: a number, or "omit" to send
// none; absent means 0.
func temperature(raw json.RawMessage) (float64, bool, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, false, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "omit" {
			return 0, true, nil
		}
		return 0, false, fmt.Errorf("temperature %q: want a number or omit", s)
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, false, fmt.Errorf("temperature %s: want a number or omit", raw)
	}
	return f, false, nil
}

func openaiJudge(j judgeEntry, structured openai.Structured, temp float64, omit bool) (proctor.JudgeModel, error) {
	if j.ThinkingBudget != 0 {
		return proctor.JudgeModel{}, errors.New("thinking_budget is for type anthropic; an openai judge takes reasoning_effort")
	}
	o := openai.ChatOptions{
		BaseURL: j.BaseURL, Model: j.Model, APIKeyEnv: j.APIKeyEnv,
		Seed: j.Seed, MaxTokens: j.MaxTokens, TokensField: openai.TokensField(j.MaxTokensField),
		Temperature: temp, OmitTemperature: omit, ReasoningEffort: j.ReasoningEffort,
		Logprobs: j.Logprobs, ConfidenceThreshold: j.ConfidenceThreshold,
		Timeout: time.Duration(j.TimeoutMS) * time.Millisecond, Structured: structured,
	}
	if j.Prices != nil {
		o.InputPerMTok, o.OutputPerMTok = j.Prices.InputPerMTok, j.Prices.OutputPerMTok
	}
	chat, err := openai.NewChat(o)
	if err != nil {
		return proctor.JudgeModel{}, err
	}
	return chat.JudgeModel(j.Name, j.Family), nil
}

func anthropicJudge(j judgeEntry, structured openai.Structured, temp float64, omit bool) (proctor.JudgeModel, error) {
	switch {
	case j.Seed != 0:
		return proctor.JudgeModel{}, errors.New("seed: the Messages API takes none")
	case j.ReasoningEffort != "":
		return proctor.JudgeModel{}, errors.New("reasoning_effort is for type openai; an anthropic judge takes thinking_budget")
	case j.MaxTokensField != "":
		return proctor.JudgeModel{}, errors.New("max_tokens_field is for type openai: the Messages API takes max_tokens")
	case j.Logprobs:
		return proctor.JudgeModel{}, errors.New("logprobs: the Messages API returns no log probabilities; confidence is the judge's own")
	}
	o := anthropic.Options{
		BaseURL: j.BaseURL, Model: j.Model, APIKeyEnv: j.APIKeyEnv,
		MaxTokens: j.MaxTokens, ThinkingBudget: j.ThinkingBudget,
		Temperature: temp, OmitTemperature: omit, ConfidenceThreshold: j.ConfidenceThreshold,
		Timeout: time.Duration(j.TimeoutMS) * time.Millisecond, Structured: structured,
	}
	if j.Prices != nil {
		o.InputPerMTok, o.OutputPerMTok = j.Prices.InputPerMTok, j.Prices.OutputPerMTok
	}
	judge, err := anthropic.New(o)
	if err != nil {
		return proctor.JudgeModel{}, err
	}
	return judge.JudgeModel(j.Name, j.Family), nil
}
