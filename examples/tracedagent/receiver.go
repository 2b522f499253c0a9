package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"sync"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// maxRequest is the largest export request the receiver reads, in bytes
// (after decompression).
const maxRequest = 32 << 20

// receiver is an OTLP/HTTP trace receiver (POST /v1/traces) that appends
// each export request to a writer as one line of OTLP JSON: the request
// is decoded with the collector's pdata (ptraceotlp, protobuf or JSON
// bodies, gzip or not) and marshalled with pdata's JSON marshaler, which
// is what the collector's file exporter writes. proctor run --traces
// reads that file.
type receiver struct {
	mu sync.Mutex
	w  io.Writer
}

// newReceiver returns a receiver that writes to w.
func newReceiver(w io.Writer) *receiver { return &receiver{w: w} }

// ServeHTTP takes one export request and answers it as OTLP/HTTP says:
// 200 with an ExportTraceServiceResponse in the request's encoding, 400
// for a body that is not a request, 405, 413 and 415 for the wrong method,
// size and content type.
func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "OTLP/HTTP exports are POSTed", http.StatusMethodNotAllowed)
		return
	}
	contentType := r.Header.Get("Content-Type")
	if contentType != "application/x-protobuf" && contentType != "application/json" {
		http.Error(w, "content type must be application/x-protobuf or application/json", http.StatusUnsupportedMediaType)
		return
	}
	body, status, err := readBody(r)
	if err != nil {
		http.Error(w, err.Error(), status)
		return
	}
	req := ptraceotlp.NewExportRequest()
	if contentType == "application/json" {
		err = req.UnmarshalJSON(body)
	} else {
		err = req.UnmarshalProto(body)
	}
	if err != nil {
		http.Error(w, "not an ExportTraceServiceRequest: "+err.Error(), http.StatusBadRequest)
		return
	}
	if err := rc.write(req.Traces()); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	resp := ptraceotlp.NewExportResponse()
	var out []byte
	if contentType == "application/json" {
		out, err = resp.MarshalJSON()
	} else {
		out, err = resp.MarshalProto()
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", contentType)
	w.Write(out)
}

// readBody reads the request body, inflating gzip, up to maxRequest
// bytes; on error it gives the HTTP status to answer with.
func readBody(r *http.Request) ([]byte, int, error) {
	var body io.Reader = r.Body
	switch enc := r.Header.Get("Content-Encoding"); enc {
	case "", "identity":
	case "gzip":
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			return nil, http.StatusBadRequest, fmt.Errorf("gzip body: %w", err)
		}
		defer zr.Close()
		body = zr
	default:
		return nil, http.StatusUnsupportedMediaType, fmt.Errorf("content encoding %q is not gzip", enc)
	}
	b, err := io.ReadAll(io.LimitReader(body, maxRequest+1))
	switch {
	case err != nil:
		return nil, http.StatusBadRequest, fmt.Errorf("reading the body: %w", err)
	case len(b) > maxRequest:
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("body over %d bytes", maxRequest)
	}
	return b, 0, nil
}

// write appends the traces as one OTLP JSON line.
func (rc *receiver) write(td ptrace.Traces) error {
	var m ptrace.JSONMarshaler
	b, err := m.MarshalTraces(td)
	if err != nil {
		return fmt.Errorf("marshalling OTLP JSON: %w", err)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if _, err := rc.w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing the traces: %w", err)
	}
	return nil
}
