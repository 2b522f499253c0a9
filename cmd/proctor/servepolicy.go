package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/proctorhq/proctor"
)

var errPython = errors.New("python graders run code with this server's privileges: start proctor serve with --allow-python to accept them in requests, or name an operator's spec from --graders")

// errForbidden marks a spec the server refuses to run.
type forbiddenError struct{ msg string }

func (e *forbiddenError) Error() string { return e.msg }

// allowed refuses graders that reach the network on their own unless the
// server allows it, at any depth of the spec. Model-graded specs call only
// the judges the operator configured with --config, so they are allowed.
//
// The compiled grader's kind is not enough: a combinator reports only its
// most demanding kind, and a judge outranks a webhook, so {"type": "all",
// "graders": [webhook, llm_judge]} reads as model-graded. Every object
// nested in the spec that names a known type is therefore compiled on its
// own and its kind checked too. (An option value that merely looks like a
// network spec is refused as well: fail-closed.)
func (s *server) allowed(spec []byte, ch proctor.Check) error {
	if s.cfg.allowNetwork {
		return nil
	}
	if proctor.KindOf(ch.Grader) == proctor.KindNetwork {
		return networkRefused(ch.Name())
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(spec))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return &forbiddenError{"the request's grader cannot be checked for network use: " + err.Error()}
	}
	known := map[string]bool{}
	for _, t := range s.comp.Types() {
		known[t] = true
	}
	return s.nestedNetwork(v, known, true)
}

// nestedNetwork walks v (decoded JSON) and returns a *forbiddenError for
// the first nested object, in key order, that compiles on its own to a
// grader of kind network. top skips v itself, already checked.
func (s *server) nestedNetwork(v any, known map[string]bool, top bool) error {
	switch x := v.(type) {
	case map[string]any:
		if t, ok := x["type"].(string); ok && known[t] && !top {
			if b, err := json.Marshal(x); err == nil {
				if ch, err := s.comp.Compile(b); err == nil {
					k := proctor.KindOf(ch.Grader)
					closeGrader(ch)
					if k == proctor.KindNetwork {
						return networkRefused(ch.Name())
					}
				}
			}
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if err := s.nestedNetwork(x[k], known, false); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := s.nestedNetwork(e, known, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// envOptions are spec options that read this server's environment. A
// request could otherwise tell a set variable from an unset one by the
// answer; they are refused before anything is looked up, the same way
// whatever the variable.
var envOptions = []string{"sign_secret_env"}

// refuseEnvOptions returns a *forbiddenError when spec (JSON) has an
// object with a key of envOptions at any depth.
func refuseEnvOptions(spec []byte) error {
	var v any
	if err := json.Unmarshal(spec, &v); err != nil {
		return nil // the compiler reports it
	}
	var walk func(v any) string
	walk = func(v any) string {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range envOptions {
				if _, ok := x[k]; ok {
					return k
				}
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if found := walk(x[k]); found != "" {
					return found
				}
			}
		case []any:
			for _, e := range x {
				if found := walk(e); found != "" {
					return found
				}
			}
		}
		return ""
	}
	if k := walk(v); k != "" {
		return &forbiddenError{fmt.Sprintf("%s reads this server's environment and is not accepted in a request's grader: name an operator's spec from --graders", k)}
	}
	return nil
}

func networkRefused(name string) error {
	return &forbiddenError{fmt.Sprintf("grader %q calls the network: start proctor serve with --allow-network to accept it", name)}
}
