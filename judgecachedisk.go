package proctor

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

// JudgeCacheKeyFile is the file in a judge cache folder that holds the key
// its entries are authenticated under, created (mode 0600) with 32 random
// bytes when missing, unless [WithJudgeCacheKey] gives the key.
const JudgeCacheKeyFile = ".proctor-cache-key"

// maxCacheEntry bounds a disk cache entry: a reply is at most 64 KiB, and
// JSON escaping at most six times that.
const maxCacheEntry = 1 << 20

// diskEntry is one cached reply on disk. MAC is the hex HMAC-SHA256, under
// the cache's key, of the entry's cache key and its other fields.
type diskEntry struct {
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
func (e diskEntry) mac(secret []byte, key string) string {
	e.MAC = ""
	b, _ := json.Marshal(e) // strings and numbers: cannot fail
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("proctor judge cache 1\x00" + key + "\x00"))
	m.Write(b)
	return hex.EncodeToString(m.Sum(nil))
}

// WithJudgeCacheKey authenticates the disk judge cache's entries under key
// (at least 16 bytes) instead of the key in the folder's
// [JudgeCacheKeyFile]. A team that shares a cache folder shares the key
// this way (the CLI reads it from PROCTOR_CACHE_KEY), or by copying the
// key file with the folder; an entry written under another key is ignored
// and the report says so.
func WithJudgeCacheKey(key []byte) Option {
	k := append([]byte(nil), key...)
	return optionFunc(func(c *config) { c.cacheSecret = k })
}

// macKey returns the key the disk cache at jc.cacheDir is authenticated
// under, reading or creating its key file once per pool.
func (p *JudgePool) macKey(jc *judgeConfig) ([]byte, error) {
	if len(jc.cacheSecret) > 0 {
		if len(jc.cacheSecret) < 16 {
			return nil, errors.New("the judge cache key is shorter than 16 bytes")
		}
		return jc.cacheSecret, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if k, ok := p.macKeys[jc.cacheDir]; ok {
		return k, nil
	}
	k, err := loadCacheKey(jc.cacheDir)
	if err != nil {
		return nil, err
	}
	if p.macKeys == nil {
		p.macKeys = map[string][]byte{}
	}
	p.macKeys[jc.cacheDir] = k
	return k, nil
}

// loadCacheKey reads dir's key file, creating it (0600, 32 random bytes in
// hex) when missing.
func loadCacheKey(dir string) ([]byte, error) {
	path := filepath.Join(dir, JudgeCacheKeyFile)
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

// fromDisk returns judge i's recorded reply under key. A missing entry is
// a miss; an entry that cannot be read (not a regular file, too big, not
// JSON) or whose MAC does not hold is a miss that is counted and reported.
func (p *JudgePool) fromDisk(jc *judgeConfig, i int, key string) (JudgeReply, bool) {
	if jc.cacheDir == "" {
		return JudgeReply{}, false
	}
	secret, err := p.macKey(jc)
	if err != nil {
		p.noteCacheErr(err)
		return JudgeReply{}, false
	}
	b, err := readfile.Path(context.Background(), filepath.Join(jc.cacheDir, key+".json"), maxCacheEntry)
	if errors.Is(err, fs.ErrNotExist) {
		return JudgeReply{}, false
	}
	var e diskEntry
	switch {
	case err != nil:
		p.reject(err.Error())
	case json.Unmarshal(b, &e) != nil:
		p.reject("an entry is not JSON")
	case !hmac.Equal([]byte(e.MAC), []byte(e.mac(secret, key))):
		p.reject("an entry's MAC does not match: edited, or written under another key")
	case e.PromptVersion != PromptVersion || e.Judge != p.judges[i].Name:
		return JudgeReply{}, false
	default:
		return JudgeReply{Text: e.Text, Tokens: e.Tokens, CostUSD: e.CostUSD, Reasoning: e.Reasoning, VerdictProbability: e.Probability}, true
	}
	return JudgeReply{}, false
}

func (p *JudgePool) reject(why string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rejected == 0 {
		p.rejectedWhy = why
	}
	p.rejected++
}

func (p *JudgePool) noteCacheErr(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cacheErr == nil {
		p.cacheErr = err
	}
}

// toDisk writes the reply atomically (temporary file, then rename), with
// its MAC. A failure is remembered and reported as a caveat; the grade
// stands.
func (p *JudgePool) toDisk(jc *judgeConfig, i int, key string, r JudgeReply) {
	if jc.cacheDir == "" {
		return
	}
	secret, err := p.macKey(jc)
	if err == nil {
		e := diskEntry{
			Judge: p.judges[i].Name, Model: p.judges[i].Model, PromptVersion: PromptVersion,
			Text: r.Text, Tokens: r.Tokens, CostUSD: r.CostUSD, Reasoning: r.Reasoning, Probability: r.VerdictProbability,
		}
		e.MAC = e.mac(secret, key)
		err = writeCacheFile(jc.cacheDir, key, e)
	}
	if err != nil {
		p.noteCacheErr(err)
	}
}

func writeCacheFile(dir, key string, e diskEntry) error {
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
