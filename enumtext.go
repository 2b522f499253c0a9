package proctor

import (
	"fmt"
	"strings"
)

// textEnum is one of this package's enums: a small integer whose String
// returns the spec vocabulary's word for each of its values, numbered from zero.
type textEnum interface {
	~uint8
	String() string
}

// unmarshalEnum sets *dst to the value, among the n values of its type,
// whose String is b, or returns an error naming what (the enum) and the
// words it accepts, leaving *dst unchanged.
func unmarshalEnum[T textEnum](dst *T, b []byte, n int, what string) error {
	words := make([]string, n)
	for i := range n {
		v := T(i)
		if v.String() == string(b) {
			*dst = v
			return nil
		}
		words[i] = v.String()
	}
	return fmt.Errorf("proctor: unknown %s %q (want %s)", what, b, strings.Join(words, ", "))
}

// MarshalText encodes k as [Kind.String] does.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes "deterministic", "network" or "model".
func (k *Kind) UnmarshalText(b []byte) error {
	return unmarshalEnum(k, b, int(KindModel)+1, "grader kind")
}

// MarshalText encodes m as [ContainsMode.String] does.
func (m ContainsMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes "all" or "any".
func (m *ContainsMode) UnmarshalText(b []byte) error {
	return unmarshalEnum(m, b, int(ContainsAny)+1, "mode")
}

// MarshalText encodes m as [MatchMode.String] does.
func (m MatchMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes "default", "full" or "search".
func (m *MatchMode) UnmarshalText(b []byte) error {
	return unmarshalEnum(m, b, int(MatchSearch)+1, "match")
}

// MarshalText encodes m as [ContextMeasure.String] does.
func (m ContextMeasure) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes "f1", "precision" or "recall".
func (m *ContextMeasure) UnmarshalText(b []byte) error {
	return unmarshalEnum(m, b, len(contextMeasureNames), "measure")
}

// MarshalText encodes m as [RougeMeasure.String] does.
func (m RougeMeasure) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes "fmeasure", "precision" or "recall".
func (m *RougeMeasure) UnmarshalText(b []byte) error {
	return unmarshalEnum(m, b, int(RougeRecall)+1, "measure")
}

// MarshalText encodes f as [TokenField.String] does.
func (f TokenField) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText decodes "output_tokens", "input_tokens" or "total_tokens".
func (f *TokenField) UnmarshalText(b []byte) error {
	return unmarshalEnum(f, b, len(tokenFieldNames), "token field")
}

// MarshalText encodes m as [JudgeCacheMode.String] does.
func (m JudgeCacheMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes "read_write", "replay" or "record".
func (m *JudgeCacheMode) UnmarshalText(b []byte) error {
	return unmarshalEnum(m, b, len(judgeCacheModeNames), "judge cache mode")
}
