package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/internal/reportio"
	"github.com/proctorhq/proctor/reportfmt"
	"github.com/proctorhq/proctor/reports"
)

// writeCompareHTML writes the page proctor compare --html writes for the
// reports at basePath and headPath, compared as c (base and head are the
// reports without their cases). The cases are read again as streams and
// paired by id; a head case read before its base case is kept in a
// scratch file, not in memory, so reports in different orders take disk,
// not memory.
func writeCompareHTML(path, basePath, headPath string, base, head *proctor.Report, c *reports.Comparison) error {
	opts := reportfmt.HTMLOptions{Generated: time.Now(), Version: version()}
	// The comparison's per-case lists are garbage by now: handed back to
	// the system before the second reading, so the two do not add up.
	debug.FreeOSMemory()
	return writeOutWhole(path, io.Discard, func(w io.Writer) error {
		return streamCompareHTML(w, basePath, headPath, base, head, c, opts)
	})
}

// streamCompareHTML writes the compare page on w: the pairs in base's
// order, then the cases only in head in head's order, as
// [reportfmt.WriteCompareHTML] orders them.
func streamCompareHTML(w io.Writer, basePath, headPath string, base, head *proctor.Report, c *reports.Comparison, opts reportfmt.HTMLOptions) error {
	rs, closeAll, err := openReports([]string{basePath, headPath})
	if err != nil {
		return err
	}
	defer closeAll()
	onlyBase, onlyHead := idSet(c.OnlyBase), idSet(c.OnlyHead)
	sp := &spill{}
	defer sp.close()
	page := reportfmt.NewCompareHTML(w, base.Suite, opts)
	rb, rh := rs[0], rs[1]
	for {
		braw, ok, err := rb.NextRaw()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		id, bpass, err := reportio.IDVerdict(braw)
		if err != nil {
			return rb.Decode(braw, &reportio.Verdict{})
		}
		var hraw json.RawMessage
		hpass := false
		if !onlyBase[id] {
			if hraw, hpass, err = sp.find(id, rh, onlyHead); err != nil {
				return err
			}
		}
		if err := page.AddRaw(id, braw, hraw, bpass && hpass && hraw != nil); err != nil {
			return err
		}
	}
	if err := addHeadOnly(page, sp, rh, onlyHead); err != nil {
		return err
	}
	return page.Finish(base, head, c)
}

// addHeadOnly embeds the cases only in head, in head's order: those read
// ahead into the scratch file, then the rest of rh.
func addHeadOnly(page *reportfmt.CompareHTML, sp *spill, rh *reportio.Reader, onlyHead map[string]bool) error {
	for _, ref := range sp.headOnly {
		raw, err := sp.read(ref)
		if err != nil {
			return err
		}
		if err := page.AddRaw(ref.id, nil, raw, false); err != nil {
			return err
		}
	}
	for {
		hraw, ok, err := rh.NextRaw()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		id, _, err := reportio.IDVerdict(hraw)
		if err != nil {
			return rh.Decode(hraw, &reportio.Verdict{})
		}
		if onlyHead[id] {
			if err := page.AddRaw(id, nil, hraw, false); err != nil {
				return err
			}
		}
	}
	return nil
}

func idSet(ids []string) map[string]bool {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// spill keeps the head cases read ahead of their base case in a scratch
// file: pending are those base has yet to reach, headOnly (in head's
// order) those base has not at all.
type spill struct {
	f        *os.File
	bw       *bufio.Writer
	off      int64
	pending  map[string]spillRef
	headOnly []spillRef
}

type spillRef struct {
	id     string
	passed bool
	off    int64
	n      int
}

// find returns the head case of id, and whether it passed: from the
// scratch file, or reading rh on until it comes (keeping the cases
// before it); nil when rh ends first.
func (s *spill) find(id string, rh *reportio.Reader, onlyHead map[string]bool) (json.RawMessage, bool, error) {
	if ref, ok := s.pending[id]; ok {
		delete(s.pending, id)
		raw, err := s.read(ref)
		return raw, ref.passed, err
	}
	for {
		hraw, ok, err := rh.NextRaw()
		if err != nil || !ok {
			return nil, false, err
		}
		hid, hpass, err := reportio.IDVerdict(hraw)
		if err != nil {
			return nil, false, rh.Decode(hraw, &reportio.Verdict{})
		}
		if hid == id {
			return hraw, hpass, nil
		}
		ref, err := s.put(hid, hpass, hraw)
		if err != nil {
			return nil, false, err
		}
		if onlyHead[hid] {
			s.headOnly = append(s.headOnly, ref)
		} else {
			if s.pending == nil {
				s.pending = map[string]spillRef{}
			}
			s.pending[hid] = ref
		}
	}
}

// put writes raw to the scratch file.
func (s *spill) put(id string, passed bool, raw []byte) (spillRef, error) {
	if s.f == nil {
		f, err := os.CreateTemp("", "proctor-compare-*.json")
		if err != nil {
			return spillRef{}, err
		}
		os.Remove(f.Name()) // the open file stays readable; nothing is left behind
		s.f, s.bw = f, bufio.NewWriterSize(f, 256<<10)
	}
	ref := spillRef{id: id, passed: passed, off: s.off, n: len(raw)}
	n, err := s.bw.Write(raw)
	s.off += int64(n)
	return ref, err
}

// read reads back what put wrote.
func (s *spill) read(ref spillRef) (json.RawMessage, error) {
	if err := s.bw.Flush(); err != nil {
		return nil, err
	}
	raw := make(json.RawMessage, ref.n)
	_, err := s.f.ReadAt(raw, ref.off)
	return raw, err
}

func (s *spill) close() {
	if s.f != nil {
		s.f.Close()
	}
}
