package readfile

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestPath(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok")
	os.WriteFile(ok, []byte("hello"), 0o644)
	if b, err := Path(context.Background(), ok, 5); err != nil || string(b) != "hello" {
		t.Errorf("Path = %q, %v", b, err)
	}
	if _, err := Path(context.Background(), ok, 4); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v, want ErrTooLarge", err)
	}
	sparse := filepath.Join(dir, "sparse")
	f, _ := os.Create(sparse)
	f.Truncate(6 << 30)
	f.Close()
	if _, err := Path(context.Background(), sparse, SpecLimit); !errors.Is(err, ErrTooLarge) {
		t.Errorf("6 GiB sparse file: %v, want ErrTooLarge", err)
	}
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	if _, err := Path(context.Background(), zero, SpecLimit); !errors.Is(err, ErrNotRegular) {
		t.Errorf("/dev/zero: %v, want ErrNotRegular", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := Path(context.Background(), fifo, SpecLimit); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO: %v, want ErrNotRegular", err)
	}
	root, _ := os.OpenRoot(dir)
	defer root.Close()
	for _, name := range []string{"fifo", "zero", "sparse"} {
		if _, err := Root(context.Background(), root, name, SpecLimit); err == nil {
			t.Errorf("Root(%s) read it", name)
		}
		if _, err := FS(context.Background(), root.FS(), name, SpecLimit); err == nil {
			t.Errorf("FS(%s) read it", name)
		}
	}
	if b, err := FS(context.Background(), root.FS(), "ok", 10); err != nil || !bytes.Equal(b, []byte("hello")) {
		t.Errorf("FS = %q, %v", b, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Path(ctx, ok, 10); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
