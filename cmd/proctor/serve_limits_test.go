package main

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
)

// registerFat registers the spec type "fat", whose grader keeps mb MiB
// alive, and returns the count of builds.
func registerFat(s *server) *atomic.Int32 {
	var builds atomic.Int32
	s.comp.Register("fat", func(o *proctor.SpecOptions) (proctor.Grader, error) {
		builds.Add(1)
		buf := make([]byte, o.Int("mb", 0)<<20)
		for i := range buf {
			buf[i] = 1
		}
		return proctor.Func("fat", func(context.Context, *proctor.Sample) proctor.Grade {
			return proctor.Pass(fmt.Sprint(len(buf)))
		}), o.Err()
	})
	return &builds
}

func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestServeCacheBoundedInBytes: 40 distinct specs that each keep 4 MiB
// alive once compiled fit the entry bound (64) but not the byte bound
// (32 MiB): the cache keeps what fits, and the heap stays near the bound.
func TestServeCacheBoundedInBytes(t *testing.T) {
	cfg := testServeConfig()
	cfg.cacheSize, cfg.cacheBytes = 64, 32<<20
	s, ts := newTestServer(t, cfg, nil)
	registerFat(s)
	base := liveHeap()
	for i := range 40 {
		body := fmt.Sprintf(`{"grader":{"type":"fat","mb":4,"name":"f%d"},"sample":{"output":"x"}}`, i)
		if code, out := post(t, ts.URL+"/v1/grade", "application/json", body); code != 200 {
			t.Fatalf("spec %d: status %d: %v", i, code, out)
		}
	}
	if used := s.cache.used.Load(); used > cfg.cacheBytes {
		t.Errorf("cache accounts %d bytes, over its bound of %d", used, cfg.cacheBytes)
	}
	grew := int64(liveHeap()) - int64(base)
	t.Logf("live heap grew %d MiB after 40 specs of 4 MiB (cache accounts %d MiB)", grew>>20, s.cache.used.Load()>>20)
	if grew > 40<<20 {
		t.Errorf("live heap grew %d MiB after 40 specs of 4 MiB, want under 40 (bound 32 MiB)", grew>>20)
	}
	s.cache.mu.Lock()
	n := s.cache.ll.Len()
	s.cache.mu.Unlock()
	if n < 2 || n > 8 {
		t.Errorf("cache holds %d specs of 4 MiB with a 32 MiB bound, want 2 to 8", n)
	}
}

// TestServeSpecBounds: a spec over --max-spec is refused before it
// compiles, one whose compilation takes over half the cache budget is
// refused after, and a spec compiles only once it holds a grading slot.
func TestServeSpecBounds(t *testing.T) {
	cfg := testServeConfig()
	cfg.maxBody, cfg.maxSpec, cfg.cacheBytes = 1<<20, 1000, 16<<20
	s, ts := newTestServer(t, cfg, nil)
	builds := registerFat(s)
	big := fmt.Sprintf(`{"grader":{"type":"fat","mb":0,"name":%q},"sample":{"output":"x"}}`, strings.Repeat("n", 2000))
	code, out := post(t, ts.URL+"/v1/grade", "application/json", big)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(fmt.Sprint(out["error"]), "limit of 1000") || builds.Load() != 0 {
		t.Errorf("spec over --max-spec: %d %v after %d builds, want 413 naming the limit, no build", code, out, builds.Load())
	}
	code, out = post(t, ts.URL+"/v1/grade", "application/json", `{"grader":{"type":"fat","mb":12},"sample":{"output":"x"}}`)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(fmt.Sprint(out["error"]), "allocated") {
		t.Errorf("spec costing 12 MiB of a 16 MiB budget: %d %v, want 413", code, out)
	}
	// The refusal is cached at the cost of its key alone.
	if used := s.cache.used.Load(); used != int64(len(`{"type":"fat","mb":12}`)) {
		t.Errorf("refused spec left %d bytes accounted, want its key's length", used)
	}
}

// TestServeCompileAfterAdmission: while the only grading slot is held, a
// new spec waits for it and is not compiled; the request gets 503.
func TestServeCompileAfterAdmission(t *testing.T) {
	cfg := testServeConfig()
	cfg.concurrency, cfg.queueWait = 1, 50e6
	s, ts := newTestServer(t, cfg, nil)
	builds := registerFat(s)
	started, unblock := registerSlow(s)
	done := make(chan int)
	go func() {
		code, _ := postNoFatal(ts.URL+"/v1/grade", `{"grader":{"type":"slow"},"sample":{"output":"x"}}`)
		done <- code
	}()
	<-started
	code, out := post(t, ts.URL+"/v1/grade", "application/json", `{"grader":{"type":"fat","mb":1},"sample":{"output":"x"}}`)
	close(unblock)
	<-done
	if code != http.StatusServiceUnavailable || builds.Load() != 0 {
		t.Errorf("with the slot held: %d %v after %d builds, want 503 and no build", code, out, builds.Load())
	}
}

