package proctor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"time"

	"github.com/proctorhq/proctor"
)

// A grading service on 127.0.0.1, reached through the allow-list: loopback
// and private addresses are refused otherwise.
func ExampleNewCustomWebhook() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Candidate string }
		json.NewDecoder(r.Body).Decode(&req)
		passed := len(req.Candidate) < 20
		json.NewEncoder(w).Encode(map[string]any{"passed": passed, "score": 0.5, "reason": "length checked"})
	}))
	defer srv.Close()

	g, err := proctor.NewCustomWebhook(srv.URL, proctor.WebhookOptions{
		Timeout: 2 * time.Second,
		Network: proctor.Network{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	grade := g.Grade(context.Background(), &proctor.Sample{Output: "short answer"})
	fmt.Println(grade.Status, grade.Score, grade.Reason)

	_, err = proctor.NewCustomWebhook(srv.URL, proctor.WebhookOptions{})
	fmt.Println(err != nil)
	// Output:
	// passed 0.5 length checked
	// true
}

// A receiver checks the signature over the exact body it read. The clocks
// are fixed here; a real receiver passes time.Now().
func ExampleVerifyWebhookSignature() {
	key := []byte("shared-secret")
	sent := func() time.Time { return time.Unix(1_800_000_000, 0) }
	received := time.Unix(1_800_000_002, 0)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := proctor.VerifyWebhookSignature(key, r.Header.Get(proctor.WebhookSignatureHeader), body, received, 5*time.Minute); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, `{"passed": true}`)
	}))
	defer srv.Close()

	loopback := proctor.Network{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	signed, err := proctor.NewCustomWebhook(srv.URL, proctor.WebhookOptions{SigningKey: key, Now: sent, Network: loopback})
	if err != nil {
		panic(err)
	}
	unsigned, err := proctor.NewCustomWebhook(srv.URL, proctor.WebhookOptions{Network: loopback})
	if err != nil {
		panic(err)
	}
	fmt.Println(signed.Grade(context.Background(), &proctor.Sample{Output: "x"}).Status)
	fmt.Println(unsigned.Grade(context.Background(), &proctor.Sample{Output: "x"}).Reason)
	// Output:
	// passed
	// webhook answered HTTP 401, want 2xx
}
