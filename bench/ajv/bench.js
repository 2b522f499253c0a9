// Ajv on the benchmark workload's json_schema sample sets: JSON.parse and
// a validator compiled once, the way a JavaScript evaluation tool would
// check a model's output. Prints ns/grade and pass rate per sample set,
// one line each, in the format run.sh reads:
//
//   ajv <check> <ns/grade> <pass-rate>
//
// Usage: node bench.js WORKLOAD.jsonl CHECKS.json [grades] [rounds]
'use strict';
const fs = require('fs');
const Ajv2020 = require('ajv/dist/2020');

const [workloadPath, checksPath] = process.argv.slice(2, 4);
const grades = Number(process.argv[4] || 20000);
const rounds = Number(process.argv[5] || 3);
if (!workloadPath || !checksPath) {
  console.error('usage: node bench.js WORKLOAD.jsonl CHECKS.json [grades] [rounds]');
  process.exit(2);
}

const checks = JSON.parse(fs.readFileSync(checksPath, 'utf8'));
const samples = fs.readFileSync(workloadPath, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

// The JSON of an output: the body of a ```json fence, else the text from
// the first "{" to the last "}", else the output.
function extract(s) {
  const f = /```(?:json)?[ \t]*\r?\n([\s\S]*?)```/.exec(s);
  if (f) return f[1];
  const i = s.indexOf('{');
  const j = s.lastIndexOf('}');
  return i >= 0 && j > i ? s.slice(i, j + 1) : s;
}

// The schema has no "$schema": JSON Schema 2020-12, as proctor defaults to.
const ajv = new Ajv2020({ allErrors: false, strict: false });
const validate = ajv.compile(checks.schema);

function sampleSet(name) {
  const sel = checks.checks[name].sample_set;
  let set = samples.filter((s) => !sel.kinds || sel.kinds.includes(s.kind));
  if (sel.limit) set = set.slice(0, sel.limit);
  return set.map((s) => s.output);
}

function run(outputs, grade) {
  let passed = 0;
  const n = outputs.length;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < grades; i++) {
    if (grade(outputs[i % n])) passed++;
  }
  const ns = Number(process.hrtime.bigint() - t0) / grades;
  return { ns, rate: passed / grades };
}

const graders = {
  json_schema: (s) => {
    let v;
    try { v = JSON.parse(s); } catch { return false; }
    return validate(v);
  },
  json_schema_extract: (s) => {
    let v;
    try { v = JSON.parse(extract(s)); } catch { return false; }
    return validate(v);
  },
};

for (const name of Object.keys(graders)) {
  const outputs = sampleSet(name);
  run(outputs, graders[name]); // warm-up: let V8 optimise
  const res = [];
  for (let r = 0; r < rounds; r++) res.push(run(outputs, graders[name]));
  res.sort((a, b) => a.ns - b.ns);
  const med = res[Math.floor(res.length / 2)];
  console.log(`ajv ${name} ${med.ns.toFixed(0)} ${med.rate.toFixed(4)}`);
}
