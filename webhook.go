package proctor

import (
	"bytes"
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/proctorhq/proctor/internal/kit"

	"github.com/proctorhq/proctor/internal/netguard"
)

// Webhook limits.
const (
	// WebhookMaxTimeout is the longest a webhook call may take, and the
	// default.
	WebhookMaxTimeout = 10 * time.Second
	// WebhookMaxReply is the largest reply body read; a longer one is not
	// graded.
	WebhookMaxReply = 1 << 20
	// WebhookSignatureHeader carries the signature of a signed webhook
	// request: "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">".
	WebhookSignatureHeader = "X-Proctor-Signature"
)

// webhookMaxReason is how many runes of a reply's reason are kept.
const webhookMaxReason = 2000

// ErrWebhookBlocked is matched (errors.Is) by the [Grade.Err] of a webhook
// call refused because its address is loopback, private, link-local or
// otherwise special-purpose, and by the error of [NewCustomWebhook] for a
// URL refused before any DNS.
var ErrWebhookBlocked = netguard.ErrBlocked

// ErrWebhookSignature is matched by every error [VerifyWebhookSignature]
// returns.
var ErrWebhookSignature = errors.New("proctor: webhook signature invalid")

// Network says how network graders reach other hosts. The zero value
// resolves with the system resolver, dials with a net.Dialer, and refuses
// every loopback, private (RFC 1918, CGNAT), link-local, unique-local,
// multicast, unspecified, broadcast, documentation and benchmarking
// address, and the IPv4-mapped and -translated IPv6 forms of them, checked
// at dial time after DNS resolution.
type Network struct {
	// Allow lists prefixes that may be reached even though they are
	// blocked: the only way to reach a private host (a test server on
	// 127.0.0.1, an on-premises grader).
	Allow []netip.Prefix
	// Resolve looks a host name up; nil uses net.DefaultResolver. It is
	// called once per connection, and only the addresses it returns and
	// the guard passed are dialled.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// Dial connects to a checked literal ip:port; nil uses a net.Dialer
	// whose Control hook checks the socket's address once more. It is
	// never handed a host name or a blocked address.
	Dial func(ctx context.Context, network, address string) (net.Conn, error)
}

// netConfig holds what network graders are given.
type netConfig struct {
	network    Network
	webhookKey []byte
}

// WithNetworkAllow lets network graders reach the given prefixes, which are
// otherwise blocked when loopback, private or special-purpose. By default
// none are allowed. For tests: WithNetworkAllow(netip.MustParsePrefix("127.0.0.1/32")).
func WithNetworkAllow(prefixes ...netip.Prefix) CompilerOption {
	return compilerOption(func(c *config) { c.network.Allow = append(c.network.Allow, prefixes...) })
}

// WithNetworkResolver sets how network graders look names up (see
// [Network].Resolve). The default is the system resolver.
func WithNetworkResolver(resolve func(ctx context.Context, host string) ([]netip.Addr, error)) CompilerOption {
	return compilerOption(func(c *config) { c.network.Resolve = resolve })
}

// WithNetworkDialer sets how network graders connect to an address the
// guard passed (see [Network].Dial): a proxy-less tunnel, a test recorder.
// The guard still applies: dial is only ever handed checked literal
// addresses. The default is a net.Dialer.
func WithNetworkDialer(dial func(ctx context.Context, network, address string) (net.Conn, error)) CompilerOption {
	return compilerOption(func(c *config) { c.network.Dial = dial })
}

// WithWebhookSigningKey signs the body of every custom_webhook request
// compiled with this option (unless its spec names its own key with
// sign_secret_env); see [WebhookOptions].SigningKey.
func WithWebhookSigningKey(key []byte) CompilerOption {
	return compilerOption(func(c *config) { c.webhookKey = bytes.Clone(key) })
}

