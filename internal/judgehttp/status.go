package judgehttp

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// StatusError is a reply an endpoint gave with a status outside 2xx,
// after any retries. A 429 or a 5xx comes wrapped in a
// [proctor.TransientError] (find it with errors.As). The vendor's error
// object, {"error": {"message", "type", "param", "code"}} as OpenAI and
// Anthropic both send it, is read into Message, Type, Param and Code when
// the body holds one.
type StatusError struct {
	// Vendor and API name the endpoint: "openai" and "chat",
	// "anthropic" and "messages".
	Vendor, API string
	// StatusCode is the HTTP status of the reply.
	StatusCode int
	// Body is the start of the reply, for people.
	Body string
	// Message, Type, Param and Code are the vendor's error object's
	// fields, "" when the body did not hold them (Anthropic sends no param
	// or code).
	Message, Type, Param, Code string
}

// Error reads "VENDOR: API: HTTP 400: BODY".
func (e *StatusError) Error() string {
	return fmt.Sprintf("%s: %s: HTTP %d: %s", e.Vendor, e.API, e.StatusCode, e.Body)
}

// HTTPStatus returns the reply's status, for callers that classify errors
// without importing a vendor package.
func (e *StatusError) HTTPStatus() int { return e.StatusCode }

// ModelNotFound reports whether the reply says the model does not exist
// (or the key may not use it): a 404, an error code model_not_found, or a
// message saying the model was not found or does not exist, whatever the
// status (some compatible servers answer 400).
func (e *StatusError) ModelNotFound() bool {
	if e.StatusCode == http.StatusNotFound || e.Code == "model_not_found" {
		return true
	}
	m := strings.ToLower(cmp.Or(e.Message, e.Body))
	if !strings.Contains(m, "model") {
		return false
	}
	return strings.Contains(m, "not found") || strings.Contains(m, "does not exist") || strings.Contains(m, "not_found")
}

// Refuses reports whether the reply is a 400 refusing request parameter
// param: the error object names it (param, or a message that starts with
// "param:" or quotes it) and says it is not supported.
func (e *StatusError) Refuses(param string) bool {
	if e.StatusCode != http.StatusBadRequest {
		return false
	}
	msg := strings.ToLower(cmp.Or(e.Message, e.Body))
	named := e.Param == param || strings.HasPrefix(msg, param+":") ||
		strings.Contains(msg, "'"+param+"'") || strings.Contains(msg, "`"+param+"`") || strings.Contains(msg, `"`+param+`"`)
	if !named {
		return false
	}
	if e.Code == "unsupported_parameter" || e.Code == "unsupported_value" {
		return true
	}
	for _, w := range []string{"unsupported", "not supported", "does not support", "not allowed", "extra inputs", "unrecognized", "unknown", "not permitted"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// Mentions reports whether the reply is a 400 whose body names any of
// words: the looser test for a refused response format, which servers
// word in many ways.
func (e *StatusError) Mentions(words ...string) bool {
	if e.StatusCode != http.StatusBadRequest {
		return false
	}
	b := strings.ToLower(e.Body)
	for _, w := range words {
		if strings.Contains(b, w) {
			return true
		}
	}
	return false
}

// newStatusError builds the error for a reply with status and body.
func newStatusError(vendor, api string, status int, body []byte) *StatusError {
	e := &StatusError{Vendor: vendor, API: api, StatusCode: status, Body: Clip(body, errorBodyClip)}
	var env struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &env) != nil || len(env.Error) == 0 {
		return e
	}
	var obj struct {
		Message, Type string
		Param, Code   any
	}
	if json.Unmarshal(env.Error, &obj) != nil {
		var s string
		if json.Unmarshal(env.Error, &s) == nil {
			e.Message = s
		}
		return e
	}
	e.Message, e.Type = obj.Message, obj.Type
	e.Param, e.Code = scalar(obj.Param), scalar(obj.Code)
	return e
}

// scalar is a string or number field as text ("" for anything else):
// some servers send a numeric code.
func scalar(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return fmt.Sprint(v)
	}
	return ""
}
