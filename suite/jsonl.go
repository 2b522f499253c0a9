package suite

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/readfile"
)

// maxLine bounds one line of a .jsonl suite.
const maxLine = 64 << 20

func (s *Suite) loadJSONL(ctx context.Context) error {
	if s.opts.GraderFile != "" {
		checks, err := s.loadGraderFile(ctx, s.opts.GraderFile)
		if err != nil {
			return err
		}
		s.Checks = checks
	}
	s.attempts = 0
	ids := &idSet{path: s.Path, seen: map[uint64]idAt{}}
	var stopped error
	err := s.scanJSONL(func(c proctor.Case, err error) bool {
		if err != nil {
			return false
		}
		if s.Total%256 == 0 && ctx.Err() != nil {
			stopped = &Error{File: s.Path, Msg: "loading stopped", Err: ctx.Err()}
			return false
		}
		s.Total++
		s.observe(&c)
		if s.selects(c) {
			s.Count++
			s.positions = append(s.positions, s.Total-1)
		}
		return true
	}, ids)
	if err == nil {
		err = stopped
	}
	if err == nil {
		err = s.checkFields()
	}
	return err
}

// idAt is where a case id was first seen in a .jsonl suite.
type idAt struct {
	line int
	off  int64
}

// idSet detects duplicate case ids in a .jsonl suite in little memory: it
// keeps a 64-bit hash of each id and where it was, and on a hash match
// reads the earlier line back to compare the ids themselves, so a hash
// collision is never reported as a duplicate.
type idSet struct {
	path string
	seen map[uint64]idAt
}

// add records id at line and offset and returns the line of an earlier
// case with the same id, or 0.
func (ids *idSet) add(id string, line int, off int64) (int, error) {
	h := fnv.New64a()
	io.WriteString(h, id)
	k := h.Sum64()
	prev, ok := ids.seen[k]
	if !ok {
		ids.seen[k] = idAt{line, off}
		return 0, nil
	}
	other, err := ids.idAt(prev.off)
	if err != nil {
		return 0, err
	}
	if other == id {
		return prev.line, nil
	}
	// A genuine collision: keep the first, the second is checked on the
	// next collision only against the first (rare enough at 64 bits).
	return 0, nil
}

// idAt reads the id of the case on the line starting at off.
func (ids *idSet) idAt(off int64) (string, error) {
	f, err := os.Open(ids.path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return "", err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	if !sc.Scan() {
		return "", fmt.Errorf("re-reading the line at byte %d: %v", off, sc.Err())
	}
	var c struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
		return "", err
	}
	return c.ID, nil
}

// scanJSONL decodes the .jsonl suite one line at a time and calls f with
// each case, stopping when f returns false. With ids it also refuses
// duplicate ids. Blank lines and lines starting with // are skipped.
func (s *Suite) scanJSONL(f func(proctor.Case, error) bool, ids ...*idSet) error {
	file, err := readfile.Open(s.Path)
	if err != nil {
		err = &Error{File: s.Path, Msg: "cannot read the suite", Err: err}
		f(proctor.Case{}, err)
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var consumed, start int64
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		adv, tok, err := bufio.ScanLines(data, atEOF)
		if tok != nil {
			start = consumed
		}
		consumed += int64(adv)
		return adv, tok, err
	})
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || bytes.HasPrefix(b, []byte("//")) {
			continue
		}
		n, err := parseJSON(b, line)
		var c proctor.Case
		if err != nil {
			var pe *parseError
			errors.As(err, &pe)
			err = &Error{File: s.Path, Line: line, Msg: pe.msg}
		} else {
			c, err = s.decodeCase(n, "case")
		}
		if err == nil && len(ids) > 0 {
			prev, ierr := ids[0].add(c.ID, line, start)
			switch {
			case ierr != nil:
				err = &Error{File: s.Path, Line: line, Field: "id", Msg: "cannot check the id for duplicates", Err: ierr}
			case prev > 0:
				err = &Error{File: s.Path, Line: line, Field: "id", Msg: fmt.Sprintf("case id %q is also used on line %d: ids must be unique", c.ID, prev)}
			}
		}
		if !f(c, err) || err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		err = &Error{File: s.Path, Line: line + 1, Msg: "cannot read the line", Err: err}
		f(proctor.Case{}, err)
		return err
	}
	return nil
}

// loadGraderFile compiles the suite-level graders of a .jsonl suite: one
// spec or a list of specs, JSON or YAML. Its files are read from its own
// folder.
func (s *Suite) loadGraderFile(ctx context.Context, path string) ([]proctor.Check, error) {
	data, err := readfile.Path(ctx, path, readfile.SpecLimit)
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot read the grader file", Err: err}
	}
	var doc *node
	if strings.EqualFold(filepath.Ext(path), ".json") || (len(bytes.TrimSpace(data)) > 0 && (bytes.TrimSpace(data)[0] == '[' || bytes.TrimSpace(data)[0] == '{')) {
		doc, err = parseJSON(data, 1)
	} else {
		doc, err = parseYAML(ctx, data)
	}
	if err != nil {
		var pe *parseError
		if !errors.As(err, &pe) {
			return nil, &Error{File: path, Msg: "loading stopped", Err: err}
		}
		return nil, &Error{File: path, Line: pe.line, Msg: pe.msg}
	}
	if doc.kind == kindMap {
		doc = &node{kind: kindSeq, line: doc.line, items: []*node{doc}}
	}
	groot, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot open the grader file's folder", Err: err}
	}
	defer groot.Close()
	gs := &Suite{Path: path, comp: s.compiler(groot)}
	return gs.specs(doc, "graders")
}