// WebhookOptions configure [NewCustomWebhook]. The zero value waits 10 s,
// sends only the candidate, does not sign, and refuses private addresses.
type WebhookOptions struct {
	// Timeout bounds the whole call; 0 means [WebhookMaxTimeout], which is
	// also the most allowed.
	Timeout time.Duration
	// Headers are added to the request. Host, Content-Length,
	// Content-Type, Transfer-Encoding, Connection and the signature header
	// may not be set.
	Headers map[string]string
	// SendID, SendInput and SendExpected add the sample's id, input and
	// expected answer (null when it has none) to the request body.
	SendID, SendInput, SendExpected bool
	// SigningKey, when set, signs each request: the header
	// [WebhookSignatureHeader] carries "t=<unix>,v1=<hex>", the
	// HMAC-SHA256 with this key of "<unix>.<body>" over the exact bytes
	// sent. Receivers check it with [VerifyWebhookSignature].
	SigningKey []byte
	// Network says which addresses may be reached and how.
	Network Network
	// Now gives the signature's timestamp; nil uses time.Now.
	Now func() time.Time
	// Name is shown in results; default "custom_webhook".
	Name string
}

// CustomWebhook grades by asking an HTTP service. It POSTs a JSON object
// {"candidate": output} (plus "id", "input" and "expected" when asked) and
// reads a JSON reply {"passed": bool, "score": number in [0, 1], "reason":
// string}, of which only passed is required. It passes or fails as the
// reply says, with the reply's score and reason (clipped to 2,000 runes).
//
// It is not graded, with the reason, when the service cannot be reached or
// does not answer in time, the address is loopback, private or otherwise
// special-purpose (checked when dialling, after DNS, unless allowed by
// [Network].Allow), the service redirects (redirects are refused), answers
// a status outside 2xx, a body over 1 MiB, something that is not a JSON
// object, a passed that is missing, not a boolean or given twice, or a
// score outside [0, 1]; and when ctx is cancelled (Grade.Err keeps ctx's
// error).
//
// Each call uses a new connection, so nothing is left open after Grade
// returns. A CustomWebhook is immutable and safe for concurrent use.
type CustomWebhook struct {
	name    string
	url     string
	timeout time.Duration
	headers http.Header
	opts    WebhookOptions
	client  *http.Client
}

var (
	_ Grader = (*CustomWebhook)(nil)
	_ Kinded = (*CustomWebhook)(nil)
)

// reservedHeaders may not be set through WebhookOptions.Headers.
var reservedHeaders = []string{"Host", "Content-Length", "Content-Type", "Transfer-Encoding", "Connection", WebhookSignatureHeader}

// NewCustomWebhook returns a grader that asks the service at rawURL. It
// refuses, with an error matching [ErrWebhookBlocked], a URL that is not
// http or https, carries user info or a fragment, or names a literal
// address (in any encoding: 127.1, 0x7f000001, [::ffff:127.0.0.1]) or a
// localhost name that the network settings block. It also refuses a
// timeout out of (0, 10 s] and a reserved or malformed header.
func NewCustomWebhook(rawURL string, opts WebhookOptions) (*CustomWebhook, error) {
	g, _, err := newCustomWebhook(rawURL, opts)
	return g, err
}

// newCustomWebhook also names the spec option at fault.
func newCustomWebhook(rawURL string, opts WebhookOptions) (*CustomWebhook, string, error) {
	guard := netguard.New(opts.Network.Allow...)
	u, err := guard.CheckURL(rawURL)
	if err != nil {
		return nil, "url", fmt.Errorf("proctor: custom_webhook url %q: %w", rawURL, err)
	}
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = WebhookMaxTimeout
	}
	if timeout < 0 || timeout > WebhookMaxTimeout {
		return nil, "timeout_ms", fmt.Errorf("proctor: custom_webhook timeout %v: want more than 0 and at most %v", opts.Timeout, WebhookMaxTimeout)
	}
	h := http.Header{}
	for k, v := range opts.Headers {
		if !validHeaderName(k) {
			return nil, "headers", fmt.Errorf("proctor: custom_webhook header %q: not a valid header name", k)
		}
		if strings.ContainsAny(v, "\r\n\x00") {
			return nil, "headers", fmt.Errorf("proctor: custom_webhook header %q: value holds a line break or NUL", k)
		}
		ck := http.CanonicalHeaderKey(k)
		if slices.Contains(reservedHeaders, ck) {
			return nil, "headers", fmt.Errorf("proctor: custom_webhook header %q is set by proctor", k)
		}
		h.Set(ck, v)
	}
	d := &netguard.Dialer{Guard: guard, Resolve: opts.Network.Resolve, Dial: opts.Network.Dial}
	tr := &http.Transport{
		Proxy:                  nil, // a proxy would be the address dialled, not the webhook
		DialContext:            d.DialContext,
		DisableKeepAlives:      true,
		TLSHandshakeTimeout:    WebhookMaxTimeout,
		MaxResponseHeaderBytes: 64 << 10,
	}
	client := &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	opts.SigningKey = bytes.Clone(opts.SigningKey)
	opts.Headers = nil // kept in h
	opts.Network.Allow = slices.Clone(opts.Network.Allow)
	return &CustomWebhook{
		name:    cmp.Or(opts.Name, "custom_webhook"),
		url:     u.String(),
		timeout: timeout,
		headers: h,
		opts:    opts,
		client:  client,
	}, "", nil
}

func validHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"(),/:;<=>?@[\\]{}", c) >= 0 {
			return false
		}
	}
	return true
}

// Name returns the grader's name.
func (g *CustomWebhook) Name() string { return g.name }

// GraderKind returns [KindNetwork]: a [Runner] runs webhooks after the
// deterministic checks.
func (g *CustomWebhook) GraderKind() Kind { return KindNetwork }

// webhookRequest is the body sent.
type webhookRequest struct {
	Candidate string  `json:"candidate"`
	ID        *string `json:"id,omitempty"`
	Input     *string `json:"input,omitempty"`
	Expected  *string `json:"expected"`
}

// body encodes r, leaving expected out unless it was asked for (then a
// missing expected answer is sent as null).
func (r webhookRequest) body(withExpected bool) ([]byte, error) {
	if withExpected {
		type plain webhookRequest
		return json.Marshal(plain(r))
	}
	return json.Marshal(struct {
		Candidate string  `json:"candidate"`
		ID        *string `json:"id,omitempty"`
		Input     *string `json:"input,omitempty"`
	}{r.Candidate, r.ID, r.Input})
}

// Grade asks the webhook about s.
func (g *CustomWebhook) Grade(ctx context.Context, s *Sample) Grade {
	if err := ctx.Err(); err != nil {
		return ErrorGrade("webhook not called", err)
	}
	req := webhookRequest{Candidate: s.Output}
	if g.opts.SendID {
		req.ID = &s.ID
	}
	if g.opts.SendInput {
		req.Input = &s.Input
	}
	if g.opts.SendExpected {
		req.Expected = s.Expected
	}
	body, err := req.body(g.opts.SendExpected)
	if err != nil {
		return ErrorGrade("webhook request", err)
	}
	cctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(cctx, http.MethodPost, g.url, bytes.NewReader(body))
	if err != nil {
		return ErrorGrade("webhook request", err)
	}
	hr.Header = g.headers.Clone()
	hr.Header.Set("Content-Type", "application/json")
	if hr.Header.Get("User-Agent") == "" {
		hr.Header.Set("User-Agent", "proctor-webhook")
	}
	if len(g.opts.SigningKey) > 0 {
		now := time.Now
		if g.opts.Now != nil {
			now = g.opts.Now
		}
		ts := strconv.FormatInt(now().Unix(), 10)
		hr.Header.Set(WebhookSignatureHeader, "t="+ts+",v1="+webhookMAC(g.opts.SigningKey, ts, body))
	}
	resp, err := g.client.Do(hr)
	if err != nil {
		return g.callError(ctx, cctx, err)
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(io.LimitReader(resp.Body, WebhookMaxReply+1))
	if err != nil {
		return g.callError(ctx, cctx, err)
	}
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return NotGradedf("webhook answered HTTP %d (redirect to %s): redirects are refused", resp.StatusCode, kit.Quote(resp.Header.Get("Location")))
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return NotGradedf("webhook answered HTTP %d, want 2xx", resp.StatusCode)
	case len(reply) > WebhookMaxReply:
		return NotGradedf("webhook reply is over %d bytes", WebhookMaxReply)
	}
	return webhookVerdict(reply)
}

