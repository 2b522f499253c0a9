package openai

import "github.com/proctorhq/proctor/internal/judgehttp"

// URLSecrets returns the values of base's query parameters, which may be
// keys (?api-key=...): the caller redacts them from what it shows, as
// config does for every judge.
func URLSecrets(base string) []string { return judgehttp.URLSecrets(base) }

// endpointURL is [judgehttp.EndpointURL] for the OpenAI API named api.
func endpointURL(api, base, path string) (string, error) {
	return judgehttp.EndpointURL("openai: "+api, base, path)
}
