package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
)

func testServeConfig() serveConfig {
	return serveConfig{maxBody: 4 << 10, maxSamples: 10, concurrency: 8, queueWait: 10 * time.Second,
		gradeTimeout: 10 * time.Second, cacheSize: 4, headerWait: time.Second, loopbackOnly: true}
}

// newTestServer starts the server's handler on a loopback httptest server.
func newTestServer(t *testing.T, cfg serveConfig, named map[string]json.RawMessage) (*server, *httptest.Server) {
	t.Helper()
	s, err := newServer(cfg, nil, named)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.handler())
	t.Cleanup(func() { ts.Close(); s.close() })
	return s, ts
}

func post(t *testing.T, url, contentType, body string) (int, map[string]any) {
	code, out, _ := postRaw(t, url, contentType, body)
	return code, out
}

// postRaw posts body and returns the status, the decoded reply and its
// "results" as sent.
func postRaw(t *testing.T, url, contentType, body string) (int, map[string]any, json.RawMessage) {
	t.Helper()
	resp, err := http.Post(url, contentType, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("reply is not a JSON object: %v", err)
	}
	var raw struct{ Results json.RawMessage }
	_ = json.Unmarshal(b, &raw)
	return resp.StatusCode, out, raw.Results
}

func TestServeGrade(t *testing.T) {
	named := map[string]json.RawMessage{"paris": json.RawMessage(`{"type":"contains","value":"Paris"}`)}
	_, ts := newTestServer(t, testServeConfig(), named)
	tests := []struct {
		name, body string
		code       int
		want       string // the results array, or a substring of the error
		why        string
	}{
		{"one sample", `{"grader":{"type":"contains","value":"Paris"},"sample":{"id":"c1","output":"In Paris."}}`,
			200, `[{"id":"c1","grader":"contains","status":"passed","reason":""}]`, "results as proctor grade writes them"},
		{"samples in order", `{"grader":{"type":"exact_match"},"samples":[{"output":"a","expected":"A"},{"id":"2","output":"b","expected":"c"}]}`,
			200, `[{"grader":"exact_match","status":"passed","score":1,"reason":""},{"id":"2","grader":"exact_match","status":"failed","score":0,"reason":"output \"b\" does not equal expected \"c\""}]`, "one result per sample, in order"},
		{"named grader", `{"grader":"paris","sample":{"output":"Lyon"}}`,
			200, `[{"grader":"contains","status":"failed","reason":"output does not contain \"Paris\""}]`, "a string names a --graders spec"},
		{"malformed JSON", `{not json`, 400, "malformed JSON", "the body must be JSON"},
		{"trailing data", `{"grader":{"type":"contains","value":"x"},"sample":{"output":"x"}} {}`, 400, "trailing data", "one object per body"},
		{"unknown type", `{"grader":{"type":"nope"},"sample":{"output":"x"}}`, 400, `unknown type \"nope\"`, "the spec error names the problem"},
		{"unknown option", `{"grader":{"type":"contains","value":"x","bogus":1},"sample":{"output":"x"}}`, 400, `option \"bogus\"`, "fail-closed specs"},
		{"unknown name", `{"grader":"lyon","sample":{"output":"x"}}`, 404, `no grader named \"lyon\"`, "names come from --graders"},
		{"no grader", `{"sample":{"output":"x"}}`, 400, `no \"grader\"`, "a grader is required"},
		{"no sample", `{"grader":{"type":"json_valid"}}`, 400, `no \"sample\"`, "something to grade is required"},
		{"both", `{"grader":"paris","sample":{"output":"x"},"samples":[]}`, 400, "not both", "one form at a time"},
		{"too many samples", `{"grader":"paris","samples":[` + strings.Repeat(`{"output":"x"},`, 10) + `{"output":"x"}]}`, 413, "over the limit", "samples per request are bounded"},
		{"bad sample", `{"grader":"paris","sample":{"output":1}}`, 400, "sample 0", "a sample that does not decode"},
		{"python refused", `{"grader":{"type":"python","source":"def grade(s, i): return 1"},"sample":{"output":"x"}}`, 403, "--allow-python", "requests may not run code by default"},
		{"nested python refused", `{"grader":{"type":"not","grader":{"type":"python","source":"def grade(s, i): return 1"}},"sample":{"output":"x"}}`, 403, "--allow-python", "nor inside a combinator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, got := postRaw(t, ts.URL+"/v1/grade", "application/json", tt.body)
			if code != tt.code {
				t.Errorf("status %d, want %d (%v; %s)", code, tt.code, out, tt.why)
			}
			if code == 200 {
				if string(got) != tt.want {
					t.Errorf("results\n got %s\nwant %s (%s)", got, tt.want, tt.why)
				}
				return
			}
			if msg, _ := out["error"].(string); !strings.Contains(msg, strings.ReplaceAll(tt.want, `\"`, `"`)) {
				t.Errorf("error %q, want it to contain %q (%s)", msg, tt.want, tt.why)
			}
		})
	}
}

