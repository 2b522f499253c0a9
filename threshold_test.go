package proctor

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"
)

func TestMeasurementThresholds(t *testing.T) {
	lat := func(max time.Duration) Grader {
		g, err := NewLatencyThreshold(max, LatencyThresholdOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	tok := func(max int, f TokenField) Grader {
		g, err := NewTokenThreshold(max, TokenThresholdOptions{Field: f})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	cost, err := NewCostThreshold(0.01, CostThresholdOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		g      Grader
		m      Metrics
		want   Status
		reason string // substring of the reason
	}{
		{"latency under", lat(500 * time.Millisecond), Metrics{LatencyMS: Ptr(120.0)}, StatusPassed, ""},
		{"latency equal", lat(500 * time.Millisecond), Metrics{LatencyMS: Ptr(500.0)}, StatusPassed, ""},
		{"latency over", lat(500 * time.Millisecond), Metrics{LatencyMS: Ptr(500.5)}, StatusFailed, "latency_ms"},
		{"latency absent", lat(time.Second), Metrics{}, StatusNotGraded, "latency_ms was not measured"},
		{"latency negative", lat(time.Second), Metrics{LatencyMS: Ptr(-1.0)}, StatusNotGraded, "negative"},
		{"latency NaN", lat(time.Second), Metrics{LatencyMS: Ptr(math.NaN())}, StatusNotGraded, "NaN"},
		{"latency inf", lat(time.Second), Metrics{LatencyMS: Ptr(math.Inf(1))}, StatusNotGraded, "+Inf"},
		{"latency zero is a measurement", lat(time.Second), Metrics{LatencyMS: Ptr(0.0)}, StatusPassed, ""},
		{"tokens default output", tok(100, TokenOutput), Metrics{InputTokens: Ptr(5.0)}, StatusNotGraded, "output_tokens"},
		{"tokens output", tok(100, TokenOutput), Metrics{OutputTokens: Ptr(101.0)}, StatusFailed, "output_tokens"},
		{"tokens total", tok(100, TokenTotal), Metrics{TotalTokens: Ptr(99.0)}, StatusPassed, ""},
		{"tokens input", tok(10, TokenInput), Metrics{InputTokens: Ptr(11.0), OutputTokens: Ptr(1.0)}, StatusFailed, "input_tokens"},
		{"cost over", cost, Metrics{CostUSD: Ptr(0.02)}, StatusFailed, "cost_usd"},
		{"cost under", cost, Metrics{CostUSD: Ptr(0.001)}, StatusPassed, ""},
		{"cost absent", cost, Metrics{}, StatusNotGraded, "cost_usd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.g.Grade(context.Background(), &Sample{Metrics: tt.m})
			if got.Status != tt.want || !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("got %v (%q), want %v with %q", got.Status, got.Reason, tt.want, tt.reason)
			}
		})
	}
	if _, err := NewLatencyThreshold(-time.Millisecond, LatencyThresholdOptions{}); err == nil {
		t.Errorf("negative latency limit: got no error")
	}
	if _, err := NewTokenThreshold(-1, TokenThresholdOptions{}); err == nil {
		t.Errorf("negative token limit: got no error")
	}
	if _, err := NewCostThreshold(math.NaN(), CostThresholdOptions{}); err == nil {
		t.Errorf("NaN cost limit: got no error")
	}
}

func TestHTTPStatus(t *testing.T) {
	g, err := NewHTTPStatus([]int{200, 201}, HTTPStatusOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		status int
		want   Status
	}{{201, StatusPassed}, {200, StatusPassed}, {404, StatusFailed}, {0, StatusNotGraded}, {42, StatusNotGraded}, {-1, StatusNotGraded}}
	for _, tt := range tests {
		if got := g.Grade(context.Background(), &Sample{HTTPStatus: tt.status}); got.Status != tt.want {
			t.Errorf("status %d: got %v (%s), want %v", tt.status, got.Status, got.Reason, tt.want)
		}
	}
	for _, bad := range [][]int{nil, {99}, {600}} {
		if _, err := NewHTTPStatus(bad, HTTPStatusOptions{}); err == nil {
			t.Errorf("NewHTTPStatus(%v): got no error", bad)
		}
	}
}
