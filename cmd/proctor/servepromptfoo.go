package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/proctorhq/proctor"
)

// promptfooRequest is what promptfoo's webhook assertion POSTs: the output
// (a string, or JSON when the provider returned an object) and the test's
// prompt and vars.
type promptfooRequest struct {
	Output  json.RawMessage `json:"output"`
	Context struct {
		Prompt json.RawMessage `json:"prompt"`
		Vars   map[string]any  `json:"vars"`
	} `json:"context"`
}

// promptfooReply is the GradingResult promptfoo reads: pass, score and
// reason. status carries proctor's own verdict, so that a not-graded
// result (pass false) can be told from a failure.
type promptfooReply struct {
	Pass   bool    `json:"pass"`
	Score  float64 `json:"score"`
	Reason string  `json:"reason"`
	Status string  `json:"status"`
}

func (s *server) handlePromptfoo(w http.ResponseWriter, r *http.Request) {
	spec := json.RawMessage(nil)
	if name := r.PathValue("name"); name != "" {
		b, _ := json.Marshal(name)
		spec = b
	} else if q := r.URL.Query().Get("grader"); q != "" {
		spec = json.RawMessage(q)
	}
	var req promptfooRequest
	if !s.decode(w, r, &req) {
		return
	}
	if len(req.Output) == 0 {
		writeError(w, http.StatusBadRequest, `no "output" to grade`)
		return
	}
	s.gradeWith(w, r, spec, bodyLen(r)+len(spec), func(ctx context.Context, check proctor.Check) {
		sample := promptfooSample(req)
		writeJSON(w, http.StatusOK, promptfooReplyOf(check.Grade(ctx, &sample)))
	})
}

// promptfooReplyOf words a grade as promptfoo's webhook assertion reads it.
func promptfooReplyOf(g proctor.Grade) promptfooReply {
	rep := promptfooReply{Pass: g.Status == proctor.StatusPassed, Status: g.Status.String(), Reason: g.Reason}
	switch {
	case g.HasScore:
		rep.Score = g.Score
	case rep.Pass:
		rep.Score = 1
	}
	if g.Status == proctor.StatusNotGraded {
		rep.Reason = "not graded: " + g.Reason
	}
	if rep.Reason == "" {
		rep.Reason = g.Grader + " " + g.Status.String()
	}
	return rep
}

// promptfooSample maps a promptfoo webhook request onto a Sample: the
// output (JSON output as its compact text), the prompt as input, the vars
// as item, and the vars expected, references and context (string or list
// of strings) as the sample's own fields.
func promptfooSample(req promptfooRequest) proctor.Sample {
	s := proctor.Sample{Output: jsonText(req.Output), Input: jsonText(req.Context.Prompt), Item: req.Context.Vars}
	vars := req.Context.Vars
	switch v := vars["expected"].(type) {
	case nil:
	case string:
		s.Expected = &v
	default:
		if b, err := json.Marshal(v); err == nil {
			s.Expected = proctor.Ptr(string(b))
		}
	}
	s.References = stringList(vars["references"])
	s.Context = stringList(vars["context"])
	return s
}

// jsonText returns a JSON string's value, or other JSON as compact text.
func jsonText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		return b.String()
	}
	return string(raw)
}

func stringList(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