func TestServeGuards(t *testing.T) {
	_, ts := newTestServer(t, testServeConfig(), nil)
	big := `{"grader":{"type":"contains","value":"x"},"sample":{"output":"` + strings.Repeat("x", 5<<10) + `"}}`
	tests := []struct {
		name   string
		req    func() *http.Request
		code   int
		reason string
	}{
		{"oversized body", func() *http.Request {
			r, _ := http.NewRequest("POST", ts.URL+"/v1/grade", strings.NewReader(big))
			r.Header.Set("Content-Type", "application/json")
			return r
		}, 413, "a declared length over the limit is refused before reading"},
		{"oversized chunked body", func() *http.Request {
			r, _ := http.NewRequest("POST", ts.URL+"/v1/grade", io.MultiReader(strings.NewReader(big)))
			r.Header.Set("Content-Type", "application/json")
			r.ContentLength = -1
			return r
		}, 413, "a body without a length is cut at the limit"},
		{"form post", func() *http.Request {
			r, _ := http.NewRequest("POST", ts.URL+"/v1/grade", strings.NewReader(`{}`))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return r
		}, 415, "a web page's simple request is refused"},
		{"foreign host", func() *http.Request {
			r, _ := http.NewRequest("GET", ts.URL+"/healthz", nil)
			r.Host = "rebound.example:8787"
			return r
		}, 403, "DNS rebinding: a loopback server answers loopback names only"},
		{"healthz", func() *http.Request {
			r, _ := http.NewRequest("GET", ts.URL+"/healthz", nil)
			return r
		}, 200, "health check"},
		{"localhost host", func() *http.Request {
			r, _ := http.NewRequest("GET", ts.URL+"/healthz", nil)
			r.Host = "localhost:8787"
			return r
		}, 200, "localhost is loopback"},
		{"unknown path", func() *http.Request {
			r, _ := http.NewRequest("GET", ts.URL+"/v2/grade", nil)
			return r
		}, 404, "no such endpoint"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.DefaultClient.Do(tt.req())
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tt.code {
				b, _ := io.ReadAll(resp.Body)
				t.Errorf("status %d (%s), want %d: %s", resp.StatusCode, b, tt.code, tt.reason)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
		})
	}
}

// netGrader is a grader that says it calls the network.
type netGrader struct{ proctor.GraderFunc }

func (netGrader) GraderKind() proctor.Kind { return proctor.KindNetwork }

// modelGrader is a grader that says it asks a judge: it outranks a
// network grader in a combinator's kind.
type modelGrader struct{ proctor.GraderFunc }

func (modelGrader) GraderKind() proctor.Kind { return proctor.KindModel }

