package bench_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/proctorhq/proctor"
)

const benchVerdict = `{"criterion":"c","violations":"none","basis":"answer","verdict":"pass","confidence":"high"}`

// BenchmarkJudgeThroughput grades N cases with one judge that takes L per
// call, at concurrency C, and reports the wall time of a run against the
// ideal N·L/C ("x-ideal"; 1.00 is the ideal). The judge is an in-process
// function that sleeps L, or a loopback HTTP endpoint that does.
//
//	go test -run '^$' -bench JudgeThroughput -benchtime 3x ./bench
//
// The "judge-cap=4" case caps the judge at 4 calls in flight, as every
// judge was before its concurrency followed the run's.
func BenchmarkJudgeThroughput(b *testing.B) {
	const n, conc = 400, 50
	lat := 20 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		time.Sleep(lat)
		io.WriteString(w, benchVerdict)
	}))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc}}
	judges := map[string]proctor.Judge{
		"func": func(ctx context.Context, prompt string) (string, error) {
			t := time.NewTimer(latencyOf(prompt))
			defer t.Stop()
			select {
			case <-ctx.Done():
				return "", ctx.Err()
			case <-t.C:
			}
			return benchVerdict, nil
		},
		"http": func(ctx context.Context, prompt string) (string, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(prompt))
			if err != nil {
				return "", err
			}
			resp, err := client.Do(req)
			if err != nil {
				return "", err
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			return string(body), err
		},
	}
	for _, bc := range []struct {
		name string
		cap  int
		lat  time.Duration
	}{{"func", 0, lat}, {"http", 0, lat}, {"func", 4, lat}, {"func", 0, 100 * time.Millisecond}} {
		name, lat := bc.name, bc.lat
		label := fmt.Sprintf("%s/N=%d/L=%v/C=%d", name, n, lat, conc)
		if bc.cap > 0 {
			label += fmt.Sprintf("/judge-cap=%d", bc.cap)
		}
		b.Run(label, func(b *testing.B) {
			cases := make([]proctor.Case, n)
			for i := range cases {
				cases[i] = proctor.Case{ID: strconv.Itoa(i), Sample: proctor.Sample{Input: "latency " + lat.String() + " ;", Output: "answer " + strconv.Itoa(i)}}
			}
			check := proctor.Check{Grader: must(proctor.NewLLMJudge("r", proctor.JudgeOptions{}))}
			var total time.Duration
			for b.Loop() {
				// A new pool each run: no reply is cached.
				pool := proctor.NewJudgePool(proctor.JudgeModel{Name: "j", Family: "f", Call: judges[name], Concurrency: bc.cap})
				r := proctor.NewRunner(pool, proctor.WithConcurrency(conc), proctor.WithChecks(check))
				t0 := time.Now()
				rep, err := r.Run(context.Background(), cases)
				total += time.Since(t0)
				if err != nil || rep.Totals.Passed != n {
					b.Fatalf("%+v, %v", rep.Totals, err)
				}
			}
			ideal := time.Duration(n) * lat / conc
			b.ReportMetric(float64(total)/float64(b.N)/float64(ideal), "x-ideal")
			b.ReportMetric(float64(ideal.Milliseconds()), "ideal-ms")
		})
	}
}

// latencyOf reads the latency a benchmark case asks of the in-process
// judge from its prompt ("latency 20ms ;").
func latencyOf(prompt string) time.Duration {
	i := strings.Index(prompt, "latency ")
	if i < 0 {
		return 0
	}
	f := strings.Fields(prompt[i+len("latency "):])
	if len(f) == 0 {
		return 0
	}
	d, _ := time.ParseDuration(f[0])
	return d
}
