package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/judges/openai"
)

// A reasoning model as a judge. The loopback stand-in refuses max_tokens
// as OpenAI's reasoning models do; the judge learns to send
// max_completion_tokens from that one 400, which is counted as a call and
// an error.
func ExampleChatOptions_reasoning() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req map[string]any
		json.NewDecoder(r.Body).Decode(&req)
		if _, ok := req["max_tokens"]; ok {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}`)
			return
		}
		fmt.Fprint(w, `{"choices":[{"finish_reason":"stop","message":{"content":"{\"verdict\":\"pass\",\"confidence\":\"high\"}",`+
			`"reasoning_content":"Paris is the capital."}}]}`)
	}))
	defer api.Close()

	chat, err := openai.NewChat(openai.ChatOptions{
		BaseURL:         api.URL,
		Model:           "o4-mini",
		ReasoningEffort: "low",
		OmitTemperature: true, // reasoning models take only their default
	})
	if err != nil {
		panic(err)
	}
	pool := proctor.NewJudgePool(chat.JudgeModel("o4", "openai"))
	capital, err := proctor.NewLLMJudge("names the capital of France", proctor.JudgeOptions{}, pool)
	if err != nil {
		panic(err)
	}
	g := capital.Grade(context.Background(), &proctor.Sample{Input: "Capital of France?", Output: "Paris"})
	st := pool.Stats()[0]
	fmt.Println(g.Status, "-", g.Evidence.(*proctor.JudgeEvidence).Judges[0].Reasoning)
	fmt.Printf("%d calls, %d error\n", st.Calls, st.Errors)
	// Output:
	// passed - Paris is the capital.
	// 2 calls, 1 error
}
