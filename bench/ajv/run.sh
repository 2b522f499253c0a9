#!/usr/bin/env bash
# Runs proctor's json_schema grader (Go benchmark) and Ajv (bench.js) on
# the same workload sample sets in one go and prints ns/grade, the ratio
# proctor/Ajv per set (below 1: proctor is cheaper) and each side's pass
# rate (equal rates show both graded the same check). Medians of ROUNDS
# runs of GRADES grades each; the two sides alternate, so a busy machine
# slows both alike. The whole-output set runs json_schema with strict
# (the whole output must be the JSON, as JSON.parse wants it); the
# extracted set runs the default, which looks into fences and prose.
#
#   bash bench/ajv/run.sh            # from the repository root
#   GRADES=20000 ROUNDS=5 bash bench/ajv/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
GRADES=${GRADES:-20000}
ROUNDS=${ROUNDS:-3}
[ -d bench/ajv/node_modules/ajv ] || (cd bench/ajv && npm ci --no-audit --no-fund >/dev/null)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go run ./internal/workload/gen -out "$work/workload.jsonl"
go test -c -o "$work/proctor.test" ./bench >/dev/null

for _ in $(seq "$ROUNDS"); do
	"$work/proctor.test" -test.run '^$' -test.bench 'WorkloadJSONSchema(Extract)?$/proctor$' \
		-test.benchtime="${GRADES}x" -test.benchmem |
		awk '/^BenchmarkWorkloadJSONSchema\/proctor/ {print "proctor json_schema", $3, $7}
		     /^BenchmarkWorkloadJSONSchemaExtract\/proctor/ {print "proctor json_schema_extract", $3, $7}' >>"$work/go.txt"
	node bench/ajv/bench.js "$work/workload.jsonl" internal/workload/checks.json "$GRADES" 1 >>"$work/ajv.txt"
done

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-22s %14s %14s %8s %14s %14s\n' set proctor-ns/grade ajv-ns/grade ratio proctor-passed ajv-passed
for set in json_schema json_schema_extract; do
	p=$(awk -v s="$set" '$2==s {print $3}' "$work/go.txt" | median)
	a=$(awk -v s="$set" '$2==s {print $3}' "$work/ajv.txt" | median)
	pr=$(awk -v s="$set" '$2==s {print $4; exit}' "$work/go.txt")
	ar=$(awk -v s="$set" '$2==s {print $4; exit}' "$work/ajv.txt")
	printf '%-22s %14s %14s %8s %14s %14s\n' "$set" "$p" "$a" "$(awk -v p="$p" -v a="$a" 'BEGIN {printf "%.2f", p/a}')" "$pr" "$ar"
done
