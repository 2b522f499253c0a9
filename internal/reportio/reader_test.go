package reportio

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

// readAll reads every case of data with a Reader.
func readAll(data string) (head, tail *proctor.Report, cases []proctor.CaseResult, err error) {
	r, err := NewReader("r.json", strings.NewReader(data))
	if err != nil {
		return nil, nil, nil, err
	}
	if head, err = r.Head(); err != nil {
		return nil, nil, nil, err
	}
	for {
		var c proctor.CaseResult
		ok, err := r.Next(&c)
		if err != nil {
			return nil, nil, nil, err
		}
		if !ok {
			break
		}
		cases = append(cases, c)
	}
	tail, err = r.Finish()
	return head, tail, cases, err
}

func TestReader(t *testing.T) {
	const rep = `{"suite":"s","shard":{"i":2,"n":3,"positions":[1,4]},"suite_digest":"sha256:x","cases":[
{"id":"a","verdict":"passed","attempts":[]},{"id":"b","verdict":"failed","attempts":[]}],
"totals":{"passed":1,"failed":1,"flaky":0,"not_graded":0},"judges":[{"name":"j","calls":2}],"caveats":["c"]}`
	head, tail, cases, err := readAll(rep)
	if err != nil {
		t.Fatal(err)
	}
	if head.Suite != "s" || head.Shard == nil || head.Shard.I != 2 || head.SuiteDigest != "sha256:x" || head.Totals.Cases() != 0 {
		t.Errorf("head %+v", head)
	}
	if len(cases) != 2 || cases[1].ID != "b" || cases[1].Verdict != proctor.StatusFailed {
		t.Errorf("cases %+v", cases)
	}
	if tail.Totals.Failed != 1 || len(tail.Judges) != 1 || tail.Caveats[0] != "c" || len(tail.Cases) != 0 {
		t.Errorf("tail %+v", tail)
	}
	var whole proctor.Report
	if err := json.Unmarshal([]byte(rep), &whole); err != nil {
		t.Fatal(err)
	}
	whole.Cases = []proctor.CaseResult{}
	tb, _ := json.Marshal(tail)
	wb, _ := json.Marshal(&whole)
	if string(tb) != string(wb) {
		t.Errorf("tail %s\nwant %s", tb, wb)
	}
}

func TestReaderRefuses(t *testing.T) {
	for in, want := range map[string]string{
		``:                                     "ends too soon",
		`[]`:                                   "want an object, got a list",
		`"x"`:                                  "want an object, got a string",
		`{}`:                                   `it has no "suite", "totals", "cases"`,
		`{"suite":"s","cases":[]}`:             `it has no "totals"`,
		`{"suite":"s","totals":{},"cases":{}}`: `"cases" is not a list`,
		`{"suite":"s","totals":{},"cases":[{"id":1}]}`:           `field "cases.id": want a string, got a number`,
		`{"suite":"s","totals":{},"cases":[],"cases":[]}`:        `"cases" twice`,
		`{"suite":"s","totals":{},"cases":[{"id":"a"}`:           "ends too soon",
		`{"suite":"s","totals":{},"cases":[]} {}`:                "text after",
		`{"suite":"s","totals":{},"cases":[{"verdict":"nope"}]}`: "nope",
	} {
		_, _, _, err := readAll(in)
		if !errors.Is(err, ErrNotReport) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "r.json") {
			t.Errorf("%q: error %v, want one naming r.json with %q", in, err, want)
		}
	}
}

// FuzzReader: whatever the bytes, the reader returns cases or an error,
// never panics; what it accepts, encoding/json reads as a report with the
// same cases.
func FuzzReader(f *testing.F) {
	f.Add(`{"suite":"s","cases":[{"id":"a","verdict":"passed"}],"totals":{}}`)
	f.Add(`{"suite":"s","totals":{},"cases":null}`)
	f.Add(`{"cases":[],"suite":"s","totals":{"passed":1}}`)
	f.Add(`[1,2]`)
	f.Fuzz(func(t *testing.T, data string) {
		_, tail, cases, err := readAll(data)
		if err != nil {
			return
		}
		var whole proctor.Report
		if err := json.Unmarshal([]byte(data), &whole); err != nil {
			return // duplicate keys and such: the stream reader is stricter or looser
		}
		if len(whole.Cases) != len(cases) || whole.Suite != tail.Suite {
			t.Fatalf("stream read %d cases of suite %q, encoding/json %d of %q", len(cases), tail.Suite, len(whole.Cases), whole.Suite)
		}
	})
}
