package metric

import (
	"strings"

	"github.com/proctorhq/proctor/internal/tokenize"
)

func tokenizeForTest(s string) (string, []string) {
	b, _ := tokenize.Tok13a(nil, nil, s)
	f := tokenize.Fields(nil, string(b))
	return strings.Join(f, " "), f
}
