// Package chat reads a conversation written as OpenAI chat messages or
// Anthropic messages into one plain form: each message's role, its text,
// and the tool calls it made, with each call's result and error status
// taken from the tool message (OpenAI) or tool_result block (Anthropic)
// that answers it.
package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Message is one turn of a conversation.
type Message struct {
	Role    string
	Content string
	Calls   []Call
}

// Call is one tool call a message made.
type Call struct {
	ID        string
	Name      string
	Arguments json.RawMessage
	Result    json.RawMessage
	IsError   bool
}

// ErrMessages is wrapped by every error of [Parse].
var ErrMessages = errors.New("messages")

// wireMessage holds the keys of both formats.
type wireMessage struct {
	Role       *string           `json:"role"`
	Content    json.RawMessage   `json:"content"`
	ToolCalls  []json.RawMessage `json:"tool_calls"`
	ToolCallID string            `json:"tool_call_id"`
}

// block is an Anthropic content block (or an OpenAI content part).
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// callRef locates a call by message and position.
type callRef struct{ msg, call int }

// Parse reads a JSON array of messages. A message is an object with a
// string role; its content is a string, null, or an array of blocks (text,
// tool_use, tool_result; other block types are skipped). An assistant's
// tool_calls are OpenAI's ({id, function: {name, arguments}}) or plain
// {name, arguments, result, is_error}. A tool message (OpenAI) or a
// tool_result block (Anthropic) sets its call's result, and is_error marks
// the call failed; one that answers no call is an error.
func Parse(raw []byte) ([]Message, error) {
	var wire []wireMessage
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '[' {
		return nil, fmt.Errorf("%w: want an array of messages", ErrMessages)
	}
	if err := json.Unmarshal(raw, &wire); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMessages, err)
	}
	out := make([]Message, 0, len(wire))
	byID := map[string]callRef{}
	for i, w := range wire {
		if w.Role == nil || *w.Role == "" {
			return nil, fmt.Errorf("%w: message %d: no role", ErrMessages, i+1)
		}
		m := Message{Role: *w.Role}
		results, err := m.read(w)
		if err != nil {
			return nil, fmt.Errorf("%w: message %d: %w", ErrMessages, i+1, err)
		}
		for j, c := range m.Calls {
			if c.ID != "" {
				byID[c.ID] = callRef{len(out), j}
			}
		}
		out = append(out, m)
		for _, r := range results {
			ref, ok := byID[r.ToolUseID]
			if !ok {
				return nil, fmt.Errorf("%w: message %d: a tool result for %q, which no earlier call has", ErrMessages, i+1, r.ToolUseID)
			}
			c := &out[ref.msg].Calls[ref.call]
			c.Result, c.IsError = resultJSON(r.Content), r.IsError
		}
	}
	return out, nil
}

// read fills m's content and calls from w and returns the tool results
// it carries.
func (m *Message) read(w wireMessage) ([]block, error) {
	blocks, err := contentBlocks(w.Content)
	if err != nil {
		return nil, err
	}
	var results []block
	var text []string
	for _, b := range blocks {
		switch b.Type {
		case "text", "input_text", "output_text":
			text = append(text, b.Text)
		case "tool_use":
			if b.Name == "" {
				return nil, errors.New("a tool_use block without a name")
			}
			m.Calls = append(m.Calls, Call{ID: b.ID, Name: b.Name, Arguments: b.Input})
		case "tool_result":
			results = append(results, b)
		}
	}
	m.Content = strings.Join(text, "")
	for k, raw := range w.ToolCalls {
		c, err := toolCall(raw)
		if err != nil {
			return nil, fmt.Errorf("tool_calls[%d]: %w", k, err)
		}
		m.Calls = append(m.Calls, c)
	}
	if m.Role == "tool" && w.ToolCallID != "" {
		results = append(results, block{ToolUseID: w.ToolCallID, Content: w.Content})
	}
	return results, nil
}

// contentBlocks reads content: a string is one text block, null none.
func contentBlocks(raw json.RawMessage) ([]block, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return nil, nil
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return []block{{Type: "text", Text: s}}, nil
	case raw[0] == '[':
		var bs []block
		if err := json.Unmarshal(raw, &bs); err != nil {
			return nil, fmt.Errorf("content: %w", err)
		}
		return bs, nil
	}
	return nil, errors.New("content: want a string, null or an array of blocks")
}

// toolCall reads an OpenAI tool call or a plain {name, arguments} one.
func toolCall(raw json.RawMessage) (Call, error) {
	var w struct {
		ID       string `json:"id"`
		Function *struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Result    json.RawMessage `json:"result"`
		IsError   bool            `json:"is_error"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return Call{}, err
	}
	c := Call{ID: w.ID, Name: w.Name, Arguments: w.Arguments, Result: w.Result, IsError: w.IsError}
	if w.Function != nil {
		c.Name, c.Arguments = w.Function.Name, w.Function.Arguments
	}
	if c.Name == "" {
		return Call{}, errors.New("a tool call without a name")
	}
	return c, nil
}

// resultJSON is a tool result as JSON: a string is kept as a JSON string;
// an array of text blocks becomes the JSON string of their text.
func resultJSON(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return raw
	}
	var bs []block
	if json.Unmarshal(raw, &bs) != nil {
		return raw
	}
	var sb strings.Builder
	for _, b := range bs {
		sb.WriteString(b.Text)
	}
	out, _ := json.Marshal(sb.String())
	return out
}