// callError turns a failed call into a not-graded grade that keeps the
// cause: the caller's cancellation, our timeout, a blocked address.
func (g *CustomWebhook) callError(parent, call context.Context, err error) Grade {
	switch {
	case parent.Err() != nil:
		return ErrorGrade("webhook call cancelled", parent.Err())
	case errors.Is(call.Err(), context.DeadlineExceeded):
		gr := ErrorGrade("", err)
		gr.Reason = fmt.Sprintf("webhook did not answer within %v", g.timeout)
		return gr
	case errors.Is(err, netguard.ErrBlocked):
		var be *netguard.BlockedError
		errors.As(err, &be)
		gr := ErrorGrade("", err)
		gr.Reason = "webhook refused: " + strings.TrimPrefix(be.Error(), "netguard: ")
		return gr
	}
	return ErrorGrade("webhook call failed", redactURLError(err))
}

// redactURLError drops the query from the URL an *url.Error quotes, so
// that a token passed in the webhook URL (?key=...) does not end up in
// reasons and reports. The cause is kept for errors.Is and errors.As.
func redactURLError(err error) error {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return err
	}
	u, perr := url.Parse(ue.URL)
	if perr != nil || u.RawQuery == "" {
		return err
	}
	u.RawQuery = ""
	u.ForceQuery = false
	return &url.Error{Op: ue.Op, URL: u.Redacted() + "?…", Err: ue.Err}
}

// webhookVerdict reads the reply {"passed": bool, "score"?: number,
// "reason"?: string}.
func webhookVerdict(reply []byte) Grade {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(reply, &m); err != nil || m == nil {
		return NotGradedf("webhook reply is not a JSON object: %s", kit.Quote(string(reply)))
	}
	if k := repeatedKey(reply, "passed", "score", "reason"); k != "" {
		// Parsers disagree on which copy counts; Go's keeps the last.
		return NotGradedf("webhook reply gives %q more than once", k)
	}
	var passed bool
	switch p := string(bytes.TrimSpace(m["passed"])); p {
	case "true":
		passed = true
	case "false":
	case "":
		return NotGraded("webhook reply has no \"passed\"")
	default:
		return NotGradedf("webhook reply's \"passed\" is %s, want true or false", kit.Quote(p))
	}
	reason := ""
	if r, ok := m["reason"]; ok && !isNull(r) {
		if json.Unmarshal(r, &reason) != nil {
			return NotGradedf("webhook reply's \"reason\" is %s, want a string", kit.JSONKind(r))
		}
		// A reply may be up to 1 MiB; the reason goes into every report.
		reason = kit.ClipRunes(reason, webhookMaxReason)
	}
	var g Grade
	if passed {
		g = Pass(reason)
	} else {
		if reason == "" {
			reason = "webhook: the output failed"
		}
		g = Fail(reason)
	}
	if sc, ok := m["score"]; ok && !isNull(sc) {
		var f float64
		if kit.JSONKind(sc) != "a number" || json.Unmarshal(sc, &f) != nil || f < 0 || f > 1 {
			return NotGradedf("webhook reply's \"score\" is %s, want a number in [0, 1]", kit.Quote(string(sc)))
		}
		g = g.WithScore(f)
	}
	return g
}

// repeatedKey returns the first of keys that the JSON object reply holds
// more than once at its top level, or "".
func repeatedKey(reply []byte, keys ...string) string {
	dec := json.NewDecoder(bytes.NewReader(reply))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return ""
		}
		k, _ := t.(string)
		if seen[k] {
			return k
		}
		if slices.Contains(keys, k) {
			seen[k] = true
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}

