// Package openai adapts OpenAI-compatible HTTP endpoints to proctor: a
// chat-completions judge ([NewChat]), a plain chat call for a model under
// test ([Chat.Complete]) and an embeddings provider ([NewEmbedder]). It uses
// only net/http and talks to the base URL it is given and nothing else;
// proctor itself never opens a connection, so importing this package is
// how a caller chooses to send judged text to a model.
//
// A Chat judge asks at temperature 0 with a fixed seed, bounds each call
// with a timeout, reads the reply's token usage (and its cost, when prices
// are given), and marks rate limits (429), server errors (5xx) and network
// errors as transient so that proctor's judge pool retries them with
// backoff. Other failures (400, 401, 404, a reply with no choices) are not
// retried. A status outside 2xx is a *[StatusError] for both endpoints.
//
// # Reasoning models
//
// A reasoning model refuses max_tokens and any temperature but its
// default, and spends its thinking from the completion budget. A Chat
// learns from the first 400 naming a parameter (max_tokens, temperature,
// seed, logprobs, response_format) to send max_completion_tokens instead,
// or to leave the parameter out, once per Chat; while it has not learned,
// its calls go one at a time so that one request at most is refused, and
// every request, the refused one included, is counted in
// [proctor.JudgeReply]'s Requests. [ChatOptions] also set the field and
// the temperature outright, and reasoning_effort. Thinking returned as
// reasoning_content or reasoning is the reply's Reasoning, never its
// verdict; a reply cut off at the token limit is
// [proctor.ErrReplyTruncated]. With [ChatOptions.Logprobs], the
// probability of the verdict token decides the vote's confidence.
//
//	chat, err := openai.NewChat(openai.ChatOptions{
//		BaseURL:   "https://api.openai.com/v1",
//		Model:     "gpt-4.1",
//		APIKeyEnv: "OPENAI_API_KEY",
//	})
//	if err != nil { ... }
//	judges := proctor.WithJudges(chat.JudgeModel("j1", "openai"))
package openai
