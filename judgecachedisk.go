package proctor

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/proctorhq/proctor/internal/judgedisk"
)

// JudgeCacheKeyFile is the file in a judge cache folder that holds the key
// its entries are authenticated under, created (mode 0600) with 32 random
// bytes when missing, unless [WithJudgeCacheKey] gives the key.
const JudgeCacheKeyFile = ".proctor-cache-key"

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
	k, err := judgedisk.LoadKey(filepath.Join(jc.cacheDir, JudgeCacheKeyFile))
	if err != nil {
		return nil, err
	}
	if p.macKeys == nil {
		p.macKeys = map[string][]byte{}
	}
	p.macKeys[jc.cacheDir] = k
	return k, nil
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
	e, err := judgedisk.Read(jc.cacheDir, key, secret)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		p.reject(err.Error())
	case e.PromptVersion != PromptVersion || e.Judge != p.judges[i].Name:
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
		e := judgedisk.Entry{
			Judge: p.judges[i].Name, Model: p.judges[i].Model, PromptVersion: PromptVersion,
			Text: r.Text, Tokens: r.Tokens, CostUSD: r.CostUSD, Reasoning: r.Reasoning, Probability: r.VerdictProbability,
		}
		err = judgedisk.Write(jc.cacheDir, key, secret, e)
	}
	if err != nil {
		p.noteCacheErr(err)
	}
}
