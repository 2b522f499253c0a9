// Package judgedisk is the file format of the disk judge cache: one JSON
// file per cached reply, named for its cache key, authenticated with an
// HMAC-SHA256 under the cache's key and written atomically, and the key
// file that holds that key.
package judgedisk

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/proctorhq/proctor/internal/readfile"
)

// maxEntry bounds an entry's file: a reply is at most 64 KiB, and JSON
// escaping at most six times that.
const maxEntry = 1 << 20

// Errors of an entry that was read but is not the cache's own.
var (
	ErrNotJSON = errors.New("an entry is not JSON")
	ErrBadMAC  = errors.New("an entry's MAC does not match: edited, or written under another key")
)

// Entry is one cached reply on disk. MAC is the hex HMAC-SHA256, under
// the cache's key, of the entry's cache key and its other fields; Write
// sets it and Read checks it.
type Entry struct {
	Judge         string  `json:"judge"`
	Model         string  `json:"model,omitempty"`
	PromptVersion string  `json:"prompt_version"`
	Text          string  `json:"text"`
	Tokens        int     `json:"tokens,omitempty"`
	CostUSD       float64 `json:"cost_usd,omitempty"`
	Reasoning     string  `json:"reasoning,omitempty"`
	Probability   float64 `json:"verdict_probability,omitempty"`
	MAC           string  `json:"mac"`
}

// mac returns the entry's MAC for the cache key key under secret.
func (e Entry) mac(secret []byte, key string) string {
	e.MAC = ""
	b, _ := json.Marshal(e) // strings and numbers: cannot fail
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("proctor judge cache 1\x00" + key + "\x00"))
	m.Write(b)
	return hex.EncodeToString(m.Sum(nil))
}

// Read returns the entry stored under key in dir, checked against its MAC
// under secret. A missing entry is an error wrapping fs.ErrNotExist; one
// that is not a regular file or is over 1 MiB is readfile's error; one
// that is not JSON is ErrNotJSON, and one whose MAC does not hold is
// ErrBadMAC.
func Read(dir, key string, secret []byte) (Entry, error) {
	b, err := readfile.Path(context.Background(), filepath.Join(dir, key+".json"), maxEntry)
	if err != nil {
		return Entry{}, err
	}
	var e Entry
	switch {
	case json.Unmarshal(b, &e) != nil:
		return Entry{}, ErrNotJSON
	case !hmac.Equal([]byte(e.MAC), []byte(e.mac(secret, key))):
		return Entry{}, ErrBadMAC
	}
	return e, nil
}

// Write stores e under key in dir with its MAC under secret, atomically: a
// temporary file in dir, then a rename over key's file. dir is created
// when missing.
func Write(dir, key string, secret []byte, e Entry) error {
	e.MAC = e.mac(secret, key)
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, key+".*.tmp")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, key+".json")); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// LoadKey reads the key file at path, creating it (mode 0600, 32 random
// bytes in hex, its folder too) when missing. A key file that is not hex
// or holds fewer than 16 bytes is an error; when two runs create it at
// once, both read the one that won.
func LoadKey(path string) ([]byte, error) {
	dir := filepath.Dir(path)
	for range 2 {
		b, err := readfile.Path(context.Background(), path, 4096)
		if err == nil {
			k, derr := hex.DecodeString(string(b))
			if derr != nil || len(k) < 16 {
				return nil, fmt.Errorf("%s: want at least 16 bytes in hex", path)
			}
			return k, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue // another run made it first: read theirs
		}
		if err != nil {
			return nil, err
		}
		k := make([]byte, 32)
		rand.Read(k)
		_, werr := f.WriteString(hex.EncodeToString(k))
		if err := errors.Join(werr, f.Close()); err != nil {
			os.Remove(path)
			return nil, err
		}
		return k, nil
	}
	return nil, fmt.Errorf("%s: cannot read or create it", path)
}
