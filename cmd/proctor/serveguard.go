package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// allowedMethods is the Allow header of a known endpoint asked with
// another method, or "" for an unknown path.
func allowedMethods(path string) string {
	switch rest, ok := strings.CutPrefix(path, "/v1/promptfoo/"); {
	case path == "/v1/grade", path == "/v1/promptfoo", ok && rest != "" && !strings.Contains(rest, "/"):
		return http.MethodPost
	case path == "/healthz":
		return "GET, HEAD"
	}
	return ""
}

// guard checks what every request must satisfy: a loopback Host when the
// server listens on loopback (DNS rebinding), a JSON body on POST (a web
// page cannot send one cross-origin without a preflight, which is never
// answered) and the body limit.
func (s *server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.loopbackOnly && !loopbackHost(r.Host) {
			writeError(w, http.StatusForbidden, "Host "+r.Host+" is not a loopback address this server answers to")
			return
		}
		if r.Method == http.MethodPost {
			mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if err != nil || mt != "application/json" {
				writeError(w, http.StatusUnsupportedMediaType, "POST bodies must be Content-Type: application/json")
				return
			}
			if r.ContentLength > s.cfg.maxBody {
				writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over the %d-byte limit", s.cfg.maxBody))
				return
			}
			// The body is read whole before the request is admitted, so
			// a slow client holds no admission slot, only the bytes it
			// has sent (charged against --max-inflight as they arrive),
			// and only until --body-timeout.
			body, charged, status, msg := s.readBody(w, r)
			defer s.inflight.Release(charged)
			if status != 0 {
				if status == http.StatusServiceUnavailable {
					w.Header().Set("Retry-After", "1")
				}
				writeError(w, status, msg)
				return
			}
			if !take(w, r, s.admitted, s.cfg.queueWait, "every request slot is taken") {
				return
			}
			defer func() { <-s.admitted }()
			r.Body = &bodyBytes{Reader: bytes.NewReader(body), b: body}
		}
		next.ServeHTTP(w, r)
	})
}

// bodyBytes is a request body guard has read whole: a reader over it,
// and the bytes themselves for decode.
type bodyBytes struct {
	*bytes.Reader
	b []byte
}

func (*bodyBytes) Close() error { return nil }

// bodyLen is the length of the body guard read for r.
func bodyLen(r *http.Request) int {
	if b, ok := r.Body.(*bodyBytes); ok {
		return len(b.b)
	}
	return 0
}

// readBody reads r's body within --body-timeout and --max-body, charging
// bodyCost times its bytes to s.inflight as they arrive (waiting up to
// --queue-wait for room each time). It returns the body and what was charged (to
// release when the request is done), or the status and message to answer.
func (s *server) readBody(w http.ResponseWriter, r *http.Request) (body []byte, charged int64, status int, msg string) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(s.cfg.bodyWait))
	in := http.MaxBytesReader(w, r.Body, s.cfg.maxBody)
	var buf bytes.Buffer
	for {
		if buf.Available() == 0 {
			// The declared length when it is small, else a chunk at a time.
			want := int64(bodyChunk)
			if r.ContentLength >= 0 {
				want = min(want, r.ContentLength-int64(buf.Len())+1)
			}
			buf.Grow(int(max(want, 512)))
		}
		chunk := buf.AvailableBuffer()[:buf.Available()]
		n, err := in.Read(chunk)
		if n > 0 {
			cost := int64(n) * bodyCost
			if !s.inflight.TryAcquire(cost) {
				ctx, cancel := context.WithTimeout(r.Context(), s.cfg.queueWait)
				aerr := s.inflight.Acquire(ctx, cost)
				cancel()
				if aerr != nil {
					return nil, charged, http.StatusServiceUnavailable, fmt.Sprintf("server busy: the request bodies in flight hold the %d bytes allowed (--max-inflight)", s.cfg.maxInflight)
				}
			}
			charged += cost
			buf.Write(chunk[:n])
		}
		var mbe *http.MaxBytesError
		switch {
		case err == nil:
			continue
		case errors.Is(err, io.EOF):
			// The deadline was for the body: lift it, so that nothing
			// reading the connection later (the server watching for the
			// client going away) times out while the request grades.
			_ = rc.SetReadDeadline(time.Time{})
			return buf.Bytes(), charged, 0, ""
		case errors.As(err, &mbe):
			return nil, charged, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over the %d-byte limit", mbe.Limit)
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil, charged, http.StatusRequestTimeout, fmt.Sprintf("request body not received within %v", s.cfg.bodyWait)
		default:
			return nil, charged, http.StatusBadRequest, "cannot read the request body: " + err.Error()
		}
	}
}

// acquire takes a grading slot, waiting up to the queue wait; it answers
// 503 and returns false when none frees up. Bodies are read before, so a
// slow client never holds a slot. The caller must call release.
func (s *server) acquire(w http.ResponseWriter, r *http.Request) bool {
	return take(w, r, s.slots, s.cfg.queueWait, "every grading slot is taken")
}

// take sends on sem, waiting up to wait; it answers 503 (busy names what
// is taken) and returns false when sem stays full or the request ends.
func take(w http.ResponseWriter, r *http.Request, sem chan struct{}, wait time.Duration, busy string) bool {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case sem <- struct{}{}:
		return true
	case <-t.C:
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, "server busy: "+busy)
	case <-r.Context().Done():
		writeError(w, http.StatusServiceUnavailable, "request ended while waiting: "+busy)
	}
	return false
}

func (s *server) release() { <-s.slots }

func loopbackHost(host string) bool {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
