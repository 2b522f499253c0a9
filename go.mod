module github.com/proctorhq/proctor

go 1.26.0

require (
	github.com/dlclark/regexp2 v1.12.0 // indirect
	github.com/ohler55/ojg v1.28.5 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	golang.org/x/sync v0.25.0
	golang.org/x/text v0.14.0 // indirect
)
