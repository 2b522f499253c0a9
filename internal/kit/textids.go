package kit

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// TextOrIDs splits a JSON array of strings and {"id": ...} objects. An
// object may also carry "text", which is kept as a text item. Samples'
// references and context, and context_f1's expected_contexts, are read
// with it.
func TextOrIDs(raw json.RawMessage) (texts, ids []string, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, nil, fmt.Errorf("want an array of strings or {\"id\": ...} objects: %w", err)
	}
	for i, it := range items {
		it = bytes.TrimSpace(it)
		if len(it) > 0 && it[0] == '"' {
			var s string
			if err := json.Unmarshal(it, &s); err != nil {
				return nil, nil, err
			}
			texts = append(texts, s)
			continue
		}
		var obj struct {
			ID   any     `json:"id"`
			Text *string `json:"text"`
		}
		if err := json.Unmarshal(it, &obj); err != nil {
			return nil, nil, fmt.Errorf("item %d: want a string or an {\"id\": ...} object", i)
		}
		switch id := obj.ID.(type) {
		case string:
			ids = append(ids, id)
		case float64:
			ids = append(ids, fmt.Sprint(id))
		case nil:
			if obj.Text == nil {
				return nil, nil, fmt.Errorf("item %d: object has neither id nor text", i)
			}
		default:
			return nil, nil, fmt.Errorf("item %d: id must be a string or number", i)
		}
		if obj.Text != nil {
			texts = append(texts, *obj.Text)
		}
	}
	return texts, ids, nil
}