// registerSlow registers the spec type "slow", whose grade closes
// started and waits for unblock to be closed (one grade per server).
func registerSlow(s *server) (started, unblock chan struct{}) {
	started, unblock = make(chan struct{}), make(chan struct{})
	s.comp.Register("slow", func(o *proctor.SpecOptions) (proctor.Grader, error) {
		return proctor.Func("slow", func(ctx context.Context, _ *proctor.Sample) proctor.Grade {
			close(started)
			<-unblock
			return proctor.Pass("")
		}), nil
	})
	return started, unblock
}

func postNoFatal(url, body string) (int, error) {
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// TestServeSecretEnvNoOracle: a request's spec naming sign_secret_env is
// refused before the environment is read, with the same answer for a set
// and an unset variable, network allowed or not.
func TestServeSecretEnvNoOracle(t *testing.T) {
	t.Setenv("PROCTOR_TEST_SECRET_SET", "s3cret")
	for _, allow := range []bool{false, true} {
		cfg := testServeConfig()
		cfg.allowNetwork = allow
		_, ts := newTestServer(t, cfg, nil)
		answer := func(env string) string {
			body := fmt.Sprintf(`{"grader":{"type":"all","graders":[{"type":"custom_webhook","url":"http://127.0.0.1:1/x","sign_secret_env":%q}]},"sample":{"output":"x"}}`, env)
			code, out := post(t, ts.URL+"/v1/grade", "application/json", body)
			return fmt.Sprint(code, out)
		}
		set, unset := answer("PROCTOR_TEST_SECRET_SET"), answer("PROCTOR_TEST_SECRET_UNSET")
		if set != unset || !strings.HasPrefix(set, "403") {
			t.Errorf("allow-network %v: set variable answered %s, unset %s; want the same 403", allow, set, unset)
		}
	}
}

// TestServeDuplicateKeys: a request body giving a key twice, at any
// depth, is refused (400), on both endpoints.
func TestServeDuplicateKeys(t *testing.T) {
	_, ts := newTestServer(t, testServeConfig(), nil)
	for _, c := range []struct{ path, body string }{
		{"/v1/grade", `{"grader":{"type":"contains","value":"x"},"sample":{"output":"x"},"sample":{"output":"y"}}`},
		{"/v1/grade", `{"grader":{"type":"contains","value":"x"},"sample":{"output":"x","output":"y"}}`},
		{"/v1/grade", `{"grader":{"type":"contains","value":"x"},"samples":[{"output":"x","item":{"a":1,"a":2}}]}`},
		{"/v1/promptfoo?grader=%7B%22type%22%3A%22contains%22%2C%22value%22%3A%22x%22%7D", `{"output":"x","output":"y"}`},
	} {
		code, out := post(t, ts.URL+c.path, "application/json", c.body)
		if code != http.StatusBadRequest || !strings.Contains(fmt.Sprint(out["error"]), "given twice") {
			t.Errorf("%s %s: %d %v, want 400 naming the key given twice", c.path, c.body, code, out)
		}
	}
}

// TestServeBodyTimeoutSparesGrading: the body deadline bounds reading the
// body only; a request grading past it keeps its context.
func TestServeBodyTimeoutSparesGrading(t *testing.T) {
	cfg := testServeConfig()
	cfg.bodyWait = 100 * time.Millisecond
	s, ts := newTestServer(t, cfg, nil)
	s.comp.Register("patient", func(o *proctor.SpecOptions) (proctor.Grader, error) {
		return proctor.Func("patient", func(ctx context.Context, _ *proctor.Sample) proctor.Grade {
			select {
			case <-ctx.Done():
				return proctor.ErrorGrade("cancelled", ctx.Err())
			case <-time.After(400 * time.Millisecond):
				return proctor.Pass("")
			}
		}), nil
	})
	code, out := post(t, ts.URL+"/v1/grade", "application/json", `{"grader":{"type":"patient"},"sample":{"output":"x"}}`)
	if code != 200 || !strings.Contains(fmt.Sprint(out), "passed") {
		t.Errorf("grading past the body timeout: %d %v, want passed", code, out)
	}
}
