package suite

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// digestVersion heads what [Suite.Digest] hashes; a change to what goes
// into the digest changes it.
const digestVersion = "proctor suite digest v1\n"

// Positions returns the places (from 0) the selected cases have among all
// the suite file's cases, in the order [Suite.Cases] yields them: what a
// shard report records so that a merge restores the whole run's order.
func (s *Suite) Positions() []int { return slices.Clone(s.positions) }

// Digest identifies what the suite grades: "sha256:" and the hex SHA-256
// of the suite file's bytes (a UTF-8 byte order mark dropped, CRLF line
// ends read as LF), the cases_csv file's and the --grader-file's bytes
// read the same way when there are any, the split selected and the
// number of cases in the file.
// Two runs with the same digest read the same cases and suite-level
// graders; files the specs read (a schema_file, the config) are not in
// it. Shard selection is not in it either: every shard of one run has
// the same digest. It reads the files again.
func (s *Suite) Digest() (string, error) {
	h := sha256.New()
	io.WriteString(h, digestVersion)
	if err := digestFile(h, "suite", s.Path); err != nil {
		return "", err
	}
	if s.dataFile != "" {
		if err := digestFile(h, "cases_csv", filepath.Join(filepath.Dir(s.Path), s.dataFile)); err != nil {
			return "", err
		}
	}
	if s.opts.GraderFile != "" {
		if err := digestFile(h, "grader_file", s.opts.GraderFile); err != nil {
			return "", err
		}
	}
	io.WriteString(h, "split "+strconv.Quote(s.opts.Split)+"\n")
	io.WriteString(h, "cases "+strconv.Itoa(s.Total)+"\n")
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// digestFile hashes a label, the file's length once normalised and its
// normalised bytes, line by line so a large .jsonl suite is never held
// whole.
func digestFile(h hash.Hash, label, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return &Error{File: path, Msg: "cannot read the file for the suite digest", Err: err}
	}
	defer f.Close()
	body := sha256.New()
	rd := bufio.NewReaderSize(f, 64<<10)
	var n int64
	first, heldCR := true, false
	write := func(b []byte) {
		body.Write(b)
		n += int64(len(b))
	}
	for {
		ln, err := rd.ReadSlice('\n')
		if first {
			ln, first = bytes.TrimPrefix(ln, []byte("\xef\xbb\xbf")), false
		}
		if heldCR && (len(ln) == 0 || ln[0] != '\n') {
			write([]byte{'\r'}) // a CR not before a LF stays
		}
		heldCR = false
		switch {
		case bytes.HasSuffix(ln, []byte("\r\n")):
			write(ln[:len(ln)-2])
			write([]byte{'\n'})
		case err == bufio.ErrBufferFull && bytes.HasSuffix(ln, []byte{'\r'}):
			write(ln[:len(ln)-1]) // a LF may follow in the next fragment
			heldCR = true
		default:
			write(ln)
		}
		if err == io.EOF {
			break
		}
		if err != nil && err != bufio.ErrBufferFull {
			return &Error{File: path, Msg: "cannot read the file for the suite digest", Err: err}
		}
	}
	fmt.Fprintf(h, "%s %d %x\n", label, n, body.Sum(nil))
	return nil
}
