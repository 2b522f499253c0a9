package openai

import (
	"net/http"
	"time"

	"github.com/proctorhq/proctor/internal/judgehttp"
)

// StatusError is a reply an endpoint gave with a status outside 2xx, after
// any retries. A 429 or a 5xx comes wrapped in a [proctor.TransientError]
// (find it with errors.As). Its fields: Vendor ("openai") and API ("chat"
// or "embeddings"); StatusCode; Body, the start of the reply for people;
// and Message, Type, Param and Code read from the body's
// {"error": {...}} object. HTTPStatus returns the status and ModelNotFound
// reports a reply saying the model does not exist, so that callers can
// classify the error without importing this package. judges/anthropic
// returns the same type.
type StatusError = judgehttp.StatusError

// EmbeddingsError is the [StatusError] an [Embedder] returns.
//
// Deprecated: use StatusError, which chat replies share.
type EmbeddingsError = StatusError

// newEndpoint is an OpenAI-compatible POST endpoint with a bearer key ("" sends
// no Authorization header).
func newEndpoint(api, url, key string, client *http.Client, timeout time.Duration, maxBody int64) judgehttp.Endpoint {
	h := http.Header{}
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	return judgehttp.Endpoint{Vendor: "openai", API: api, URL: url, Header: h, Client: client, Timeout: timeout, MaxBody: maxBody}
}
