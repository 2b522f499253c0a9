// Package bench holds proctor's benchmarks on fixed data: the benchmark
// workload (internal/workload, 20,000 samples from a fixed seed) and
// about 1 KB of prose per grade, each grader beside the bare Go primitive
// doing the same check in the same run, so the ratio is the measure. It
// exports nothing; BENCHMARKS.md has the commands and the figures, for
// example
//
//	go test -run '^$' -bench 'Workload' -benchmem -benchtime=20000x ./bench
//
// Its tests pin the allocation promises those benchmarks show. ajv/ holds
// the Node driver that measures ajv on the same workload.
//
// Benchmarks that need a grader's unexported parts (the json_schema fast
// path switched off, for one) stay beside the grader in the root package.
package bench
