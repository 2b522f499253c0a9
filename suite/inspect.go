package suite

import (
	"encoding/json"
	"fmt"
	"strings"
)

// inspectLog is what a suite reads of an Inspect AI eval log (the JSON
// log format, version 2): each sample's id, epoch, input, target,
// metadata and recorded output.
type inspectLog struct {
	Version *int `json:"version"`
	Samples []struct {
		ID       json.RawMessage `json:"id"`
		Epoch    int             `json:"epoch"`
		Input    json.RawMessage `json:"input"`
		Target   json.RawMessage `json:"target"`
		Metadata map[string]any  `json:"metadata"`
		Output   struct {
			Completion *string `json:"completion"`
			Choices    []struct {
				Message struct {
					Content json.RawMessage `json:"content"`
				} `json:"message"`
			} `json:"choices"`
		} `json:"output"`
	} `json:"samples"`
}

// inspectCases reads the samples of an Inspect AI eval log named by the
// suite's cases_inspect key and returns them as the list node a cases key
// would hold: one case per sample and epoch, with the output the log
// recorded, so the suite's graders re-grade it offline.
func (s *Suite) inspectCases(n *node) (*node, error) {
	if n.kind != kindMap {
		return nil, s.errAt(n, "cases_inspect", "want a map (file), got %s", n.what())
	}
	if err := s.checkKeys(n, "cases_inspect", []string{"file"}); err != nil {
		return nil, err
	}
	fn := n.get("file")
	if fn == nil {
		return nil, s.errAt(n, "cases_inspect.file", "missing: name the Inspect eval log (.json), in the suite's folder")
	}
	file, err := s.str(fn, "cases_inspect.file")
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(strings.ToLower(file), ".eval") {
		return nil, s.errAt(fn, "cases_inspect.file", "%s is an .eval (zip) log: convert it with `inspect log convert --to json`", file)
	}
	s.dataFile = file
	data, err := s.root.ReadFile(file)
	if err != nil {
		return nil, s.errAt(fn, "cases_inspect.file", "cannot read %s in the suite's folder: %v", file, err)
	}
	var log inspectLog
	if err := json.Unmarshal(data, &log); err != nil {
		return nil, &Error{File: file, Msg: "not an Inspect eval log: " + err.Error()}
	}
	if log.Version == nil || log.Samples == nil {
		return nil, &Error{File: file, Msg: `not an Inspect eval log: want "version" and "samples"`}
	}
	list := &node{kind: kindSeq, line: n.line}
	for i, smp := range log.Samples {
		obj, err := inspectCase(smp.ID, smp.Epoch, smp.Input, smp.Target, smp.Metadata)
		if err != nil {
			return nil, &Error{File: file, Field: fmt.Sprintf("samples[%d]", i), Msg: err.Error()}
		}
		out := smp.Output.Completion
		if out == nil && len(smp.Output.Choices) > 0 {
			text, err := inspectText(smp.Output.Choices[0].Message.Content)
			if err != nil {
				return nil, &Error{File: file, Field: fmt.Sprintf("samples[%d].output", i), Msg: err.Error()}
			}
			out = &text
		}
		if out != nil {
			obj["outputs"] = []string{*out}
		}
		cn, err := caseNode(obj, n.line)
		if err != nil {
			return nil, err
		}
		list.items = append(list.items, cn)
	}
	return list, nil
}

// inspectCase builds a sample's case fields but its output: the id (with
// the epoch after a "#" past the first), the input, the target as
// expected (a list of targets: the first, the rest as references) and
// the metadata as item.
func inspectCase(id json.RawMessage, epoch int, input, target json.RawMessage, meta map[string]any) (map[string]any, error) {
	var sid any
	if err := json.Unmarshal(id, &sid); err != nil {
		return nil, fmt.Errorf("id: want a string or number, got %s", id)
	}
	var ids string
	switch v := sid.(type) {
	case string:
		ids = v
	case float64:
		ids = strings.TrimSpace(string(id))
	default:
		return nil, fmt.Errorf("id: want a string or number, got %s", id)
	}
	if epoch > 1 {
		ids = fmt.Sprintf("%s#%d", ids, epoch)
	}
	obj := map[string]any{"id": ids}
	in, err := inspectInput(input)
	if err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	obj["input"] = in
	var one string
	var many []string
	switch {
	case len(target) == 0:
	case json.Unmarshal(target, &one) == nil:
		obj["expected"] = one
	case json.Unmarshal(target, &many) == nil && len(many) > 0:
		obj["expected"] = many[0]
		if len(many) > 1 {
			obj["references"] = many[1:]
		}
	case json.Unmarshal(target, &many) == nil:
	default:
		return nil, fmt.Errorf("target: want a string or a list of strings, got %.80s", target)
	}
	if len(meta) > 0 {
		obj["item"] = meta
	}
	return obj, nil
}

// inspectInput reads a sample's input: a string, or a list of chat
// messages whose user messages' text is joined by blank lines.
func inspectInput(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var msgs []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &msgs); err != nil {
		return "", fmt.Errorf("want a string or a list of messages, got %.80s", raw)
	}
	var parts []string
	for _, m := range msgs {
		if m.Role != "user" {
			continue
		}
		t, err := inspectText(m.Content)
		if err != nil {
			return "", err
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, "\n\n"), nil
}

// inspectText reads a message's content: a string, or a list of content
// parts whose text parts are joined by newlines (images and other parts
// are left out).
func inspectText(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("content: want a string or a list of content parts, got %.80s", raw)
	}
	var texts []string
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}