// TestServeNetworkGraders: without --allow-network a grader that calls the
// network is refused wherever it sits in the spec, also when a model-graded
// sibling makes the combinator report itself as model-graded, and in specs
// given inline to the promptfoo endpoint.
func TestServeNetworkGraders(t *testing.T) {
	tests := []struct {
		name, spec string
		network    bool
		why        string
	}{
		{"top level", `{"type":"net"}`, true, "the grader itself"},
		{"in all", `{"type":"all","graders":[{"type":"net"}]}`, true, "a combinator of one network grader"},
		{"beside a judge", `{"type":"all","graders":[{"type":"net"},{"type":"model"}]}`, true, "all reports model, the most demanding kind, yet a webhook runs"},
		{"judge first", `{"type":"any","graders":[{"type":"model"},{"type":"net"}]}`, true, "order does not matter"},
		{"under not", `{"type":"not","grader":{"type":"all","graders":[{"type":"model"},{"type":"not","grader":{"type":"net"}}]}}`, true, "deep nesting"},
		{"in multi", `{"type":"multi","graders":{"a":{"type":"net"},"b":{"type":"model"}},"calculate_output":"a"}`, true, "OpenAI multi's named sub-graders"},
		{"judge only", `{"type":"all","graders":[{"type":"model"},{"type":"contains","value":"x"}]}`, false, "judges come from --config and are allowed"},
		{"deterministic", `{"type":"contains","value":"x"}`, false, "nothing to refuse"},
	}
	for _, allow := range []bool{false, true} {
		cfg := testServeConfig()
		cfg.allowNetwork = allow
		s, ts := newTestServer(t, cfg, nil)
		s.comp.Register("net", func(o *proctor.SpecOptions) (proctor.Grader, error) {
			return netGrader{proctor.Func("net", func(context.Context, *proctor.Sample) proctor.Grade { return proctor.Pass("") })}, nil
		})
		s.comp.Register("model", func(o *proctor.SpecOptions) (proctor.Grader, error) {
			return modelGrader{proctor.Func("model", func(context.Context, *proctor.Sample) proctor.Grade { return proctor.Pass("") })}, nil
		})
		for _, tt := range tests {
			want := 200
			if tt.network && !allow {
				want = 403
			}
			code, out := post(t, ts.URL+"/v1/grade", "application/json", `{"grader":`+tt.spec+`,"sample":{"output":"x"}}`)
			if code != want {
				t.Errorf("%s, --allow-network=%v: status %d (%v), want %d (%s)", tt.name, allow, code, out, want, tt.why)
			}
			if want == 403 && !strings.Contains(fmt.Sprint(out["error"]), "--allow-network") {
				t.Errorf("%s: error %v, want it to name --allow-network", tt.name, out["error"])
			}
			code, out = post(t, ts.URL+"/v1/promptfoo?grader="+url.QueryEscape(tt.spec), "application/json", `{"output":"x"}`)
			if code != want {
				t.Errorf("%s via promptfoo, --allow-network=%v: status %d (%v), want %d", tt.name, allow, code, out, want)
			}
		}
	}
}

// A python grader is refused without --allow-python wherever it is nested.
func TestServePythonNested(t *testing.T) {
	_, ts := newTestServer(t, testServeConfig(), nil)
	py := `{"type":"python","source":"def grade(s, i): return 1"}`
	for _, spec := range []string{
		py,
		`{"type":"all","graders":[{"type":"contains","value":"x"},` + py + `]}`,
		`{"type":"any","graders":[` + py + `]}`,
		`{"type":"not","grader":{"type":"not","grader":` + py + `}}`,
		`{"type":"multi","graders":{"a":` + py + `},"calculate_output":"a"}`,
	} {
		code, out := post(t, ts.URL+"/v1/grade", "application/json", `{"grader":`+spec+`,"sample":{"output":"x"}}`)
		if code != 403 || !strings.Contains(fmt.Sprint(out["error"]), "--allow-python") {
			t.Errorf("%s: status %d (%v), want 403 naming --allow-python", spec, code, out)
		}
	}
}

