package proctor

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Webhook tests talk only to httptest servers on 127.0.0.1, reached through
// the allow-list. Tests of refused addresses dial through a recorder that
// never connects.

var loopbackOnly = Network{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}

func TestCustomWebhookReplies(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		timeout time.Duration
		want    Status
		score   float64 // -1: no score
		reason  string  // substring of the reason
	}{
		{"pass", reply(200, `{"passed": true}`), 0, StatusPassed, -1, ""},
		{"pass with reason", reply(200, `{"passed": true, "reason": "fine"}`), 0, StatusPassed, -1, "fine"},
		{"fail", reply(200, `{"passed": false, "reason": "tone is rude"}`), 0, StatusFailed, -1, "tone is rude"},
		{"fail without reason", reply(200, `{"passed": false}`), 0, StatusFailed, -1, "failed"},
		{"score", reply(200, `{"passed": true, "score": 0.75}`), 0, StatusPassed, 0.75, ""},
		{"201 is 2xx", reply(201, `{"passed": true}`), 0, StatusPassed, -1, ""},
		{"score out of range", reply(200, `{"passed": true, "score": 1.5}`), 0, StatusNotGraded, -1, "score"},
		{"score not a number", reply(200, `{"passed": true, "score": "high"}`), 0, StatusNotGraded, -1, "score"},
		{"non-2xx", reply(500, `{"passed": true}`), 0, StatusNotGraded, -1, "HTTP 500"},
		{"404", reply(404, `not found`), 0, StatusNotGraded, -1, "HTTP 404"},
		{"non-JSON", reply(200, `ok`), 0, StatusNotGraded, -1, "not a JSON object"},
		{"JSON array", reply(200, `[true]`), 0, StatusNotGraded, -1, "not a JSON object"},
		{"missing passed", reply(200, `{"score": 1}`), 0, StatusNotGraded, -1, `no "passed"`},
		{"passed not boolean", reply(200, `{"passed": "yes"}`), 0, StatusNotGraded, -1, "want true or false"},
		{"passed null", reply(200, `{"passed": null}`), 0, StatusNotGraded, -1, "want true or false"},
		{"reason not a string", reply(200, `{"passed": true, "reason": 3}`), 0, StatusNotGraded, -1, "reason"},
		{"passed repeated", reply(200, `{"passed": false, "reason": "r", "passed": true}`), 0, StatusNotGraded, -1, `"passed" more than once`},
		{"passed repeated, escaped", reply(200, `{"passed": false, "p\u0061ssed": true}`), 0, StatusNotGraded, -1, `"passed" more than once`},
		{"long reason clipped", reply(200, `{"passed": false, "reason": "`+strings.Repeat("r", 100000)+`"}`), 0, StatusFailed, -1, strings.Repeat("r", 2000) + "…"},
		{"Passed capitalised", reply(200, `{"Passed": true}`), 0, StatusNotGraded, -1, `no "passed"`},
		{"passed 1", reply(200, `{"passed": 1}`), 0, StatusNotGraded, -1, "want true or false"},
		{"passed in an array", reply(200, `{"passed": [true]}`), 0, StatusNotGraded, -1, "want true or false"},
		{"passed nested", reply(200, `{"result": {"passed": true}}`), 0, StatusNotGraded, -1, `no "passed"`},
		{"204 without a body", reply(204, ``), 0, StatusNotGraded, -1, "not a JSON object"},
		{"redirect with a passing body", reply(302, `{"passed": true}`), 0, StatusNotGraded, -1, "redirects are refused"},
		{"pass then trailing object", reply(200, `{"passed": true}{"passed": false}`), 0, StatusNotGraded, -1, "not a JSON object"},
		{"redirect refused", func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/moved" {
				io.WriteString(w, `{"passed": true}`)
				return
			}
			http.Redirect(w, r, "/moved", http.StatusTemporaryRedirect)
		}, 0, StatusNotGraded, -1, "redirects are refused"},
		{"oversized body", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"passed": true, "reason": "`+strings.Repeat("a", WebhookMaxReply)+`"}`)
		}, 0, StatusNotGraded, -1, "over 1048576 bytes"},
		{"slow server past timeout", func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // lets the server notice the client leaving
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, 50 * time.Millisecond, StatusNotGraded, -1, "did not answer within 50ms"},
		{"slow body past timeout", func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			io.WriteString(w, `{"passed": `)
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, 50 * time.Millisecond, StatusNotGraded, -1, "did not answer within 50ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			g := must(NewCustomWebhook(srv.URL+"/grade", WebhookOptions{Network: loopbackOnly, Timeout: tt.timeout}))
			got := g.Grade(context.Background(), &Sample{Output: "hello"})
			if got.Status != tt.want {
				t.Errorf("status = %v (%s), want %v", got.Status, got.Reason, tt.want)
			}
			if !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("reason = %q, want it to contain %q", got.Reason, tt.reason)
			}
			if tt.score >= 0 && (!got.HasScore || got.Score != tt.score) {
				t.Errorf("score = %v (has %v), want %v", got.Score, got.HasScore, tt.score)
			}
			if tt.score < 0 && got.HasScore {
				t.Errorf("score = %v, want none", got.Score)
			}
		})
	}
}

func reply(code int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

func TestCustomWebhookRequest(t *testing.T) {
	key := []byte("test-signing-key")
	var mu sync.Mutex
	var gotBody []byte
	var gotHeader http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		gotBody, gotHeader = b, r.Header.Clone()
		mu.Unlock()
		if err := VerifyWebhookSignature(key, r.Header.Get(WebhookSignatureHeader), b, time.Unix(1_800_000_030, 0), 0); err != nil {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		io.WriteString(w, `{"passed": true}`)
	}))
	defer srv.Close()
	g := must(NewCustomWebhook(srv.URL, WebhookOptions{
		Network:      loopbackOnly,
		Headers:      map[string]string{"Authorization": "Bearer t0", "x-team": "evals"},
		SendID:       true,
		SendExpected: true,
		SigningKey:   key,
		Now:          func() time.Time { return time.Unix(1_800_000_000, 0) },
	}))
	got := g.Grade(context.Background(), &Sample{ID: "c1", Input: "not sent", Output: "Zoë said hi", Expected: Ptr("hi")})
	if got.Status != StatusPassed {
		t.Fatalf("status = %v (%s), want passed (signature verified by the server)", got.Status, got.Reason)
	}
	mu.Lock()
	var body map[string]any
	err := json.Unmarshal(gotBody, &body)
	mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"candidate": "Zoë said hi", "id": "c1", "expected": "hi"}
	if len(body) != len(want) {
		t.Errorf("body = %v, want %v", body, want)
	}
	for k, v := range want {
		if body[k] != v {
			t.Errorf("body[%s] = %v, want %v", k, body[k], v)
		}
	}
	for k, v := range map[string]string{"Authorization": "Bearer t0", "X-Team": "evals", "Content-Type": "application/json"} {
		if gotHeader.Get(k) != v {
			t.Errorf("header %s = %q, want %q", k, gotHeader.Get(k), v)
		}
	}
	if h := gotHeader.Get(WebhookSignatureHeader); !strings.HasPrefix(h, "t=1800000000,v1=") {
		t.Errorf("signature header = %q, want t=1800000000,v1=...", h)
	}
	// Without SendExpected, expected is not sent at all.
	g2 := must(NewCustomWebhook(srv.URL, WebhookOptions{Network: loopbackOnly}))
	g2.Grade(context.Background(), &Sample{ID: "c1", Output: "x", Expected: Ptr("hi")})
	mu.Lock()
	defer mu.Unlock()
	if string(gotBody) != `{"candidate":"x"}` {
		t.Errorf("body = %s, want only the candidate", gotBody)
	}
}

func TestVerifyWebhookSignature(t *testing.T) {
	key := []byte("k1")
	body := []byte(`{"candidate":"x"}`)
	now := time.Unix(1_800_000_000, 0)
	sig := webhookMAC(key, "1800000000", body)
	tests := []struct {
		name   string
		key    string
		header string
		body   string
		ok     bool
	}{
		{"valid", "k1", "t=1800000000,v1=" + sig, string(body), true},
		{"rotation: second v1 matches", "k1", "t=1800000000,v1=00ff,v1=" + sig, string(body), true},
		{"tampered body", "k1", "t=1800000000,v1=" + sig, `{"candidate":"y"}`, false},
		{"wrong key", "k2", "t=1800000000,v1=" + sig, string(body), false},
		{"timestamp changed", "k1", "t=1800000001,v1=" + sig, string(body), false},
		{"too old", "k1", "t=1799999000,v1=" + webhookMAC(key, "1799999000", body), string(body), false},
		{"no v1", "k1", "t=1800000000", string(body), false},
		{"no t", "k1", "v1=" + sig, string(body), false},
		{"empty", "k1", "", string(body), false},
	}
	for _, tt := range tests {
		err := VerifyWebhookSignature([]byte(tt.key), tt.header, []byte(tt.body), now, 0)
		if (err == nil) != tt.ok {
			t.Errorf("%s: err = %v, want ok %v", tt.name, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrWebhookSignature) {
			t.Errorf("%s: %v does not match ErrWebhookSignature", tt.name, err)
		}
	}
}

// recordingDial records the addresses handed to it and never connects.
type recordingDial struct {
	mu    sync.Mutex
	addrs []string
}

var errTestNoConnect = errors.New("test: recorded, not connecting")

func (r *recordingDial) dial(_ context.Context, _, address string) (net.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addrs = append(r.addrs, address)
	return nil, errTestNoConnect
}

func TestCustomWebhookBlocked(t *testing.T) {
	srv := httptest.NewServer(reply(200, `{"passed": true}`))
	defer srv.Close()
	// A literal loopback URL is refused when the grader is built.
	if _, err := NewCustomWebhook(srv.URL, WebhookOptions{}); !errors.Is(err, ErrWebhookBlocked) {
		t.Errorf("NewCustomWebhook(%s) = %v, want ErrWebhookBlocked", srv.URL, err)
	}
	// A name that resolves to a blocked address is refused at dial time;
	// the dial function is never called.
	tests := []struct {
		answer string
		why    string
	}{
		{"127.0.0.1", "loopback"},
		{"10.0.0.7", "private"},
		{"169.254.169.254", "metadata"},
		{"::ffff:127.0.0.1", "mapped loopback"},
		{"fd00::1", "unique-local"},
	}
	for _, tt := range tests {
		rec := &recordingDial{}
		g := must(NewCustomWebhook("http://hook.test/grade", WebhookOptions{Network: Network{
			Resolve: func(context.Context, string) ([]netip.Addr, error) {
				return []netip.Addr{netip.MustParseAddr(tt.answer)}, nil
			},
			Dial: rec.dial,
		}}))
		got := g.Grade(context.Background(), &Sample{Output: "x"})
		if got.Status != StatusNotGraded || !errors.Is(got.Err, ErrWebhookBlocked) {
			t.Errorf("%s: grade = %v %q (err %v), want not graded and ErrWebhookBlocked", tt.why, got.Status, got.Reason, got.Err)
		}
		if len(rec.addrs) != 0 {
			t.Errorf("%s: dialled %v, want nothing", tt.why, rec.addrs)
		}
	}
}

// TestCustomWebhookRebinding: the name resolves to a public address, then
// to loopback. The first call dials only the checked public address (and
// the recorder does not connect); the second is refused.
func TestCustomWebhookRebinding(t *testing.T) {
	var mu sync.Mutex
	n := 0
	rec := &recordingDial{}
	g := must(NewCustomWebhook("http://rebind.test/grade", WebhookOptions{Network: Network{
		Resolve: func(context.Context, string) ([]netip.Addr, error) {
			mu.Lock()
			defer mu.Unlock()
			n++
			if n == 1 {
				return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
			}
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		},
		Dial: rec.dial,
	}}))
	first := g.Grade(context.Background(), &Sample{Output: "x"})
	if first.Status != StatusNotGraded || !errors.Is(first.Err, errTestNoConnect) {
		t.Errorf("first grade = %v %q, want not graded by the recorder's error", first.Status, first.Reason)
	}
	second := g.Grade(context.Background(), &Sample{Output: "x"})
	if !errors.Is(second.Err, ErrWebhookBlocked) {
		t.Errorf("second grade = %v %q, want ErrWebhookBlocked", second.Status, second.Reason)
	}
	if len(rec.addrs) != 1 || rec.addrs[0] != "93.184.215.14:80" {
		t.Errorf("dialled %v, want only [93.184.215.14:80]", rec.addrs)
	}
}

func TestCustomWebhookCancel(t *testing.T) {
	started := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		started <- struct{}{}
		<-r.Context().Done()
	}))
	defer srv.Close()
	g := must(NewCustomWebhook(srv.URL, WebhookOptions{Network: loopbackOnly}))
	before := runtime.NumGoroutine()

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := g.Grade(ctx, &Sample{Output: "x"}); got.Status != StatusNotGraded || !errors.Is(got.Err, context.Canceled) {
		t.Errorf("pre-cancelled: %v %q, want not graded with context.Canceled", got.Status, got.Reason)
	}

	ctx, cancel = context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	got := g.Grade(ctx, &Sample{Output: "x"})
	if got.Status != StatusNotGraded || !errors.Is(got.Err, context.Canceled) {
		t.Errorf("cancelled in flight: %v %q (err %v), want not graded with context.Canceled", got.Status, got.Reason, got.Err)
	}
	// No goroutine of the call is left behind: connections are not kept.
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the cancelled call, want at most %d", n, before)
	}
}

func TestCustomWebhookOptionsErrors(t *testing.T) {
	tests := []struct {
		name string
		url  string
		opts WebhookOptions
	}{
		{"timeout over 10s", "https://hook.test/", WebhookOptions{Timeout: 11 * time.Second}},
		{"negative timeout", "https://hook.test/", WebhookOptions{Timeout: -1}},
		{"Host header", "https://hook.test/", WebhookOptions{Headers: map[string]string{"host": "x"}}},
		{"signature header", "https://hook.test/", WebhookOptions{Headers: map[string]string{WebhookSignatureHeader: "x"}}},
		{"bad header name", "https://hook.test/", WebhookOptions{Headers: map[string]string{"a b": "x"}}},
		{"header injection", "https://hook.test/", WebhookOptions{Headers: map[string]string{"X-A": "x\r\nHost: evil"}}},
		{"ftp", "ftp://hook.test/", WebhookOptions{}},
		{"userinfo", "http://evil@127.0.0.1/", WebhookOptions{Network: loopbackOnly}},
	}
	for _, tt := range tests {
		if _, err := NewCustomWebhook(tt.url, tt.opts); err == nil {
			t.Errorf("%s: NewCustomWebhook succeeded, want an error", tt.name)
		}
	}
}

func TestCustomWebhookSpec(t *testing.T) {
	srv := httptest.NewServer(reply(200, `{"passed": false, "score": 0.25, "reason": "nope"}`))
	defer srv.Close()
	t.Setenv("PROCTOR_TEST_WEBHOOK_KEY", "k")
	c := NewCompiler(WithNetworkAllow(netip.MustParsePrefix("127.0.0.1/32")))
	ch, err := c.Compile([]byte(`{"type": "custom_webhook", "url": "` + srv.URL + `", "timeout_ms": 2000,
		"headers": {"X-A": "b"}, "send": ["id", "input"], "sign_secret_env": "PROCTOR_TEST_WEBHOOK_KEY"}`))
	if err != nil {
		t.Fatal(err)
	}
	if KindOf(ch.Grader) != KindNetwork {
		t.Errorf("kind = %v, want network", KindOf(ch.Grader))
	}
	got := ch.Grade(context.Background(), &Sample{Output: "x"})
	if got.Status != StatusFailed || got.Score != 0.25 || got.Reason != "nope" {
		t.Errorf("grade = %v %v %q, want failed 0.25 \"nope\"", got.Status, got.Score, got.Reason)
	}

	bad := []struct {
		spec, option string
	}{
		{`{"type": "custom_webhook"}`, "url"},
		{`{"type": "custom_webhook", "url": "` + srv.URL + `", "timeout_ms": 0}`, "timeout_ms"},
		{`{"type": "custom_webhook", "url": "` + srv.URL + `", "timeout_ms": 10001}`, "timeout_ms"},
		{`{"type": "custom_webhook", "url": "` + srv.URL + `", "timeout_ms": "5"}`, "timeout_ms"},
		{`{"type": "custom_webhook", "url": "` + srv.URL + `", "headers": {"Host": "x"}}`, "headers"},
		{`{"type": "custom_webhook", "url": "` + srv.URL + `", "headers": {"X": 1}}`, "headers"},
		{`{"type": "custom_webhook", "url": "` + srv.URL + `", "send": ["output"]}`, "send"},
		{`{"type": "custom_webhook", "url": "` + srv.URL + `", "sign_secret_env": "PROCTOR_TEST_UNSET_VAR"}`, "sign_secret_env"},
		{`{"type": "custom_webhook", "url": "` + srv.URL + `", "retries": 3}`, "retries"},
		{`{"type": "custom_webhook", "url": "http://10.0.0.1/"}`, "url"},
		{`{"type": "custom_webhook", "url": "http://0x7f000002/"}`, "url"},
	}
	for _, b := range bad {
		_, err := c.Compile([]byte(b.spec))
		var se *SpecError
		if !errors.As(err, &se) || se.Option != b.option {
			t.Errorf("Compile(%s) = %v, want a SpecError on option %q", b.spec, err, b.option)
		}
	}
	// Without the allow-list, the test server's literal address is refused
	// at load time.
	if _, err := NewCompiler().Compile([]byte(`{"type": "custom_webhook", "url": "` + srv.URL + `"}`)); !errors.Is(err, ErrWebhookBlocked) {
		t.Errorf("compile without allow-list = %v, want ErrWebhookBlocked", err)
	}
}

func FuzzWebhookVerdict(f *testing.F) {
	for _, s := range []string{`{"passed": true}`, `{"passed": false, "score": 0.5, "reason": "r"}`, `{"passed": "true"}`, `[]`, `null`, ``, `{"passed": true, "score": 2}`, `{"passed":true}{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, reply []byte) {
		g := webhookVerdict(reply)
		switch g.Status {
		case StatusPassed, StatusFailed:
			var m map[string]json.RawMessage
			if json.Unmarshal(reply, &m) != nil {
				t.Fatalf("graded %v from a reply that is not a JSON object: %q", g.Status, reply)
			}
			if want := g.Status == StatusPassed; string(m["passed"]) != strconv.FormatBool(want) {
				t.Fatalf("status %v but passed is %s", g.Status, m["passed"])
			}
			if g.HasScore && (g.Score < 0 || g.Score > 1) {
				t.Fatalf("score %v outside [0, 1]", g.Score)
			}
		case StatusNotGraded:
		default:
			t.Fatalf("status %v", g.Status)
		}
	})
}

