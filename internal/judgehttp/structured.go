package judgehttp

import (
	"fmt"
	"slices"
	"strings"
)

// Structured says whether a judge client asks the endpoint for the reply
// in a JSON shape it enforces (OpenAI's response_format, Anthropic's
// forced tool call).
type Structured string

const (
	// StructuredAuto asks when the prompt lists its keys and falls back to
	// plain text, learned once, when the endpoint refuses.
	StructuredAuto Structured = ""
	// StructuredOn asks whenever the prompt lists its keys; a refusal is an
	// error.
	StructuredOn Structured = "on"
	// StructuredOff never asks.
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
	return "", fmt.Errorf("structured %q: want auto, on or off", s)
}

// keysMarker is how proctor's judge prompts introduce the keys of the JSON
// object they ask for, one "- "key": what it holds" line each.
const keysMarker = "one JSON object with these keys"

// MaxSchemaKeys bounds the keys read from a prompt.
const MaxSchemaKeys = 32

// PromptKeys returns the keys a prompt asks its JSON reply to have, in
// order: the `- "key":` lines that follow the line that says it wants one
// JSON object with these keys. Nil when the prompt says no such thing.
func PromptKeys(prompt string) []string {
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
		if strings.ContainsAny(k, "\"\\") || len(keys) == MaxSchemaKeys || slices.Contains(keys, k) {
			return nil
		}
		keys = append(keys, k)
	}
	return keys
}

// KeysSchema is the strict JSON schema of a reply with keys: an object
// requiring them all and nothing else. A score is a number; confidence,
// basis and verdict are their words; every other key is a string.
func KeysSchema(keys []string) map[string]any {
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
	return map[string]any{"type": "object", "properties": props, "required": keys, "additionalProperties": false}
}