func TestServePromptfoo(t *testing.T) {
	named := map[string]json.RawMessage{
		"paris":  json.RawMessage(`{"type":"contains","value":"Paris"}`),
		"answer": json.RawMessage(`{"type":"exact_match"}`),
	}
	_, ts := newTestServer(t, testServeConfig(), named)
	// The request promptfoo's webhook assertion sends (src/assertions/webhook.ts:
	// body JSON.stringify({ output, context }) with context = { prompt, vars }).
	doc := `{"output":"It is Paris.","context":{"prompt":"Where is the Eiffel tower?","vars":{"city":"Paris"}}}`
	tests := []struct {
		name, path, body string
		code             int
		want             promptfooReply
		why              string
	}{
		{"named pass", "/v1/promptfoo/paris", doc, 200, promptfooReply{Pass: true, Score: 1, Reason: "contains passed", Status: "passed"}, "passed: pass true, score 1"},
		{"named fail", "/v1/promptfoo/paris", `{"output":"Lyon","context":{"prompt":"p","vars":{}}}`, 200,
			promptfooReply{Pass: false, Score: 0, Reason: `output does not contain "Paris"`, Status: "failed"}, "failed: pass false, score 0"},
		{"expected from vars", "/v1/promptfoo/answer", `{"output":"paris","context":{"prompt":"p","vars":{"expected":"Paris"}}}`, 200,
			promptfooReply{Pass: true, Score: 1, Reason: "exact_match passed", Status: "passed"}, "vars.expected is the sample's expected"},
		{"not graded", "/v1/promptfoo/answer", `{"output":"paris","context":{"prompt":"p","vars":{}}}`, 200,
			promptfooReply{Pass: false, Score: 0, Reason: "not graded: no expected value: set expected on the case or the spec", Status: "not_graded"}, "not graded never passes, and says so"},
		{"json output", "/v1/promptfoo?grader=" + url.QueryEscape(`{"type":"json_path","path":"$.city","equals":"Paris"}`), `{"output":{"city":"Paris"},"context":{"prompt":"p","vars":{}}}`, 0,
			promptfooReply{}, "an object output is graded as its JSON text (json_path may not exist on this build)"},
		{"unknown name", "/v1/promptfoo/lyon", doc, 404, promptfooReply{}, "names come from --graders"},
		{"no output", "/v1/promptfoo/paris", `{"context":{}}`, 400, promptfooReply{}, "output is required"},
		{"bad inline spec", "/v1/promptfoo?grader=" + url.QueryEscape(`{"type":"nope"}`), doc, 400, promptfooReply{}, "spec errors are 400"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(ts.URL+tt.path, "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if tt.code == 0 {
				return // only that it answers (the spec type may be absent)
			}
			if resp.StatusCode != tt.code {
				t.Fatalf("status %d (%s), want %d (%s)", resp.StatusCode, b, tt.code, tt.why)
			}
			if tt.code != 200 {
				return
			}
			var got promptfooReply
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("reply %+v, want %+v (%s)", got, tt.want, tt.why)
			}
		})
	}
}

func TestServeJSONOutputAsText(t *testing.T) {
	s := promptfooSample(promptfooRequest{Output: json.RawMessage(`{ "a" : [1, 2] }`)})
	if s.Output != `{"a":[1,2]}` {
		t.Errorf("Output = %q, want the compact JSON text", s.Output)
	}
	var req promptfooRequest
	_ = json.Unmarshal([]byte(`{"output":"x","context":{"prompt":"p","vars":{"context":"one passage","references":["r1",2,"r2"]}}}`), &req)
	s = promptfooSample(req)
	if s.Input != "p" || !slices.Equal(s.Context, []string{"one passage"}) || !slices.Equal(s.References, []string{"r1", "r2"}) {
		t.Errorf("sample %+v: want input p, context [one passage], references [r1 r2]", s)
	}
}

func TestServeCacheBounded(t *testing.T) {
	s, ts := newTestServer(t, testServeConfig(), nil)
	for i := range 20 {
		body := fmt.Sprintf(`{"grader":{"type":"contains","value":"v%d"},"sample":{"output":"v%d"}}`, i, i)
		if code, out := post(t, ts.URL+"/v1/grade", "application/json", body); code != 200 {
			t.Fatalf("status %d: %v", code, out)
		}
	}
	s.cache.mu.Lock()
	n := s.cache.ll.Len()
	s.cache.mu.Unlock()
	if n != 4 {
		t.Errorf("cache holds %d specs, want its bound of 4", n)
	}
}

func TestServePythonAllowed(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH")
	}
	cfg := testServeConfig()
	cfg.allowPython = true
	cfg.cacheSize = 1
	_, ts := newTestServer(t, cfg, nil)
	for i := range 3 { // evicting a python grader closes it; the next request compiles it again
		src := fmt.Sprintf("def grade(sample, item):\n    return %d\n", i%2)
		body, _ := json.Marshal(map[string]any{"grader": map[string]any{"type": "python", "source": src}, "sample": map[string]any{"output": "x"}})
		code, out := post(t, ts.URL+"/v1/grade", "application/json", string(body))
		want := []string{"failed", "passed"}[i%2]
		if code != 200 || !strings.Contains(fmt.Sprint(out), "status:"+want) {
			t.Errorf("request %d: %d %v, want %s", i, code, out, want)
		}
	}
}

