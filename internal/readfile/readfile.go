// Package readfile reads the files a suite, a config or a command line
// names, bounded before anything is read: the file must be a regular file
// (a FIFO, a device such as /dev/zero or a directory is refused, whatever
// symbolic link leads to it), its size is checked against a limit from its
// metadata first, and the read stops when its context ends.
package readfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Limits of the files proctor reads whole, by what they hold.
const (
	// SpecLimit bounds a spec, grader, schema or config file.
	SpecLimit = 32 << 20
	// SuiteLimit bounds a YAML or JSON suite file (a .jsonl suite is
	// streamed instead).
	SuiteLimit = 256 << 20
	// ReportLimit bounds a JSON report read by report show, merge, html
	// and compare.
	ReportLimit = 1 << 30
)

// ErrNotRegular is the error of a file that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the error of a file over its limit.
var ErrTooLarge = errors.New("file too large")

// chunk is how much is read between two looks at the context.
const chunk = 1 << 20

// Path reads the file at path whole, under limit bytes.
func Path(ctx context.Context, path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(ctx, f, path, limit)
}

// Root reads the file name inside root whole, under limit bytes.
func Root(ctx context.Context, root *os.Root, name string, limit int64) ([]byte, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(ctx, f, name, limit)
}

// FS reads the file name of fsys whole, under limit bytes. fsys's Stat
// decides first, since opening a FIFO through an fs.FS can block.
func FS(ctx context.Context, fsys fs.FS, name string, limit int64) ([]byte, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if err := check(fi, name, limit); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(ctx, f, name, limit)
}

// check refuses what is not a regular file or is over limit.
func check(fi fs.FileInfo, name string, limit int64) error {
	if !fi.Mode().IsRegular() {
		return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(fi.Mode()))}
	}
	if fi.Size() > limit {
		return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: %d bytes, over the limit of %d", ErrTooLarge, fi.Size(), limit)}
	}
	return nil
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

// read checks f's metadata, then reads it in chunks, stopping when ctx
// ends or the file outgrows limit while it is read.
func read(ctx context.Context, f fs.File, name string, limit int64) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := check(fi, name, limit); err != nil {
		return nil, err
	}
	buf := make([]byte, 0, fi.Size()+1)
	r := io.LimitReader(f, limit+1)
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), len(buf)+chunk)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: over the limit of %d bytes", ErrTooLarge, limit)}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Open opens the regular file at path for streaming (a .jsonl suite read
// twice, once for its ids): a FIFO or a device is refused, as by [Path].
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = check(fi, path, 1<<62)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
