package main

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// newTracerProvider returns the SDK's tracer provider, batching spans to
// the SDK's OTLP/HTTP exporter. endpoint is the traces URL
// (http://127.0.0.1:4318/v1/traces); "" leaves it to the exporter, which
// reads OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT.
// Shut the provider down to send what is still batched.
func newTracerProvider(ctx context.Context, endpoint string) (*sdktrace.TracerProvider, error) {
	var opts []otlptracehttp.Option
	if endpoint != "" {
		opts = append(opts, otlptracehttp.WithEndpointURL(endpoint))
	}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("OTLP/HTTP exporter: %w", err)
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(attribute.String("service.name", "tracedagent")))
	if err != nil {
		return nil, fmt.Errorf("resource: %w", err)
	}
	return sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res)), nil
}