// startServe runs `proctor serve` in process on a random loopback port and
// returns its base URL and a func that stops it and returns its exit code.
func startServe(t testing.TB, extra ...string) (string, func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, extra...), strings.NewReader(""), pw, &stderr)
		pw.Close()
		done <- code
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("serve did not start: %v (%s)", err, stderr.String())
	}
	go io.Copy(io.Discard, pr)
	base := strings.TrimSpace(strings.TrimPrefix(line, "proctor serve: listening on "))
	return base, func() int {
		cancel()
		select {
		case code := <-done:
			return code
		case <-time.After(15 * time.Second):
			t.Fatal("serve did not shut down")
			return -1
		}
	}
}

func TestServeSlowClient(t *testing.T) {
	base, stop := startServe(t, "--read-header-timeout", "200ms")
	defer stop()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("POST /v1/grade HTTP/1.1\r\nHost: 127.0.0.1\r\n")); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	_, err = io.ReadAll(conn) // the server closes the connection
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("connection held %v by a client that never finished its headers (err %v), want cut off after about 200ms", took, err)
	}
}

func TestServeLoadAndShutdown(t *testing.T) {
	base, stop := startServe(t, "--concurrency", "8")
	const clients, requests = 50, 2000
	body := `{"grader":{"type":"contains","value":"Paris"},"sample":{"output":"In Paris."}}`
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	defer client.CloseIdleConnections()
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	next := make(chan int, requests)
	for i := range requests {
		next <- i
	}
	close(next)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range next {
				resp, err := client.Post(base+"/v1/grade", "application/json", strings.NewReader(body))
				if err != nil {
					errs <- err
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || !bytes.Contains(b, []byte(`"status":"passed"`)) {
					errs <- fmt.Errorf("status %d: %s", resp.StatusCode, b)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if code := stop(); code != exitOK {
		t.Errorf("serve exited %d after cancel, want %d", code, exitOK)
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Error("serve still answers after shutdown")
	}
}

func TestServeFlags(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--concurrency", "0"},
		{"serve", "extra"},
		{"serve", "--graders", "/nonexistent/graders.json"},
		{"serve", "--addr", "256.0.0.1:1"},
	} {
		var stderr bytes.Buffer
		if code := run(context.Background(), args, strings.NewReader(""), io.Discard, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, stderr.String())
		}
	}
}

// BenchmarkServe reports requests per second and p99 latency for 50
// concurrent clients posting one contains grade each over loopback.
func BenchmarkServe(b *testing.B) {
	base, stop := startServe(b)
	defer stop()
	body := []byte(`{"grader":{"type":"contains","value":"Paris"},"sample":{"output":"In Paris."}}`)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer client.CloseIdleConnections()
	var mu sync.Mutex
	var lat []time.Duration
	b.SetParallelism(max(1, 50/runtimeProcs()))
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			resp, err := client.Post(base+"/v1/grade", "application/json", bytes.NewReader(body))
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

func runtimeProcs() int { return runtime.GOMAXPROCS(0) }

// The promptfoo example in testdata compiles and grades what its
// promptfooconfig.yaml sends.
func TestServePromptfooExample(t *testing.T) {
	b, err := os.ReadFile("../../testdata/compat/promptfoo/graders.json")
	if err != nil {
		t.Fatal(err)
	}
	var named map[string]json.RawMessage
	if err := json.Unmarshal(b, &named); err != nil {
		t.Fatal(err)
	}
	_, ts := newTestServer(t, testServeConfig(), named)
	body := `{"output":"Paris.","context":{"prompt":"Paris.","vars":{"answer":"Paris.","expected":"Paris","context":["Paris is the capital."],"references":["paris is the  capital."]}}}`
	for name := range named {
		code, out := post(t, ts.URL+"/v1/promptfoo/"+name, "application/json", body)
		if code != 200 || out["pass"] != true {
			t.Errorf("%s: %d %v, want a pass", name, code, out)
		}
	}
}

func FuzzServe(f *testing.F) {
	for _, s := range []string{
		`{"grader":{"type":"contains","value":"x"},"sample":{"output":"x"}}`,
		`{"grader":"n","samples":[{"output":"x"},{"output":1}]}`,
		`{"output":{"a":1},"context":{"prompt":["p"],"vars":{"expected":[1],"context":7}}}`,
		`{`, `null`, `[]`, `{"grader":{"type":"multi","graders":{"a":{"type":"contains","value":"x"}},"calculate_output":"1/(a-a)"},"sample":{"output":"x"}}`,
	} {
		f.Add(s, "/v1/grade")
		f.Add(s, "/v1/promptfoo/n")
	}
	s, err := newServer(testServeConfig(), nil, map[string]json.RawMessage{"n": json.RawMessage(`{"type":"contains","value":"x"}`)})
	if err != nil {
		f.Fatal(err)
	}
	defer s.close()
	h := s.handler()
	f.Fuzz(func(t *testing.T, body, path string) {
		if !strings.HasPrefix(path, "/") {
			return
		}
		r := httptest.NewRequest("POST", "http://127.0.0.1/", strings.NewReader(body))
		r.URL.Path = path
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code/100 == 3 {
			return // the mux redirects unclean paths ("/.") to their clean form
		}
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("%s %q: reply is not JSON: %q", path, body, w.Body.String())
		}
		if w.Code >= 500 {
			t.Fatalf("%s %q: status %d: %s", path, body, w.Code, w.Body.String())
		}
	})
}

// With every grading slot taken, a request waits up to the queue wait and
// then gets 503 with Retry-After; the slot frees when grading ends.
func TestServeSaturated(t *testing.T) {
	cfg := testServeConfig()
	cfg.concurrency, cfg.queueWait = 1, 50*time.Millisecond
	s, ts := newTestServer(t, cfg, nil)
	started, unblock := registerSlow(s)
	done := make(chan int)
	go func() {
		resp, err := http.Post(ts.URL+"/v1/grade", "application/json", strings.NewReader(`{"grader":{"type":"slow"},"sample":{"output":"x"}}`))
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	<-started
	resp, err := http.Post(ts.URL+"/v1/grade", "application/json", strings.NewReader(`{"grader":{"type":"contains","value":"x"},"sample":{"output":"x"}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("saturated: status %d, Retry-After %q, want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	close(unblock)
	if code := <-done; code != 200 {
		t.Errorf("slow request: %d, want 200", code)
	}
	if code, out := post(t, ts.URL+"/v1/grade", "application/json", `{"grader":{"type":"contains","value":"x"},"sample":{"output":"x"}}`); code != 200 {
		t.Errorf("after the slot freed: %d %v, want 200", code, out)
	}
}

// TestServeShutdownCancelsStragglers: a request still grading when the
// shutdown grace runs out has its context cancelled, serve returns with an
// error saying so once the handler has returned, and no goroutine of the
// server is left.
func TestServeShutdownCancelsStragglers(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := testServeConfig()
	cfg.shutdownGrace = 100 * time.Millisecond
	s, err := newServer(cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	started, sawCancel := make(chan struct{}), make(chan struct{})
	s.comp.Register("stuck", func(o *proctor.SpecOptions) (proctor.Grader, error) {
		return proctor.Func("stuck", func(ctx context.Context, _ *proctor.Sample) proctor.Grade {
			close(started)
			<-ctx.Done()
			close(sawCancel)
			return proctor.ErrorGrade("stopped", ctx.Err())
		}), nil
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.serve(ctx, ln) }()
	client := &http.Client{Transport: &http.Transport{}}
	reqDone := make(chan struct{})
	go func() {
		defer close(reqDone)
		resp, err := client.Post("http://"+ln.Addr().String()+"/v1/grade", "application/json", strings.NewReader(`{"grader":{"type":"stuck"},"sample":{"output":"x"}}`))
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	<-started
	cancel()
	select {
	case err := <-served:
		if err == nil || !strings.Contains(err.Error(), "cancelled") {
			t.Errorf("serve = %v, want an error saying requests were cancelled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serve did not return after the shutdown grace")
	}
	select {
	case <-sawCancel:
	default:
		t.Error("serve returned before the straggling grader saw its context cancelled")
	}
	<-reqDone
	client.CloseIdleConnections()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after serve returned, %d before", n, before)
	}
}

// TestServeSlowBodiesNotAdmitted: clients that never finish their bodies,
// more of them than there are request slots, hold no slot: a request with
// its body gets its answer at once, and the slow ones are cut off after
// --body-timeout with 408.
func TestServeSlowBodiesNotAdmitted(t *testing.T) {
	cfg := testServeConfig()
	cfg.concurrency, cfg.queueWait, cfg.bodyWait = 1, 50*time.Millisecond, 300*time.Millisecond
	s, ts := newTestServer(t, cfg, nil)
	n := 2 * cap(s.admitted)
	addr := strings.TrimPrefix(ts.URL, "http://")
	var conns []net.Conn
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
		fmt.Fprintf(c, "POST /v1/grade HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"grader\":")
	}
	start := time.Now()
	code, out := post(t, ts.URL+"/v1/grade", "application/json", `{"grader":{"type":"contains","value":"x"},"sample":{"output":"x"}}`)
	if code != 200 {
		t.Errorf("with %d bodies pending: %d %v, want 200", n, code, out)
	}
	if took := time.Since(start); took > cfg.bodyWait {
		t.Errorf("answer took %v with %d bodies pending, want it before their body timeout", took, n)
	}
	for _, c := range conns[:3] {
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("slow client: %v, want a 408 reply", err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestTimeout {
			t.Errorf("slow client: status %d, want 408", resp.StatusCode)
		}
	}
}

// TestServeBytesInFlightBounded: bodies are charged (four times their
// size) against --max-inflight while their requests run; a body that
// does not fit waits, then gets 503, and the charge is returned after.
func TestServeBytesInFlightBounded(t *testing.T) {
	cfg := testServeConfig()
	cfg.maxBody, cfg.maxInflight, cfg.queueWait = 1<<20, 1<<20, 100*time.Millisecond
	s, ts := newTestServer(t, cfg, nil)
	started, unblock := registerSlow(s)
	pad := strings.Repeat("p", 150<<10)
	done := make(chan int)
	go func() {
		code, _ := postNoFatal(ts.URL+"/v1/grade", `{"grader":{"type":"slow"},"sample":{"output":"`+pad+`"}}`)
		done <- code
	}()
	<-started
	code, out := post(t, ts.URL+"/v1/grade", "application/json", `{"grader":{"type":"contains","value":"x"},"sample":{"output":"`+pad+`"}}`)
	if code != http.StatusServiceUnavailable || !strings.Contains(fmt.Sprint(out["error"]), "bytes") {
		t.Errorf("second 150 KiB body with 600 KiB of 1 MiB charged: %d %v, want 503 naming the bytes in flight", code, out)
	}
	close(unblock)
	if code := <-done; code != 200 {
		t.Errorf("first request: %d, want 200", code)
	}
	if code, out := post(t, ts.URL+"/v1/grade", "application/json", `{"grader":{"type":"contains","value":"x"},"sample":{"output":"`+pad+`"}}`); code != 200 {
		t.Errorf("after the first finished: %d %v, want 200", code, out)
	}
}

// TestServeJudgeConcurrency: a judge's calls in flight follow --concurrency,
// as they follow the run's concurrency elsewhere, not a fixed default.
func TestServeJudgeConcurrency(t *testing.T) {
	cfg := testServeConfig() // 8 requests grading at once
	var now, most atomic.Int64
	full := make(chan struct{})
	var once sync.Once
	judge := proctor.JudgeModel{Name: "j", Family: "fam-a", Call: func(ctx context.Context, _ string) (string, error) {
		n := now.Add(1)
		defer now.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if n >= int64(cfg.concurrency) {
			once.Do(func() { close(full) })
		}
		select { // hold the call until every request is in, or give up
		case <-full:
		case <-time.After(2 * time.Second):
		}
		return `{"criterion":"c","violations":"none","basis":"b","verdict":"pass","confidence":"high"}`, nil
	}}
	s, err := newServer(cfg, []proctor.CompilerOption{proctor.NewJudgePool(judge)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.handler())
	defer func() { ts.Close(); s.close() }()
	var wg sync.WaitGroup
	for i := range cfg.concurrency {
		wg.Go(func() {
			body := fmt.Sprintf(`{"grader":{"type":"llm_judge","rubric":"r"},"sample":{"input":"q","output":"answer %d"}}`, i)
			resp, err := http.Post(ts.URL+"/v1/grade", "application/json", strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		})
	}
	wg.Wait()
	if got := most.Load(); got != int64(cfg.concurrency) {
		t.Errorf("at most %d judge calls in flight, want %d (--concurrency)", got, cfg.concurrency)
	}
}
