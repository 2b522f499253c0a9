module github.com/proctorhq/proctor

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	golang.org/x/sync v0.25.0
)
