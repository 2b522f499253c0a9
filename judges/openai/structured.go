package openai

import (
	"fmt"
	"slices"
	"strings"
)

// Structured says whether [Chat.Reply] asks the endpoint for the reply as
// a JSON schema (OpenAI's response_format of type json_schema, strict).
type Structured string

const (
	// StructuredAuto, the default, asks for a schema when the prompt lists
	// the keys of the JSON object it wants (as proctor's judge prompts do)
	// and falls back to plain text, for this call and every later one,
	// when the endpoint refuses the response_format with a 400 (counted
	// as a request; while it is unknown, calls go one at a time).
	StructuredAuto Structured = ""
	// StructuredOn asks for a schema whenever the prompt lists its keys;
	// an endpoint that refuses it is an error.
	StructuredOn Structured = "on"
	// StructuredOff never asks for a schema: replies are plain text.
	StructuredOff Structured = "off"
)

// ParseStructured reads "auto" (or ""), "on" or "off".
func ParseStructured(s string) (Structured, error) {
	switch s {
	case "", "auto":
		return StructuredAuto, nil
	case "on":
		return StructuredOn, nil
	case "off":
		return StructuredOff, nil
	}
	return "", fmt.Errorf("openai: structured %q: want auto, on or off", s)
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

// keysMarker is how proctor's judge prompts introduce the keys of the JSON
// object they ask for, one "- "key": what it holds" line each.
const keysMarker = "one JSON object with these keys"

// maxSchemaKeys bounds the keys read from a prompt.
const maxSchemaKeys = 32

// promptKeys returns the keys a prompt asks its JSON reply to have, in
// order: the `- "key":` lines that follow the line that says it wants one
// JSON object with these keys. Nil when the prompt says no such thing.
func promptKeys(prompt string) []string {
	i := strings.LastIndex(prompt, keysMarker)
	if i < 0 {
		return nil
	}
	rest := prompt[i:]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return nil
	}
	var keys []string
	for line := range strings.Lines(rest[nl+1:]) {
		line = strings.TrimRight(line, "\r\n")
		if !strings.HasPrefix(line, `- "`) {
			break
		}
		end := strings.Index(line[3:], `":`)
		if end <= 0 {
			break
		}
		k := line[3 : 3+end]
		if strings.ContainsAny(k, "\"\\") || len(keys) == maxSchemaKeys || slices.Contains(keys, k) {
			return nil
		}
		keys = append(keys, k)
	}
	return keys
}

// schemaFor is the strict response format for a reply with keys. A score
// is a number; confidence, basis and verdict are their words; every other
// key is a string.
func schemaFor(keys []string) *responseFormat {
	props := make(map[string]any, len(keys))
	for _, k := range keys {
		switch k {
		case "score":
			props[k] = map[string]any{"type": "number"}
		case "confidence":
			props[k] = map[string]any{"type": "string", "enum": []string{"high", "low"}}
		case "basis":
			props[k] = map[string]any{"type": "string", "enum": []string{"answer", "outside"}}
		case "verdict":
			props[k] = map[string]any{"type": "string", "enum": []string{"pass", "fail", "abstain"}}
		default:
			props[k] = map[string]any{"type": "string"}
		}
	}
	return &responseFormat{Type: "json_schema", JSONSchema: jsonSchema{
		Name: "judge_reply", Strict: true,
		Schema: map[string]any{"type": "object", "properties": props, "required": keys, "additionalProperties": false},
	}}
}
