// Package schemasuite reads the vendored JSON-Schema-Test-Suite
// (testdata/json-schema-test-suite) for the tests that run it:
// internal/fastschema's suite, fuzz seeds and benchmarks, the root's
// grade-equality fuzz, and conformance/. It imports nothing of proctor's,
// so the root's internal tests can use it.
package schemasuite

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Draft is one of the suite's draft folders and the json_schema Draft
// option its schemas are read under.
type Draft struct{ Dir, Draft string }

// Drafts returns the drafts the suite's tests are run for, oldest first.
func Drafts() []Draft {
	return []Draft{{"draft4", "4"}, {"draft6", "6"}, {"draft7", "7"}, {"draft2019-09", "2019-09"}, {"draft2020-12", "2020-12"}}
}

// Group is one schema of a suite file with the cases graded against it.
type Group struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// Files returns the files of fsys matching pattern, sorted; none is an
// error.
func Files(fsys fs.FS, pattern string) ([]string, error) {
	files, err := fs.Glob(fsys, pattern)
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no suite files for %s: %v", pattern, err)
	}
	slices.Sort(files)
	return files, nil
}

// Read reads one suite file of fsys and returns its groups and its name
// without the extension.
func Read(fsys fs.FS, file string) ([]Group, string, error) {
	b, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, "", err
	}
	var groups []Group
	if err := json.Unmarshal(b, &groups); err != nil {
		return nil, "", fmt.Errorf("%s: %w", file, err)
	}
	return groups, strings.TrimSuffix(path.Base(file), ".json"), nil
}

// Remotes maps the URL prefix the suite's remote "$ref"s name
// (http://localhost:1234/) to the remotes folder of suite, the suite's
// own folder, for JSONSchemaOptions.Remotes: nothing is fetched.
func Remotes(suite fs.FS) (map[string]fs.FS, error) {
	remotes, err := fs.Sub(suite, "remotes")
	if err != nil {
		return nil, err
	}
	return map[string]fs.FS{"http://localhost:1234/": remotes}, nil
}