func FuzzVerifyWebhookSignature(f *testing.F) {
	f.Add("t=1800000000,v1=00", []byte("{}"))
	f.Add("", []byte(""))
	f.Add("t=x,v1=,v1=,t=", []byte("a"))
	now := time.Unix(1_800_000_000, 0)
	f.Fuzz(func(t *testing.T, header string, body []byte) {
		err := VerifyWebhookSignature([]byte("k"), header, body, now, 0)
		if err != nil && !errors.Is(err, ErrWebhookSignature) {
			t.Fatalf("error %v does not match ErrWebhookSignature", err)
		}
	})
}

// blockedResolver answers every name with the given addresses and records
// the names asked.
type blockedResolver struct {
	mu    sync.Mutex
	names []string
	addrs []netip.Addr
}

func (r *blockedResolver) resolve(_ context.Context, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names = append(r.names, host)
	return r.addrs, nil
}

// TestCustomWebhookSSRF tries URL forms that reach a blocked address: each
// is refused when the grader is built or when it dials, and the recording
// dial function, which never connects, is never called. Names resolve to
// loopback (or a public address beside a private one).
func TestCustomWebhookSSRF(t *testing.T) {
	loop := []netip.Addr{netip.MustParseAddr("127.0.0.1")}
	mixed := []netip.Addr{netip.MustParseAddr("93.184.215.14"), netip.MustParseAddr("10.0.0.7")}
	tests := []struct {
		url     string
		answers []netip.Addr
		why     string
	}{
		{"http://[::ffff:7f00:1]/", loop, "IPv4-mapped loopback in hex"},
		{"http://[::127.0.0.1]/", loop, "IPv4-compatible loopback"},
		{"http://[0:0:0:0:0:ffff:127.0.0.1]/", loop, "mapped loopback written out"},
		{"http://[64:ff9b::a00:1]/", loop, "NAT64 of 10.0.0.1"},
		{"http://[64:ff9b::a9fe:a9fe]/", loop, "NAT64 of the metadata address"},
		{"http://[2002:a9fe:a9fe::1]/", loop, "6to4 of the metadata address"},
		{"http://[2002:c0a8:101::]/", loop, "6to4 of 192.168.1.1"},
		{"http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", loop, "Teredo"},
		{"http://[fe80::1%25eth0]/", loop, "link-local with a zone"},
		{"http://[::1]:80", loop, "IPv6 loopback with a port"},
		{"HTTP://127.0.0.1/", loop, "upper-case scheme"},
		{"hTtPs://[::1]/", loop, "mixed-case scheme"},
		{"http://127.0.0.1./", loop, "trailing dot"},
		{"http://127.0.0.1../", loop, "two trailing dots: not a literal, so resolved, and the answer is checked"},
		{"http://2130706433/", loop, "decimal"},
		{"http://0x7f.1/", loop, "hex and short"},
		{"http://017700000001/", loop, "octal"},
		{"http://0/", loop, "0 is 0.0.0.0"},
		{"http://localhost./", loop, "localhost with a dot"},
		{"http://ｌｏｃａｌｈｏｓｔ/", loop, "full-width letters: IDNA maps them to localhost, which resolves to loopback"},
		{"http://①②⑦.0.0.1/", loop, "enclosed digits: IDNA maps them to 127.0.0.1"},
		{"http://a@127.0.0.1/", loop, "user info"},
		{"http://hook.test:80@127.0.0.1/", loop, "user info that looks like a host"},
		{"http://127.0.0.1#@hook.test/", loop, "fragment before an @"},
		{"http://hook.test\\@127.0.0.1/", loop, "backslash"},
		{"http://127.0.0.1 /", loop, "space"},
		{"http://hook.test/", loop, "a name that resolves to loopback"},
		{"http://hook.test/", mixed, "a name whose answers mix public and private"},
		{"http://hook.test/", []netip.Addr{netip.MustParseAddr("::ffff:169.254.169.254")}, "a name that resolves to mapped metadata"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			rec := &recordingDial{}
			res := &blockedResolver{addrs: tt.answers}
			g, err := NewCustomWebhook(tt.url, WebhookOptions{Network: Network{Resolve: res.resolve, Dial: rec.dial}})
			if err != nil {
				if !errors.Is(err, ErrWebhookBlocked) {
					var ue *url.Error
					if !errors.As(err, &ue) { // an unparsable URL is refused too
						t.Errorf("NewCustomWebhook(%q) = %v, want ErrWebhookBlocked", tt.url, err)
					}
				}
				return
			}
			got := g.Grade(context.Background(), &Sample{Output: "x"})
			if got.Status != StatusNotGraded || !errors.Is(got.Err, ErrWebhookBlocked) {
				t.Errorf("Grade via %q = %v %q (err %v), want not graded, ErrWebhookBlocked", tt.url, got.Status, got.Reason, got.Err)
			}
			if len(rec.addrs) != 0 {
				t.Errorf("dialled %v, want nothing", rec.addrs)
			}
		})
	}
}

