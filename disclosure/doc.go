// Package disclosure grades what an output must not disclose: personal
// data ([NewNoPII]), credentials ([NewNoSecrets]) and named entities
// ([NewForbidden]). Reasons name the kind and where it is, never the whole
// value.
//
// The package is one of proctor's families built on the root package's
// public API. Its spec types (no_pii, no_secrets, forbidden) reach a
// [proctor.Compiler] through [Types], or with every other family through
// builtin.Types.
package disclosure
