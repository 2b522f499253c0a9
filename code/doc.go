// Package code grades outputs that are code: Python that compiles
// ([NewPythonCompiles], with the python3 on PATH) and Go that parses
// ([NewGoCompiles]). A Markdown code fence around the code, and prose
// outside it, is removed first.
//
// The package is one of proctor's families built on the root package's
// public API. Its spec types (python_compiles, go_compiles) reach a
// [proctor.Compiler] through [Types], or with every other family through
// builtin.Types.
package code
