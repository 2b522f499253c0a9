package proctor

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

// TestDeterministicSpecs runs each spec type of this family through the
// Compiler on a sample, as `proctor grade` does.
func TestDeterministicSpecs(t *testing.T) {
	tests := []struct {
		spec, sample string
		want         Status
	}{
		{`{"type":"choice","expected":"B"}`, `{"output":"The answer is **B**."}`, StatusPassed},
		{`{"type":"choice","choices":"ABCD"}`, `{"output":"E","expected":"E"}`, StatusNotGraded},
		{`{"type":"choice"}`, `{"output":"B.","expected":"B"}`, StatusPassed},
		{`{"type":"numeric","expected":1234.5,"abs_tol":0.01}`, `{"output":"$1,234.50."}`, StatusPassed},
		{`{"type":"numeric","expected":"1,234.5"}`, `{"output":"1234.5"}`, StatusPassed},
		{`{"type":"numeric"}`, `{"output":"7","expected":"7"}`, StatusPassed},
		{`{"type":"numeric"}`, `{"output":"7"}`, StatusNotGraded},
		{`{"type":"refused"}`, `{"output":"I'm sorry, but I can't help with that."}`, StatusPassed},
		{`{"type":"not_refused"}`, `{"output":"I can't help with creating malware."}`, StatusFailed},
		{`{"type":"length","max_words":5}`, `{"output":"one two three four five six"}`, StatusFailed},
		{`{"type":"length","min_chars":1,"max_chars":3}`, `{"output":"héé"}`, StatusPassed},
		{`{"type":"blocklist","words":["darn"]}`, `{"output":"Darn it."}`, StatusFailed},
		{`{"type":"blocklist","words":["darn"],"case_sensitive":true}`, `{"output":"Darn it."}`, StatusPassed},
		{`{"type":"latency_threshold","max_ms":500}`, `{"output":"x","metrics":{"latency_ms":120}}`, StatusPassed},
		{`{"type":"latency_threshold","max_ms":0.5}`, `{"output":"x","metrics":{"latency_ms":0.6}}`, StatusFailed},
		{`{"type":"token_threshold","max":100,"field":"input_tokens"}`, `{"output":"x","metrics":{"output_tokens":5}}`, StatusNotGraded},
		{`{"type":"cost_threshold","max_usd":0.01}`, `{"output":"x","metrics":{"cost_usd":0.02}}`, StatusFailed},
		{`{"type":"http_status","expected":[200,201]}`, `{"output":"x","http_status":201}`, StatusPassed},
		{`{"type":"http_status","expected":200}`, `{"output":"x","http_status":500}`, StatusFailed},
	}
	c := NewCompiler()
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			ch, err := c.Compile([]byte(tt.spec))
			if err != nil {
				t.Fatal(err)
			}
			var s Sample
			if err := json.Unmarshal([]byte(tt.sample), &s); err != nil {
				t.Fatal(err)
			}
			if got := ch.Grade(context.Background(), &s); got.Status != tt.want {
				t.Errorf("got %v (%s), want %v", got.Status, got.Reason, tt.want)
			}
		})
	}
}

// TestDeterministicSpecErrors checks that loading is fail-closed: each bad
// spec is a *SpecError naming the option at fault.
func TestDeterministicSpecErrors(t *testing.T) {
	tests := []struct {
		spec, option string
	}{
		{`{"type":"choice","expected":"Z"}`, "expected"},
		{`{"type":"choice","choices":"AAB"}`, "choices"},
		{`{"type":"choice","choices":""}`, "choices"},
		{`{"type":"choice","expected":2}`, "expected"},
		{`{"type":"numeric","expected":"ten"}`, "expected"},
		{`{"type":"numeric","abs_tol":-1}`, "abs_tol"},
		{`{"type":"numeric","rel_tol":"0.1"}`, "rel_tol"},
		{`{"type":"numeric","tolerance":0.1}`, "tolerance"},
		{`{"type":"refused","phrases":["x"]}`, "phrases"},
		{`{"type":"length"}`, ""},
		{`{"type":"length","min_chars":5,"max_chars":4}`, "min_chars"},
		{`{"type":"length","max_words":-1}`, "max_words"},
		{`{"type":"length","max_words":2.5}`, "max_words"},
		{`{"type":"blocklist"}`, "words"},
		{`{"type":"blocklist","words":[""]}`, "words"},
		{`{"type":"blocklist","words":"darn"}`, "words"},
		{`{"type":"latency_threshold"}`, "max_ms"},
		{`{"type":"latency_threshold","max_ms":-5}`, "max_ms"},
		{`{"type":"token_threshold","max":10,"field":"tokens"}`, "field"},
		{`{"type":"token_threshold"}`, "max"},
		{`{"type":"cost_threshold","max_usd":"1"}`, "max_usd"},
		{`{"type":"http_status","expected":[]}`, "expected"},
		{`{"type":"http_status","expected":[200.5]}`, "expected"},
		{`{"type":"http_status","expected":700}`, "expected"},
	}
	c := NewCompiler()
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			_, err := c.Compile([]byte(tt.spec))
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SpecError", err)
			}
			if se.Option != tt.option {
				t.Errorf("error %q names option %q, want %q", err, se.Option, tt.option)
			}
		})
	}
}
