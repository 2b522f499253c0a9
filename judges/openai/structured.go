package openai

import (
	"fmt"

	"github.com/proctorhq/proctor/internal/judgehttp"
)

// Structured says whether [Chat.Reply] asks the endpoint for the reply as
// a JSON schema (OpenAI's response_format of type json_schema, strict):
// StructuredAuto (the default, ""), StructuredOn ("on") or StructuredOff
// ("off").
type Structured = judgehttp.Structured

const (
	// StructuredAuto, the default, asks for a schema when the prompt lists
	// the keys of the JSON object it wants (as proctor's judge prompts do)
	// and falls back to plain text, for this call and every later one,
	// when the endpoint refuses the response_format with a 400 (counted
	// as a request; while it is unknown, calls go one at a time).
	StructuredAuto = judgehttp.StructuredAuto
	// StructuredOn asks for a schema whenever the prompt lists its keys;
	// an endpoint that refuses it is an error.
	StructuredOn = judgehttp.StructuredOn
	// StructuredOff never asks for a schema: replies are plain text.
	StructuredOff = judgehttp.StructuredOff
)

// ParseStructured reads "auto" (or ""), "on" or "off".
func ParseStructured(s string) (Structured, error) {
	st, err := judgehttp.ParseStructured(s)
	if err != nil {
		return "", fmt.Errorf("openai: %w", err)
	}
	return st, nil
}

// responseFormat is the response_format of a chat request.
type responseFormat struct {
	Type       string     `json:"type"`
	JSONSchema jsonSchema `json:"json_schema"`
}

type jsonSchema struct {
	Name   string         `json:"name"`
	Strict bool           `json:"strict"`
	Schema map[string]any `json:"schema"`
}

// schemaFor is the strict response format for a reply with keys (see
// [judgehttp.KeysSchema]).
func schemaFor(keys []string) *responseFormat {
	return &responseFormat{Type: "json_schema", JSONSchema: jsonSchema{Name: "judge_reply", Strict: true, Schema: judgehttp.KeysSchema(keys)}}
}
