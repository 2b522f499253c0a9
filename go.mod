module github.com/proctorhq/proctor

go 1.26.0

require (
	github.com/dlclark/regexp2 v1.12.0
	github.com/google/go-cmp v0.7.0
	github.com/ohler55/ojg v1.28.5
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/theory/jsonpath v0.12.3
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sync v0.25.0
)

require golang.org/x/text v0.14.0 // indirect
