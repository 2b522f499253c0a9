package proctor

import "github.com/proctorhq/proctor/internal/kit"

// unmarshalEnum sets *dst to the value, among the n values of its type,
// whose String is b, or returns an error naming what (the enum) and the
// words it accepts, leaving *dst unchanged.
func unmarshalEnum[T kit.TextEnum](dst *T, b []byte, n int, what string) error {
	return kit.UnmarshalEnum(dst, b, n, "proctor: ", what)
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
