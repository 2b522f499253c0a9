package proctor

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/proctorhq/proctor/internal/chat"
	"github.com/proctorhq/proctor/internal/kit"
)

// sampleWire is the JSON form of a Sample before the fields that take more
// than one shape (expected, references, context) are resolved.
type sampleWire struct {
	ID         string          `json:"id"`
	Input      string          `json:"input"`
	Output     *string         `json:"output"`
	Expected   json.RawMessage `json:"expected"`
	References json.RawMessage `json:"references"`
	Context    json.RawMessage `json:"context"`
	Item       map[string]any  `json:"item"`
	Metrics    Metrics         `json:"metrics"`
	ToolCalls  []ToolCall      `json:"tool_calls"`
	HTTPStatus int             `json:"http_status"`
	Model      Model           `json:"model"`
	Messages   json.RawMessage `json:"messages"`
}

// UnmarshalJSON decodes the sample object of a `proctor grade`
// input line. expected may be any JSON value: a string is kept as is, any
// other value as its compact JSON text, and null or absent leaves Expected
// nil. references and context items may be strings or {"id": ...} objects;
// ids go to ReferenceIDs and ContextIDs. Unknown fields are ignored here so
// that a line can carry extra keys (such as "grader") for its caller. Keys
// match case-insensitively, as encoding/json matches them. Anything but a
// JSON object (null included) is an error.
func (s *Sample) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) == 0 || t[0] != '{' {
		return fmt.Errorf("proctor: sample: want a JSON object, got %s", kit.JSONKind(t))
	}
	var w sampleWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*s = Sample{ID: w.ID, Input: w.Input, Item: w.Item, Metrics: w.Metrics,
		ToolCalls: w.ToolCalls, HTTPStatus: w.HTTPStatus, Model: w.Model}
	if w.Output != nil {
		s.Output = *w.Output
	}
	if err := s.readMessages(w.Messages); err != nil {
		return err
	}
	exp, err := expectedText(w.Expected)
	if err != nil {
		return fmt.Errorf("expected: %w", err)
	}
	s.Expected = exp
	s.ExpectedJSON = exp != nil && len(bytes.TrimSpace(w.Expected)) > 0 && bytes.TrimSpace(w.Expected)[0] != '"'
	if s.References, s.ReferenceIDs, err = kit.TextOrIDs(w.References); err != nil {
		return fmt.Errorf("references: %w", err)
	}
	if s.Context, s.ContextIDs, err = kit.TextOrIDs(w.Context); err != nil {
		return fmt.Errorf("context: %w", err)
	}
	return nil
}

// expectedText resolves a raw JSON expected value: nil for absent or null,
// the string for a JSON string, else the compact JSON text.
func expectedText(raw json.RawMessage) (*string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return &s, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, err
	}
	t := buf.String()
	return &t, nil
}

// readMessages decodes the messages key (see [Sample].Messages): an empty
// Output takes the last assistant turn's text, and empty ToolCalls the
// messages' calls.
func (s *Sample) readMessages(raw json.RawMessage) error {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return nil
	}
	msgs, err := chat.Parse(raw)
	if err != nil {
		return err
	}
	s.Messages = make([]Message, len(msgs))
	var calls []ToolCall
	last := -1
	for i, m := range msgs {
		s.Messages[i] = Message{Role: m.Role, Content: m.Content}
		for _, c := range m.Calls {
			tc := ToolCall{Name: c.Name, Arguments: c.Arguments, Result: c.Result, IsError: c.IsError}
			s.Messages[i].ToolCalls = append(s.Messages[i].ToolCalls, tc)
			calls = append(calls, tc)
		}
		if m.Role == "assistant" {
			last = i
		}
	}
	if s.Output == "" && last >= 0 {
		s.Output = msgs[last].Content
	}
	if len(s.ToolCalls) == 0 {
		s.ToolCalls = calls
	}
	return nil
}
