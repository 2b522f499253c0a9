// Package reportio reads a proctor JSON report (docs/formats.md) one case
// at a time, so the report tools work on reports of any size in flat
// memory: the fields around the cases are kept, each case is decoded when
// asked for and then let go.
package reportio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/proctorhq/proctor/internal/readfile"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/jsonerr"
)

// ErrNotReport is wrapped by the errors for a file that is not a proctor
// JSON report.
var ErrNotReport = errors.New("not a proctor JSON report (proctor run --out writes one)")

// Reader reads one JSON report: [Open] reads the fields before the cases,
// [Reader.Next] each case, [Reader.Finish] the fields after them.
type Reader struct {
	name   string
	f      *os.File
	sc     *scanner
	fields map[string]json.RawMessage // the report's fields but cases
	inCase bool                       // inside the cases list
	first  bool                       // no case of the list read yet
	done   bool                       // the cases list has ended
}

// Open opens the report at path and reads up to its first case.
func Open(path string) (*Reader, error) {
	f, err := readfile.Open(path) // a FIFO or a device is refused, never waited on

	if err != nil {
		return nil, err
	}
	r, err := NewReader(path, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.f = f
	return r, nil
}

// NewReader reads a report from rd, named name in errors, up to its first
// case. Close does not close rd.
func NewReader(name string, rd io.Reader) (*Reader, error) {
	r := &Reader{name: name, sc: newScanner(rd), fields: map[string]json.RawMessage{}}
	c, err := r.sc.peek()
	if err != nil {
		return nil, r.notReport(err)
	}
	if c != '{' {
		return nil, r.notReport(r.notObject(c))
	}
	r.sc.pos++
	if err := r.fieldsUntilCases(true); err != nil {
		return nil, err
	}
	if r.done {
		// No cases list, or one before the other fields: check now.
		if err := r.required(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// notObject is the error for a report that starts with c, not an object.
func (r *Reader) notObject(c byte) error {
	if c == '[' {
		return errors.New("want an object, got a list")
	}
	if _, err := r.sc.value(); err != nil {
		return err
	}
	word := "a number"
	switch c {
	case '"':
		word = "a string"
	case 't', 'f':
		word = "a boolean"
	case 'n':
		word = "null"
	}
	return fmt.Errorf("want an object, got %s", word)
}

// required refuses a report without its suite, totals or cases.
func (r *Reader) required() error {
	var missing []string
	for _, k := range []string{"suite", "totals", "cases"} {
		if v, ok := r.fields[k]; !ok || bytes.Equal(v, []byte("null")) {
			missing = append(missing, strconv.Quote(k))
		}
	}
	if len(missing) > 0 {
		return r.notReport(fmt.Errorf("it has no %s", strings.Join(missing, ", ")))
	}
	return nil
}

// Has reports whether the report's field k has been read (before the
// cases, or anywhere once they are read).
func (r *Reader) Has(k string) bool {
	_, ok := r.fields[k]
	return ok
}

// Raw returns the JSON of the report's field k, read so far, that
// [proctor.Report] does not hold (what the run's summary recorded beside
// it: groups, clustered_se, judge_corrected, splits), and whether there
// is one.
func (r *Reader) Raw(k string) (json.RawMessage, bool) {
	v, ok := r.fields[k]
	return v, ok
}

// caseError words an error decoding a case as the other report readers
// do: a wrong type is named by its field under "cases".
func (r *Reader) caseError(data []byte, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		te.Field = "cases." + te.Field
		return r.notReport(jsonerr.User(nil, te))
	}
	return r.notReport(fmt.Errorf("a case: %w", jsonerr.User(data, err)))
}

// Decode decodes one case's JSON, as [Reader.Next] gave it, into v, with
// errors worded as Next words them.
func (r *Reader) Decode(raw json.RawMessage, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return r.caseError(nil, err)
	}
	return nil
}

func (r *Reader) notReport(why error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	if errors.As(why, &se) || errors.As(why, &te) || errors.Is(why, io.ErrUnexpectedEOF) || errors.Is(why, io.EOF) {
		why = jsonerr.User(nil, why)
	}
	return fmt.Errorf("%s is %w: %w", r.name, ErrNotReport, why)
}

// fieldsUntilCases reads object members into r.fields until the cases
// list opens (r.inCase) or the object ends (r.done); first is whether no
// member has been read.
func (r *Reader) fieldsUntilCases(first bool) error {
	for {
		c, err := r.sc.peek()
		if err != nil {
			return r.notReport(endError(err))
		}
		switch {
		case c == '}':
			r.sc.pos++
			r.done = true
			return nil
		case first:
		case c == ',':
			r.sc.pos++
			if c, err = r.sc.peek(); err != nil {
				return r.notReport(endError(err))
			}
		default:
			return r.notReport(badChar(c, "after object key:value pair"))
		}
		first = false
		key, err := r.key(c)
		if err != nil {
			return r.notReport(err)
		}
		if key == "cases" {
			if _, seen := r.fields["cases"]; seen {
				return r.notReport(errors.New(`it has "cases" twice`))
			}
			r.fields["cases"] = json.RawMessage("[]")
			if c, err := r.sc.peek(); err != nil {
				return r.notReport(endError(err))
			} else if c == '[' {
				r.sc.pos++
				r.inCase, r.first = true, true
				return nil
			}
			v, err := r.sc.value()
			if err != nil {
				return r.notReport(err)
			}
			if string(v) != "null" {
				return r.notReport(errors.New(`its "cases" is not a list`))
			}
			r.fields["cases"] = json.RawMessage("null")
			continue
		}
		v, err := r.sc.value()
		if err != nil {
			return r.notReport(err)
		}
		r.fields[key] = append(json.RawMessage(nil), v...)
	}
}

// key reads an object key and its colon; c is its first byte.
func (r *Reader) key(c byte) (string, error) {
	if c != '"' {
		return "", badChar(c, "looking for beginning of object key string")
	}
	k, err := r.sc.value()
	if err != nil {
		return "", err
	}
	key, err := unquote(k)
	if err != nil {
		return "", err
	}
	if c, err = r.sc.peek(); err != nil {
		return "", endError(err)
	}
	if c != ':' {
		return "", badChar(c, "after object key")
	}
	r.sc.pos++
	return key, nil
}

// Head returns the report's fields read so far (before the cases, or all
// of them once the cases are read) as a Report without cases.
func (r *Reader) Head() (*proctor.Report, error) {
	obj, err := json.Marshal(r.fields)
	if err != nil {
		return nil, err
	}
	var rep proctor.Report
	if err := json.Unmarshal(obj, &rep); err != nil {
		return nil, r.notReport(jsonerr.User(obj, err))
	}
	return &rep, nil
}

// Next decodes the next case into v (a *proctor.CaseResult, or a struct
// of the few fields a caller needs) and reports whether there was one.
func (r *Reader) Next(v any) (bool, error) {
	raw, ok, err := r.NextRaw()
	if err != nil || !ok {
		return false, err
	}
	if rm, isRaw := v.(*json.RawMessage); isRaw {
		*rm = append((*rm)[:0:0], raw...)
		return true, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, r.caseError(nil, err)
	}
	return true, nil
}

// NextRaw returns the next case's JSON, its syntax checked, and whether
// there was one. The bytes are the Reader's: good until its next read.
func (r *Reader) NextRaw() (json.RawMessage, bool, error) {
	if !r.inCase {
		return nil, false, nil
	}
	c, err := r.sc.peek()
	if err != nil {
		return nil, false, r.notReport(endError(err))
	}
	switch {
	case c == ']':
		r.sc.pos++
		r.inCase = false
		return nil, false, r.fieldsUntilCases(false)
	case r.first:
	case c == ',':
		r.sc.pos++
	default:
		return nil, false, r.notReport(badChar(c, "after array element"))
	}
	r.first = false
	raw, err := r.sc.value()
	if err != nil {
		return nil, false, r.caseError(nil, err)
	}
	return raw, true, nil
}

// Finish skips any cases not read, reads the fields after the cases and
// returns the report's fields as a Report without cases. It refuses a
// report without its suite, totals or cases, or with text after it.
func (r *Reader) Finish() (*proctor.Report, error) {
	for r.inCase {
		if _, _, err := r.NextRaw(); err != nil {
			return nil, err
		}
	}
	if !r.done {
		return nil, r.notReport(errors.New(`it has "cases" twice`))
	}
	if _, err := r.sc.peek(); err != io.EOF {
		if err != nil {
			return nil, r.notReport(err)
		}
		return nil, r.notReport(errors.New("there is text after the report"))
	}
	if err := r.required(); err != nil {
		return nil, err
	}
	return r.Head()
}

// Close closes the file [Open] opened.
func (r *Reader) Close() error {
	if r.f == nil {
		return nil
	}
	return r.f.Close()
}

// Verdict is what the tools that only count and pair cases read of one:
// its id, verdict, split, severity and cluster.
type Verdict struct {
	ID       string           `json:"id"`
	Verdict  proctor.Status   `json:"verdict"`
	Severity proctor.Severity `json:"severity,omitempty"`
	Split    string           `json:"split,omitempty"`
	Cluster  string           `json:"cluster,omitempty"`
}
