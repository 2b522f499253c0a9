package openai_test

import (
	"fmt"

	"github.com/proctorhq/proctor/judges/openai"
)

// A base URL's query values may be keys: URLSecrets lists them so that a
// caller can redact them, as config does for every judge.
func ExampleURLSecrets() {
	fmt.Println(openai.URLSecrets("https://gateway.example/openai?api-key=K123456"))
	// Output: [K123456]
}
