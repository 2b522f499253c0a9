package config

import (
	"context"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/redact"
)

// scrubbedEmbedder passes an embedder's errors, whose text may quote what
// the endpoint sent back (an echoed key, say), through the endpoint
// redactor with the file's secrets, as judges' replies and errors are.
type scrubbedEmbedder struct {
	inner   proctor.EmbeddingProvider
	batch   int
	secrets []string
}

// Embed embeds texts with the inner embedder, scrubbing its error.
func (e scrubbedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	v, err := e.inner.Embed(ctx, texts)
	return v, redact.EndpointError(err, e.secrets)
}

// MaxBatch is the inner embedder's batch size, 0 when it has none.
func (e scrubbedEmbedder) MaxBatch() int { return e.batch }

// scrubEmbedder wraps emb so that its errors hold none of secrets.
func scrubEmbedder(emb proctor.EmbeddingProvider, secrets []string) proctor.EmbeddingProvider {
	s := scrubbedEmbedder{inner: emb, secrets: secrets}
	if b, ok := emb.(proctor.BatchEmbedder); ok {
		s.batch = b.MaxBatch()
	}
	return s
}
