module github.com/proctorhq/proctor

go 1.26.0

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/dlclark/regexp2 v1.12.0
	github.com/google/go-cmp v0.7.0
	github.com/ohler55/ojg v1.28.5
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/theory/jsonpath v0.12.3
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sync v0.25.0
	golang.org/x/text v0.14.0
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
