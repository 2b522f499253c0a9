// Package anthropic adapts Anthropic's Messages API (POST /v1/messages) to
// proctor as a judge ([New]). It uses only net/http and talks to the base
// URL it is given and nothing else; importing it is how a caller chooses
// to send judged text to a model.
//
// A judge asks at temperature 0 (none with extended thinking, which the
// API does not let be combined with one), with a system prompt when one is
// given and max_tokens always (the API requires it). With a
// thinking budget it enables extended thinking; thinking blocks become the
// reply's Reasoning, never its verdict. When the prompt lists the keys of
// its JSON reply, the verdict is forced through a tool call whose input
// schema holds those keys (tool_choice of type tool), falling back to
// JSON in text when the endpoint refuses tools; with thinking it is asked
// as JSON in text, since the API does not force a tool while thinking.
//
// A reply that stopped at max_tokens is reported as
// [proctor.ErrReplyTruncated]; 429 and 529 (overloaded) and other 5xx,
// with the server's retry-after, are [proctor.TransientError] for the
// judge pool to retry; any other status is a *[StatusError]. Usage and
// prices give each call's tokens and cost, and every request made,
// refused ones included, is counted.
//
//	judge, err := anthropic.New(anthropic.Options{
//		Model:     "claude-sonnet-4-5",
//		APIKeyEnv: "ANTHROPIC_API_KEY",
//	})
//	if err != nil { ... }
//	judges := proctor.WithJudges(judge.JudgeModel("claude", "anthropic"))
package anthropic
