package chat

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	openai := `[
	 {"role": "system", "content": "Be brief."},
	 {"role": "user", "content": "Weather in Paris, then book?"},
	 {"role": "assistant", "content": null, "tool_calls": [
	   {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}},
	   {"id": "c2", "type": "function", "function": {"name": "book", "arguments": "{}"}}]},
	 {"role": "tool", "tool_call_id": "c1", "content": "21C"},
	 {"role": "tool", "tool_call_id": "c2", "content": [{"type": "text", "text": "no seats"}]},
	 {"role": "assistant", "content": [{"type": "text", "text": "It is 21C. "}, {"type": "text", "text": "No seats."}]}]`
	anthropic := `[
	 {"role": "user", "content": "Weather in Paris, then book?"},
	 {"role": "assistant", "content": [{"type": "text", "text": "Checking."},
	   {"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"city": "Paris"}},
	   {"type": "tool_use", "id": "t2", "name": "book", "input": {}}]},
	 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "21C"},
	   {"type": "tool_result", "tool_use_id": "t2", "content": [{"type": "text", "text": "no seats"}], "is_error": true}]},
	 {"role": "assistant", "content": [{"type": "text", "text": "It is 21C. No seats."}]}]`
	for name, tt := range map[string]struct {
		in            string
		n, callsAt    int
		bookFailed    bool
		lastAssistant string
	}{
		"openai":    {openai, 6, 2, false, "It is 21C. No seats."},
		"anthropic": {anthropic, 4, 1, true, "It is 21C. No seats."},
	} {
		msgs, err := Parse([]byte(tt.in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(msgs) != tt.n || msgs[len(msgs)-1].Content != tt.lastAssistant {
			t.Fatalf("%s: %d messages, last %q", name, len(msgs), msgs[len(msgs)-1].Content)
		}
		calls := msgs[tt.callsAt].Calls
		if len(calls) != 2 || calls[0].Name != "get_weather" || string(calls[0].Result) != `"21C"` || calls[0].IsError {
			t.Errorf("%s: first call %+v", name, calls)
		}
		if string(calls[1].Result) != `"no seats"` || calls[1].IsError != tt.bookFailed {
			t.Errorf("%s: book call %+v, want failed %v", name, calls[1], tt.bookFailed)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{
		`{"role": "user"}`,
		`[{"content": "no role"}]`,
		`[{"role": "user", "content": 5}]`,
		`[{"role": "assistant", "tool_calls": [{"function": {"arguments": "{}"}}]}]`,
		`[{"role": "assistant", "content": [{"type": "tool_use", "input": {}}]}]`,
		`[{"role": "tool", "tool_call_id": "nope", "content": "x"}]`,
		`[{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "nope"}]}]`,
	} {
		if _, err := Parse([]byte(in)); !errors.Is(err, ErrMessages) {
			t.Errorf("%s: err = %v, want ErrMessages", in, err)
		}
	}
}

// FuzzParse reads arbitrary text as messages: messages or an error, never
// a panic, and every call named.
func FuzzParse(f *testing.F) {
	f.Add(`[{"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "x", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "a", "content": "ok"}]`)
	f.Add(`[{"role": "assistant", "content": [{"type": "tool_use", "id": "b", "name": "y", "input": {}}]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b", "is_error": true}]}]`)
	f.Fuzz(func(t *testing.T, in string) {
		msgs, err := Parse([]byte(in))
		if err != nil {
			return
		}
		for _, m := range msgs {
			if m.Role == "" {
				t.Fatal("a message without a role")
			}
			for _, c := range m.Calls {
				if c.Name == "" {
					t.Fatal("a call without a name")
				}
			}
		}
	})
}