// TestCustomWebhookIgnoresProxyEnv: HTTP_PROXY and HTTPS_PROXY are not
// used; a proxy would be the address dialled, past the guard's check of
// the webhook's own address.
func TestCustomWebhookIgnoresProxyEnv(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:9")
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:9")
	t.Setenv("http_proxy", "http://127.0.0.1:9")
	t.Setenv("NO_PROXY", "")
	rec := &recordingDial{}
	res := &blockedResolver{addrs: []netip.Addr{netip.MustParseAddr("93.184.215.14")}}
	g := must(NewCustomWebhook("http://hook.test/grade", WebhookOptions{Network: Network{Resolve: res.resolve, Dial: rec.dial, Allow: loopbackOnly.Allow}}))
	if tr, ok := g.client.Transport.(*http.Transport); !ok || tr.Proxy != nil {
		t.Errorf("transport %T has a Proxy func, want none", g.client.Transport)
	}
	g.Grade(context.Background(), &Sample{Output: "x"})
	if len(rec.addrs) != 1 || rec.addrs[0] != "93.184.215.14:80" {
		t.Errorf("dialled %v, want only the webhook's own checked address [93.184.215.14:80]", rec.addrs)
	}
	if len(res.names) != 1 || res.names[0] != "hook.test" {
		t.Errorf("resolved %v, want [hook.test]", res.names)
	}
}

// A token in the webhook URL's query is not quoted in a failed call's
// reason.
func TestCustomWebhookReasonHidesQuery(t *testing.T) {
	rec := &recordingDial{}
	res := &blockedResolver{addrs: []netip.Addr{netip.MustParseAddr("93.184.215.14")}}
	g := must(NewCustomWebhook("https://hook.test/grade?key=s3cr3t-t0ken", WebhookOptions{Network: Network{Resolve: res.resolve, Dial: rec.dial}}))
	got := g.Grade(context.Background(), &Sample{Output: "x"})
	if got.Status != StatusNotGraded || !errors.Is(got.Err, errTestNoConnect) {
		t.Fatalf("grade = %v %q (err %v), want not graded by the recorder's error", got.Status, got.Reason, got.Err)
	}
	if strings.Contains(got.Reason, "s3cr3t") || strings.Contains(got.Err.Error(), "s3cr3t") {
		t.Errorf("reason %q quotes the URL's query", got.Reason)
	}
	if !strings.Contains(got.Reason, "hook.test/grade") {
		t.Errorf("reason %q, want it to name the host and path", got.Reason)
	}
}
