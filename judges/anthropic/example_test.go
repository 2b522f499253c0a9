package anthropic_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/judges/anthropic"
)

// A Messages API judge with extended thinking, served here by a loopback
// stand-in for the API: the thinking block becomes the vote's reasoning
// and the text block carries the verdict.
func ExampleNew() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"type":"message","role":"assistant","content":[`+
			`{"type":"thinking","thinking":"The answer names Paris, the capital.","signature":"s"},`+
			`{"type":"text","text":"{\"verdict\":\"pass\",\"confidence\":\"high\"}"}],`+
			`"stop_reason":"end_turn","usage":{"input_tokens":250,"output_tokens":80}}`)
	}))
	defer api.Close()

	judge, err := anthropic.New(anthropic.Options{
		BaseURL:        api.URL, // "" means https://api.anthropic.com
		Model:          "claude-sonnet-4-5",
		ThinkingBudget: 2048,
		InputPerMTok:   3, OutputPerMTok: 15,
	})
	if err != nil {
		panic(err)
	}
	pool := proctor.NewJudgePool(judge.JudgeModel("claude", "anthropic"))
	capital, err := proctor.NewLLMJudge("names the capital of France", proctor.JudgeOptions{}, pool)
	if err != nil {
		panic(err)
	}
	g := capital.Grade(context.Background(), &proctor.Sample{Input: "Capital of France?", Output: "Paris"})
	vote := g.Evidence.(*proctor.JudgeEvidence).Judges[0]
	st := pool.Stats()[0]
	fmt.Println(g.Status, "-", vote.Reasoning)
	fmt.Printf("%d call, %d tokens, $%.4f\n", st.Calls, st.Tokens, st.CostUSD)
	// Output:
	// passed - The answer names Paris, the capital.
	// 1 call, 330 tokens, $0.0019
}
