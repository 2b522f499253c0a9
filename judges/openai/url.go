package openai

import (
	"fmt"
	"net/url"
	"strings"
)

// endpointURL joins an API path such as "/chat/completions" to base, an
// http(s) base URL, before base's query string: "https://h/v1?api-version=2"
// gives "https://h/v1/chat/completions?api-version=2". A base URL with a
// fragment or with user:password@ is refused; the error does not repeat
// the URL, which may hold a key.
func endpointURL(api, base, path string) (string, error) {
	u, err := url.Parse(base)
	switch {
	case err != nil:
		return "", fmt.Errorf("openai: %s: base URL is not a URL", api)
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		return "", fmt.Errorf("openai: %s: base URL %s://%s: want http:// or https:// and a host", api, u.Scheme, u.Host)
	case u.User != nil || u.Fragment != "":
		return "", fmt.Errorf("openai: %s: base URL of host %s: user information and #fragments are refused; give the key in api_key_env", api, u.Host)
	}
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawPath = ""
	return u.String(), nil
}

// URLSecrets returns the values of base's query parameters, which may be
// keys (?api-key=...): the caller redacts them from what it shows, as
// config does for every judge.
func URLSecrets(base string) []string {
	u, err := url.Parse(base)
	if err != nil {
		return nil
	}
	var out []string
	for _, vs := range u.Query() {
		out = append(out, vs...)
	}
	return out
}
