package embedcache

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/proctorhq/proctor/internal/testkit"
)

var errCount = errors.New("wrong count")

// fakeEmbedder maps texts to fixed vectors and records its calls.
type fakeEmbedder = testkit.FakeEmbedder

// TestEmbedJoinsOverlappingRequests checks per-text coalescing: a caller
// needing a and b while another caller is already fetching a asks the
// provider for b alone and takes a from the request under way; and when
// that first caller gives up, the second asks again rather than failing.
func TestEmbedJoinsOverlappingRequests(t *testing.T) {
	f := &fakeEmbedder{Vecs: map[string][]float32{"a": {1, 0}, "b": {0, 1}}, Gate: make(chan struct{})}
	c := New(f, errCount)

	// The first caller starts fetching a and blocks in the provider.
	ctx1, cancel1 := context.WithCancel(t.Context())
	first := make(chan error, 1)
	go func() {
		_, err := c.Embed(ctx1, []string{"a"})
		first <- err
	}()
	waitFor(t, func() bool { return f.Calls.Load() == 1 })

	// The second caller needs a and b: it fetches b and waits for a.
	second := make(chan [][]float32, 1)
	go func() {
		v, err := c.Embed(t.Context(), []string{"a", "b"})
		if err != nil {
			t.Errorf("second caller: %v", err)
		}
		second <- v
	}()
	waitFor(t, func() bool { return f.Calls.Load() == 2 })
	if n := f.Texts.Load(); n != 2 {
		t.Fatalf("texts requested: got %d, want 2 (a once, b once)", n)
	}
	// The first caller gives up; the second must ask for a again.
	cancel1()
	if err := <-first; !errors.Is(err, context.Canceled) {
		t.Fatalf("first caller: got %v, want context.Canceled", err)
	}
	close(f.Gate)
	v := <-second
	if len(v) != 2 || v[0][0] != 1 || v[1][1] != 1 {
		t.Errorf("second caller got %v, want the vectors of a and b", v)
	}
	if n := f.Texts.Load(); n != 3 {
		t.Errorf("texts requested: got %d, want 3 (a again after the first caller gave up)", n)
	}
}

// waitFor polls cond until it holds or a generous deadline passes.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestCount checks that a reply with too few vectors is an error wrapping
// the count error New was given, and that MaxBatch splits the request.
func TestCount(t *testing.T) {
	f := &fakeEmbedder{Vecs: map[string][]float32{"a": {1}, "b": {1}}, Short: true}
	if _, err := New(f, errCount).Embed(t.Context(), []string{"a", "b"}); !errors.Is(err, errCount) {
		t.Errorf("short reply: got %v, want the count error", err)
	}
	f = &fakeEmbedder{Vecs: map[string][]float32{"a": {1}, "b": {1}, "c": {1}}}
	v, err := New(testkit.BatchFake{FakeEmbedder: f, N: 2}, errCount).Embed(t.Context(), []string{"a", "b", "c"})
	if err != nil || len(v) != 3 || f.Calls.Load() != 2 {
		t.Errorf("batches of 2: got %d vectors, %v, %d calls, want 3, nil, 2", len(v), err, f.Calls.Load())
	}
}
