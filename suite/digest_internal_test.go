package suite

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDigestFileCRLFAcrossReads: a CRLF split between two reads of a long
// line is read as LF, as it is anywhere else; a lone CR stays.
func TestDigestFileCRLFAcrossReads(t *testing.T) {
	sum := func(content string) string {
		path := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		if err := digestFile(h, "f", path); err != nil {
			t.Fatal(err)
		}
		return string(h.Sum(nil))
	}
	for _, n := range []int{64<<10 - 1, 64<<10 - 2, 64 << 10, 200 << 10} {
		long := strings.Repeat("a", n)
		if sum(long+"\r\nb\r\n") != sum(long+"\nb\n") {
			t.Errorf("line of %d bytes: CRLF and LF digests differ", n)
		}
		if sum(long+"\rb\n") == sum(long+"b\n") {
			t.Errorf("line of %d bytes: a lone CR was dropped", n)
		}
	}
}
