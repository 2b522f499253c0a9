package reportfmt_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/reportfmt"
)

// A run's JSON report is written as its cases are graded: NewJSON, Add for
// each case, Finish with the Summary that counted them. A shard's report
// records its shard and the suite's digest through JSONOptions.
func ExampleNewJSON() {
	var out bytes.Buffer
	j := reportfmt.NewJSON(&out, "demo", reportfmt.JSONOptions{
		Shard:       &proctor.ReportShard{I: 1, N: 2, Positions: []int{0}},
		SuiteDigest: "sha256:0123",
	})
	sum := reportfmt.NewSummary("demo")
	c := proctor.CaseResult{ID: "ok", Verdict: proctor.StatusPassed}
	sum.Add(c)
	if err := j.Add(c); err != nil {
		fmt.Println(err)
		return
	}
	if err := j.Finish(sum); err != nil {
		fmt.Println(err)
		return
	}
	head, _, _ := strings.Cut(out.String(), `"cases"`)
	fmt.Println(head)
	// Output: {"suite":"demo","shard":{"i":1,"n":2,"positions":[0]},"suite_digest":"sha256:0123",
}

// A JUnit report keeps its testcases in memory until Finish writes the
// counts before them; JUnitOptions.Scratch takes a temporary file instead
// for a run too large for memory.
func ExampleNewJUnit() {
	j := reportfmt.NewJUnit(os.Stdout, "demo", reportfmt.JUnitOptions{})
	sum := reportfmt.NewSummary("demo")
	c := proctor.CaseResult{ID: "ok", Verdict: proctor.StatusPassed, Attempts: []proctor.AttemptResult{{Verdict: proctor.StatusPassed}}}
	sum.Add(c)
	if err := j.Add(c); err != nil {
		fmt.Println(err)
		return
	}
	if err := j.Finish(sum); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <testsuites name="proctor" tests="1" failures="0" errors="0" skipped="0">
	//   <testsuite name="demo" tests="1" failures="0" errors="0" skipped="0">
	//     <properties>
	//       <property name="passed" value="1"></property>
	//       <property name="failed" value="0"></property>
	//       <property name="flaky" value="0"></property>
	//       <property name="not_graded" value="0"></property>
	//       <property name="pass_rate" value="1.0000"></property>
	//       <property name="pass_rate_denominator" value="1"></property>
	//       <property name="pass_rate_95ci" value="0.2065-1.0000"></property>
	//     </properties>
	//     <testcase name="ok" classname="demo">
	//       <system-out>passed: 1 of 1 attempts passed
	// attempt 1: passed
	// </system-out>
	//     </testcase>
	//   </testsuite>
	// </testsuites>
}

// A summary format is written whole from a Summary.
func ExampleWriteMarkdown() {
	r := proctor.NewReport("demo")
	r.Add(proctor.CaseResult{ID: "ok", Verdict: proctor.StatusPassed, Attempts: []proctor.AttemptResult{{Verdict: proctor.StatusPassed}}})
	var md bytes.Buffer
	if err := reportfmt.WriteMarkdown(&md, reportfmt.Summarize(r), reportfmt.MarkdownOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Contains(md.String(), "| 1 | 0 | 0 | 0 |"))
	// Output: true
}
