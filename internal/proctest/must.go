package proctest

// Must returns v, or panics with err: for a test that builds a grader from
// values it knows are valid, where a refusal is a broken test.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
