package reportio

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
)

func bigReport(n int) string {
	var b strings.Builder
	b.WriteString(`{"suite":"s","totals":{},"cases":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"c%d","verdict":"passed","attempts":[]}`, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestStream: every case comes, in order; an error from emit or decode
// stops it, is returned, and leaves no goroutine behind.
func TestStream(t *testing.T) {
	const n = 5000
	decode := func(raw json.RawMessage) (c proctor.CaseResult, err error) { return c, json.Unmarshal(raw, &c) }
	r, err := NewReader("r.json", strings.NewReader(bigReport(n)))
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	err = Stream(r, decode, func(c proctor.CaseResult) error {
		if c.ID != fmt.Sprintf("c%d", k) {
			return fmt.Errorf("case %d is %s", k, c.ID)
		}
		k++
		return nil
	})
	if err != nil || k != n {
		t.Fatalf("%d cases, %v", k, err)
	}
	if _, err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	boom := errors.New("boom")
	for _, at := range []int{0, 300, n - 1} {
		r, _ := NewReader("r.json", strings.NewReader(bigReport(n)))
		k := 0
		err := Stream(r, decode, func(proctor.CaseResult) error {
			if k == at {
				return boom
			}
			k++
			return nil
		})
		if !errors.Is(err, boom) || k != at {
			t.Errorf("emit error at %d: %v after %d", at, err, k)
		}
		r, _ = NewReader("r.json", strings.NewReader(bigReport(n)))
		err = Stream(r, func(raw json.RawMessage) (proctor.CaseResult, error) {
			if strings.Contains(string(raw), fmt.Sprintf(`"c%d"`, at)) {
				return proctor.CaseResult{}, boom
			}
			return decode(raw)
		}, func(proctor.CaseResult) error { return nil })
		if !errors.Is(err, boom) {
			t.Errorf("decode error at %d: %v", at, err)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Errorf("%d goroutines after, %d before", g, before)
	}
}