// webhookMAC is the hex HMAC-SHA256 of "<ts>.<body>".
func webhookMAC(key []byte, ts string, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// VerifyWebhookSignature checks a signed custom_webhook request, for Go
// receivers: header is the request's [WebhookSignatureHeader] value, body
// the exact request body, now the receiver's clock, and tolerance how far
// the signature's timestamp may be from now (0 means 5 minutes), which
// bounds replays. It returns nil when one of the header's v1 signatures is
// the HMAC-SHA256 with key of "<t>.<body>", and otherwise an error matching
// [ErrWebhookSignature].
//
// A receiver in another language does the same: split the header on ",",
// read t and each v1, compute hex(HMAC_SHA256(key, t + "." + body)),
// compare in constant time, and reject a t too far from its clock.
func VerifyWebhookSignature(key []byte, header string, body []byte, now time.Time, tolerance time.Duration) error {
	if tolerance <= 0 {
		tolerance = 5 * time.Minute
	}
	var ts string
	var sigs []string
	for part := range strings.SplitSeq(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	if ts == "" || len(sigs) == 0 {
		return fmt.Errorf("%w: header %q lacks t= or v1=", ErrWebhookSignature, header)
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: timestamp %q: %v", ErrWebhookSignature, ts, err)
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return fmt.Errorf("%w: timestamp %d is %v from now, over the %v tolerance", ErrWebhookSignature, sec, d.Round(time.Second), tolerance)
	}
	want := []byte(webhookMAC(key, ts, body))
	for _, s := range sigs {
		if hmac.Equal([]byte(s), want) {
			return nil
		}
	}
	return fmt.Errorf("%w: no v1 signature matches", ErrWebhookSignature)
}

// webhookSends are the sample fields the send option may name.
var webhookSends = []string{"id", "input", "expected"}

// customWebhookSpec builds a custom_webhook grader from its spec.
func customWebhookSpec(o *SpecOptions) (Grader, error) {
	rawURL := o.RequireString("url")
	ms := o.Int("timeout_ms", int(WebhookMaxTimeout/time.Millisecond))
	if ms < 1 || ms > int(WebhookMaxTimeout/time.Millisecond) {
		o.Errorf("timeout_ms", "want 1 to %d, got %d", WebhookMaxTimeout/time.Millisecond, ms)
	}
	var headers map[string]string
	o.Decode("headers", &headers)
	send := o.Strings("send")
	for _, f := range send {
		if !slices.Contains(webhookSends, f) {
			o.Errorf("send", "want fields among %s, got %q", strings.Join(webhookSends, ", "), f)
		}
	}
	cfg := o.config()
	key := cfg.webhookKey
	if env, ok := o.OptString("sign_secret_env"); ok {
		v, set := os.LookupEnv(env)
		if !set || v == "" {
			o.Errorf("sign_secret_env", "environment variable %q is not set", env)
		}
		key = []byte(v)
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	g, opt, err := newCustomWebhook(rawURL, WebhookOptions{
		Timeout:      time.Duration(ms) * time.Millisecond,
		Headers:      headers,
		SendID:       slices.Contains(send, "id"),
		SendInput:    slices.Contains(send, "input"),
		SendExpected: slices.Contains(send, "expected"),
		SigningKey:   key,
		Network:      cfg.network,
		Name:         o.Name(),
	})
	if err != nil {
		o.Wrap(opt, "invalid", err)
		return nil, o.Err()
	}
	return g, nil
}

// webhookSpecTypes documents the network family's spec type custom_webhook,
// for [Compiler.SpecTypes], with its builder.
func webhookSpecTypes() []SpecType {
	return []SpecType{
		{Name: "custom_webhook", Build: customWebhookSpec, Family: "network", Summary: "an HTTP service of yours decides",
			About: `POSTs {"candidate": output} and reads a JSON reply {"passed": bool, "score": number, "reason": string} of which passed is required. Redirects are refused, and so are private, loopback and other non-public addresses, checked when connecting. An unreachable service or a bad reply is not graded, with the reason.`,
			Options: []SpecOptionDoc{
				{"url", "string", "(required)", "Where to POST."},
				{"timeout_ms", "integer, 1 to 10000", "10000", "Bound on the whole call."},
				{"headers", "object of strings", "none", "Headers to add (not Host, Content-Length, Content-Type, Transfer-Encoding, Connection or the signature header)."},
				{"send", "string array", "none", "More of the sample to send: id, input, expected."},
				{"sign_secret_env", "string", "the configured key", "An environment variable holding a key; each request is signed with HMAC-SHA256 in the X-Proctor-Signature header (t=UNIX,v1=HEX)."},
			},
			Example: `{"type": "custom_webhook", "url": "https://grader.example.com/check", "send": ["input"]}`},
	}
}
