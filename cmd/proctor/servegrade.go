package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/proctorhq/proctor"
)

// gradeRequest is the body of POST /v1/grade.
type gradeRequest struct {
	Grader  json.RawMessage   `json:"grader"`
	Sample  json.RawMessage   `json:"sample"`
	Samples []json.RawMessage `json:"samples"`
}

func (s *server) handleGrade(w http.ResponseWriter, r *http.Request) {
	var req gradeRequest
	if !s.decode(w, r, &req) {
		return
	}
	raws := req.Samples
	switch {
	case len(req.Sample) > 0 && req.Samples != nil:
		writeError(w, http.StatusBadRequest, `give "sample" or "samples", not both`)
		return
	case len(req.Sample) > 0:
		raws = []json.RawMessage{req.Sample}
	case len(raws) == 0:
		writeError(w, http.StatusBadRequest, `no "sample" or "samples" to grade`)
		return
	case len(raws) > s.cfg.maxSamples:
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%d samples, over the limit of %d per request", len(raws), s.cfg.maxSamples))
		return
	}
	samples := make([]proctor.Sample, len(raws))
	for i, raw := range raws {
		if err := json.Unmarshal(raw, &samples[i]); err != nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("sample %d: %v", i, err))
			return
		}
	}
	largest := 0
	for _, raw := range raws {
		largest = max(largest, len(raw))
	}
	s.gradeWith(w, r, req.Grader, largest+len(req.Grader), func(ctx context.Context, check proctor.Check) {
		out := make([]json.RawMessage, len(samples))
		for i := range samples {
			line := appendResult(nil, 0, samples[i].ID, check.Grade(ctx, &samples[i]))
			out[i] = json.RawMessage(bytes.TrimRight(line, "\n"))
		}
		writeJSON(w, http.StatusOK, map[string]any{"results": out})
	})
}

// gradeWith runs grade with the check spec resolves ([server.checkFor]),
// inside a grading slot and the grade timeout, with size bytes of work
// charged to the in-flight budget; it answers the request itself when any
// of these is refused. The spec compiles inside the slot, so compiles are
// bounded by --concurrency like grading (and by the compile lanes).
func (s *server) gradeWith(w http.ResponseWriter, r *http.Request, spec json.RawMessage, size int, grade func(context.Context, proctor.Check)) {
	if !s.acquire(w, r) {
		return
	}
	defer s.release()
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.gradeTimeout)
	defer cancel()
	cc, status, err := s.checkFor(ctx, spec)
	if err != nil {
		writeError(w, status, err.Error())
		return
	}
	defer cc.release()
	charged, ok := s.chargeWork(w, r, cc, size)
	if !ok {
		return
	}
	defer s.inflight.Release(charged)
	grade(ctx, cc.check)
}

// decode reads a JSON body into v, answering 400 on failure (guard has
// answered 413 for a body over the limit).
func (s *server) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	// guard has read every POST body whole, within --max-body.
	var body []byte
	if bb, ok := r.Body.(*bodyBytes); ok {
		body = bb.b
	} else {
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			writeError(w, http.StatusBadRequest, "cannot read the request body: "+err.Error())
			return false
		}
	}
	if err := checkDuplicateKeys(body); err != nil {
		writeError(w, http.StatusBadRequest, "malformed JSON body: "+err.Error())
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "malformed JSON body: "+err.Error())
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		writeError(w, http.StatusBadRequest, "malformed JSON body: trailing data after the object")
		return false
	}
	return true
}

// checkFor resolves a request's grader: a JSON string names a --graders
// spec, an object is a spec compiled (once) and cached. The caller must
// release the result.
func (s *server) checkFor(ctx context.Context, spec json.RawMessage) (*cachedCheck, int, error) {
	spec = bytes.TrimSpace(spec)
	if len(spec) == 0 || string(spec) == "null" {
		return nil, http.StatusBadRequest, errors.New(`no "grader": give a spec object, or the name of one from --graders`)
	}
	if spec[0] == '"' {
		var name string
		if err := json.Unmarshal(spec, &name); err != nil {
			return nil, http.StatusBadRequest, err
		}
		cc, ok := s.named[name]
		if !ok {
			return nil, http.StatusNotFound, fmt.Errorf("no grader named %q (start proctor serve with --graders FILE to name graders)", name)
		}
		cc.acquire()
		return cc, 0, nil
	}
	cc, err := s.cache.get(ctx, spec)
	if err != nil {
		var fe *forbiddenError
		var tl *specTooLargeError
		var full *cacheFullError
		switch {
		case errors.As(err, &fe) || errors.Is(err, errPython):
			return nil, http.StatusForbidden, err
		case errors.As(err, &tl):
			return nil, http.StatusRequestEntityTooLarge, err
		case errors.As(err, &full) || ctx.Err() != nil:
			return nil, http.StatusServiceUnavailable, err
		}
		return nil, http.StatusBadRequest, err
	}
	return cc, 0, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"response does not encode"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
