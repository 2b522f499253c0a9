package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"unicode"
)

// hostileJudge serves chat completions on loopback whose reasoning is
// content, or answers status with body when status is not 200.
func hostileJudge(t *testing.T, status int, body, content string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status != http.StatusOK {
			http.Error(w, body, status)
			return
		}
		fmt.Fprintf(w, `{"choices":[{"message":{"content":%s}}],"usage":{"total_tokens":10}}`, jsonString(content))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// rawTerminalControl reports the first control or bidirectional character
// in s other than newline, or -1.
func rawTerminalControl(s string) rune {
	for _, r := range s {
		if r == '\n' {
			continue
		}
		if unicode.IsControl(r) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200f || r == 0x200e {
			return r
		}
	}
	return -1
}

// TestBinaryTerminalEscapes: what a subject, a model, a judge's reasoning
// and a judge's error body write reaches the terminal escaped, from
// proctor run and from proctor report show.
func TestBinaryTerminalEscapes(t *testing.T) {
	const osc = "\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\u202eevil\u2066\u009b2J"
	reasoning := fmt.Sprintf(`{"criterion":"x","violations":%s,"basis":"answer","verdict":"fail","confidence":"high"}`, jsonString(osc))
	good := hostileJudge(t, http.StatusOK, "", reasoning)
	bad := hostileJudge(t, http.StatusInternalServerError, `{"error":{"message":`+jsonString(osc)+`}}`, "")
	dir := t.TempDir()
	suiteText := fmt.Sprintf(`{"subject":{"command":["sh","-c","printf '%%b' '\\033]0;sub\\007\\342\\200\\256' >&2; exit 3"]},
"cases":[
 {"id":"subject","input":"q","checks":[{"type":"contains","value":"x"}]},
 {"id":"model\u001b[31m","outputs":[%s],"expected":"x","checks":[{"type":"exact_match"},{"type":"xml_valid"}]},
 {"id":"judge","outputs":["a"],"checks":[{"type":"llm_judge","rubric":"polite"}]}]}`, jsonString(osc))
	suitePath := filepath.Join(dir, "s.json")
	if err := os.WriteFile(suitePath, []byte(suiteText), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, url := range map[string]string{"reasoning": good, "error body": bad} {
		t.Run(name, func(t *testing.T) {
			cfg := writeFile(t, "c.json", fmt.Sprintf(`{"judges":[{"name":"j","family":"f","model":"m","base_url":%q,"api_key_env":"PROCTOR_TEST_KEY"}],"judge_timeout_ms":2000}`, url))
			report := filepath.Join(t.TempDir(), "r.json")
			code, out, stderr := bin(t, "", []string{"PROCTOR_TEST_KEY=k"}, "run", suitePath, "--config", cfg, "--out", report, "--progress", "off")
			if code == exitUsage {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			_, shown, showErr := bin(t, "", nil, "report", "show", report)
			for name, text := range map[string]string{"run stdout": out, "run stderr": stderr, "report show": shown, "show stderr": showErr} {
				if r := rawTerminalControl(text); r >= 0 {
					t.Errorf("%s carries a raw %U:\n%s", name, r, text)
				}
			}
			wants := []string{`model\x1b[31m`, `\x1b]0;sub\x07\u202e`}
			if name == "reasoning" {
				wants = append(wants, `\x1b]0;pwned\x07`)
			}
			for _, want := range wants {
				if !strings.Contains(out, want) || !strings.Contains(shown, want) {
					t.Errorf("the report lacks the escaped %q:\n%s", want, out)
				}
			}
		})
	}
}

// TestBinaryMarkdownInert: a model output quoted in a reason reaches the
// Markdown report (the one made for pull-request comments) as text: no
// image that fetches a URL, no link, autolink or mention.
func TestBinaryMarkdownInert(t *testing.T) {
	const attack = `@octocat @acme/team root@evil.example www.evil.example ![t](https://evil.example/t.png) [x](https://evil.example) <https://evil.example>`
	suitePath := writeSuite(t, "s.json", fmt.Sprintf(`{"cases":[{"id":"c","outputs":[%s],"expected":"x","checks":[{"type":"exact_match"}]}]}`, jsonString(attack)))
	dir := t.TempDir()
	md, report := filepath.Join(dir, "r.md"), filepath.Join(dir, "r.json")
	if code, _, stderr := bin(t, "", nil, "run", suitePath, "--markdown", md, "--out", report); code != exitFailed {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	written, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	_, shown, _ := bin(t, "", nil, "report", "show", "--format", "markdown", report)
	for name, text := range map[string]string{"--markdown": string(written), "report show": shown} {
		if !strings.Contains(text, "evil") {
			t.Fatalf("%s does not quote the output:\n%s", name, text)
		}
		if !strings.Contains(text, "octocat") || !strings.Contains(text, `\!\[`) {
			t.Fatalf("%s does not quote the output:\n%s", name, text)
		}
		for _, bad := range []string{"[x]", " ![", "(![", "<https", "https://", "www.", "@octocat", "@acme", "root@evil"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s holds %q:\n%s", name, bad, text)
			}
		}
	}
}

// TestBinaryKeysStayOut: a judge endpoint that echoes the key it was sent,
// in an error body or in its reasoning, puts it in no report and no cache
// entry, nor does a key given in base_url's query string, which still
// reaches the endpoint on a URL with the path before the query.
func TestBinaryKeysStayOut(t *testing.T) {
	const key, queryKey = "sk-proctortest-0123456789abcdefABCDEF", "qk-0123456789-querykey"
	var paths []string
	var mu sync.Mutex
	mode := map[string]int{"/401/v1/chat/completions": 401, "/500/v1/chat/completions": 500, "/ok/v1/chat/completions": 200}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path+"?"+r.URL.RawQuery)
		mu.Unlock()
		echo := r.Header.Get("Authorization") + " " + r.URL.RawQuery
		switch mode[r.URL.Path] {
		case 200:
			content := fmt.Sprintf(`{"criterion":"x","violations":%s,"basis":"answer","verdict":"fail","confidence":"high"}`, jsonString("you sent "+echo))
			fmt.Fprintf(w, `{"choices":[{"message":{"content":%s}}],"usage":{"total_tokens":10}}`, jsonString(content))
		case 0:
			http.NotFound(w, r)
		default:
			http.Error(w, `{"error":{"message":"bad key `+echo+`"}}`, mode[r.URL.Path])
		}
	}))
	defer srv.Close()
	suitePath := writeSuite(t, "s.json", `{"cases":[{"id":"c","input":"q","outputs":["a"],"checks":[{"type":"llm_judge","rubric":"polite"}]}]}`)
	for _, m := range []string{"401", "500", "ok"} {
		t.Run(m, func(t *testing.T) {
			dir := t.TempDir()
			cache := filepath.Join(dir, "cache")
			base := srv.URL + "/" + m + "/v1?api-key=" + queryKey
			cfg := writeFile(t, "c.json", fmt.Sprintf(`{"judges":[{"name":"j","family":"f","model":"m","base_url":%q,"api_key_env":"PROCTOR_TEST_KEY"}],"judge_timeout_ms":2000,"judge_cache":%q}`, base, cache))
			args := []string{"run", suitePath, "--config", cfg, "--progress", "off"}
			for _, f := range []string{"out=r.json", "junit=r.xml", "markdown=r.md", "html=r.html"} {
				flag, file, _ := strings.Cut(f, "=")
				args = append(args, "--"+flag, filepath.Join(dir, file))
			}
			code, stdout, stderr := bin(t, "", []string{"PROCTOR_TEST_KEY=" + key}, args...)
			// A 401 stops the run as a misconfigured judge (exit 2, no
			// report); its message must still hold no key.
			if (code == exitUsage) != (m == "401") {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			texts := map[string]string{"stdout": stdout, "stderr": stderr}
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(p)
					texts[p] = string(b)
				}
				return nil
			})
			want := 6 // stdout, stderr, the config and three reports
			switch m {
			case "ok":
				want++ // and a cache entry
			case "401":
				want = 3 // stdout, stderr and the config
				if !strings.Contains(stderr, "misconfigured (HTTP 401)") || !strings.Contains(stderr, "[redacted]") {
					t.Errorf("stderr %q: want the judge named misconfigured, its echo redacted", stderr)
				}
			}
			if len(texts) < want {
				t.Fatalf("%d outputs, want reports and a cache entry: %v", len(texts), stderr)
			}
			for name, text := range texts {
				for _, k := range []string{key, key[:12], queryKey} {
					if strings.Contains(text, k) {
						t.Errorf("%s holds %q", name, k)
					}
				}
			}
			if m == "ok" && !strings.Contains(texts[filepath.Join(dir, "r.json")], "you sent Bearer [redacted]") {
				t.Errorf("the reasoning is not kept, redacted:\n%s", texts[filepath.Join(dir, "r.json")])
			}
		})
	}
	for _, p := range paths {
		if !strings.HasSuffix(p, "/v1/chat/completions?api-key="+queryKey) {
			t.Errorf("request to %s, want the path joined before the query", p)
		}
	}
}

// TestBinarySubjectEnvironment: a command subject sees PATH, HOME, LANG,
// TMPDIR and what subject.env lists, and no judge key.
func TestBinarySubjectEnvironment(t *testing.T) {
	suitePath := writeSuite(t, "s.yaml", `subject:
  command: [sh, -c, env]
  env: [PASSED_ON, SET_HERE=v, UNSET_ONE]
cases:
  - id: env
    input: q
    checks:
      - {type: contains, value: "PATH="}
      - {type: contains, value: "PASSED_ON=yes"}
      - {type: contains, value: "SET_HERE=v"}
      - {type: not_contains, value: "PROCTOR_TEST_JUDGE_KEY"}
      - {type: not_contains, value: "OPENAI_API_KEY"}
      - {type: not_contains, value: "NOT_LISTED"}
      - {type: not_contains, value: "UNSET_ONE"}
`)
	env := []string{"PROCTOR_TEST_JUDGE_KEY=sk-1", "OPENAI_API_KEY=sk-2", "PASSED_ON=yes", "NOT_LISTED=1"}
	code, out, stderr := bin(t, "", env, "run", suitePath, "--progress", "off")
	if code != exitOK {
		t.Errorf("exit %d, want 0:\n%s%s", code, out, stderr)
	}
}

// TestBinarySubjectConfined: a relative subject.command that reaches
// outside the suite's folder through a symbolic link is refused at load;
// one whose link stays inside runs.
func TestBinarySubjectConfined(t *testing.T) {
	outside := t.TempDir()
	script := filepath.Join(outside, "evil.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho pwned\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(script, filepath.Join(dir, "bot")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "tools")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "real.sh"), []byte("#!/bin/sh\necho fine\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.sh", filepath.Join(dir, "good")); err != nil {
		t.Fatal(err)
	}
	for prog, wantOK := range map[string]bool{"./bot": false, "tools/evil.sh": false, "./good": true, "../x/bot": false} {
		suitePath := filepath.Join(dir, "s.yaml")
		text := fmt.Sprintf("subject: {command: [%q]}\ncases:\n  - {id: c, input: q, checks: [{type: contains, value: fine}]}\n", prog)
		if err := os.WriteFile(suitePath, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, stderr := bin(t, "", nil, "run", suitePath, "--progress", "off")
		switch {
		case wantOK && code != exitOK:
			t.Errorf("%s: exit %d, want 0:\n%s%s", prog, code, out, stderr)
		case !wantOK && (code != exitUsage || !strings.Contains(stderr, "leaves the suite's folder") || strings.Contains(out, "pwned")):
			t.Errorf("%s: exit %d, want 2 refusing subject.command:\n%s%s", prog, code, out, stderr)
		}
	}
}

// TestBinaryBoundedFiles: a file a suite or the command line names that is
// a FIFO, a link to /dev/zero or a 6 GiB sparse file is refused with a
// clear error before anything is read: no hang, no out-of-memory.
func TestBinaryBoundedFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "sparse"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(6 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for name, want := range map[string]string{"fifo": "not a regular file (a FIFO)", "zero": "not a regular file (a device)", "sparse": "file too large"} {
		t.Run(name, func(t *testing.T) {
			schema := writeSuiteIn(t, dir, "schema-"+name+".yaml", fmt.Sprintf("cases:\n  - {id: c, outputs: ['{}'], checks: [{type: json_schema, schema_file: %s}]}\n", name))
			config := writeSuiteIn(t, dir, "config-"+name+".yaml", fmt.Sprintf("config: %s\ncases:\n  - {id: c, outputs: [a], checks: [{type: contains, value: a}]}\n", name))
			path := filepath.Join(dir, name)
			for _, args := range [][]string{
				{"run", schema}, {"run", config},
				{"run", path}, {"run", writeSuite(t, "s.yaml", "cases:\n  - {id: c, outputs: [a], checks: [{type: contains, value: a}]}\n"), "--config", path},
				{"grade", "--grader-file", path}, {"report", "show", path},
			} {
				code, _, stderr := bin(t, "", nil, append(args, "--progress", "off")[:len(args)+2*boolInt(args[0] == "run")]...)
				// Inside the suite's folder a link to /dev/zero leaves it.
				// report show streams a report and has no size limit: a
				// huge file is refused at its first byte that is not JSON.
				clear := strings.Contains(stderr, want) || name == "zero" && strings.Contains(stderr, "path escapes from parent") ||
					name == "sparse" && args[0] == "report" && strings.Contains(stderr, "is not a proctor JSON report")
				if code != exitUsage || !clear {
					t.Errorf("%v: exit %d, want 2 saying %q:\n%s", args, code, want, stderr)
				}
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func writeSuiteIn(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBinaryJudgeCacheCannotLie: an edited cache entry, one written under
// another key, or one that is not a regular file is ignored and reported,
// never served; a changed judge is asked again.
func TestBinaryJudgeCacheCannotLie(t *testing.T) {
	var calls atomic.Int64
	url := fakeChat(t, "fail", &calls)
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	suitePath := writeSuite(t, "s.json", `{"cases":[{"id":"c","input":"q","outputs":["a"],"checks":[{"type":"llm_judge","rubric":"polite"}]}]}`)
	config := func(mode string, maxTokens int) string {
		return writeFile(t, "c.json", fmt.Sprintf(`{"judges":[{"name":"j","family":"f","model":"m","base_url":%q,"api_key_env":"PROCTOR_TEST_KEY","max_tokens":%d}],
"judge_cache":%q,"judge_cache_mode":%q}`, url, maxTokens, cache, mode))
	}
	run := func(cfg string, env ...string) (int, string) {
		t.Helper()
		report := filepath.Join(t.TempDir(), "r.json")
		code, out, stderr := bin(t, "", append(env, "PROCTOR_TEST_KEY=k"), "run", suitePath, "--config", cfg, "--out", report, "--progress", "off")
		if code == exitUsage {
			t.Fatalf("exit 2: %s", stderr)
		}
		return code, out
	}
	if code, _ := run(config("", 100)); code != exitFailed || calls.Load() != 1 {
		t.Fatalf("first run: exit %d after %d calls, want 1 after 1", code, calls.Load())
	}
	if fi, err := os.Stat(filepath.Join(cache, ".proctor-cache-key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v, %v; want mode 0600", fi, err)
	}
	entries, _ := filepath.Glob(filepath.Join(cache, "*.json"))
	if len(entries) != 1 {
		t.Fatalf("%d cache entries, want 1", len(entries))
	}
	if code, _ := run(config("replay", 100)); code != exitFailed || calls.Load() != 1 {
		t.Fatalf("replay of an intact entry: exit %d after %d calls", code, calls.Load())
	}
	b, _ := os.ReadFile(entries[0])
	edited := strings.Replace(string(b), `\"verdict\":\"fail\"`, `\"verdict\":\"pass\"`, 1)
	if edited == string(b) {
		t.Fatalf("no verdict to edit in %s", b)
	}
	os.WriteFile(entries[0], []byte(edited), 0o644)
	code, out := run(config("replay", 100))
	if code == exitOK || !strings.Contains(out, "ignored as not written by this cache") {
		t.Errorf("replay of an edited entry: exit %d, want no pass and a caveat:\n%s", code, out)
	}
	code, out = run(config("", 100))
	if code != exitFailed || calls.Load() != 2 || !strings.Contains(out, "MAC does not match") {
		t.Errorf("edited entry, read-write: exit %d after %d calls, want the judge asked again:\n%s", code, calls.Load(), out)
	}
	// A changed judge (max_tokens) is asked, not served the old reply.
	if code, _ := run(config("", 200)); code != exitFailed || calls.Load() != 3 {
		t.Errorf("changed judge: exit %d after %d calls, want a call", code, calls.Load())
	}
	// An entry written under the shared key is not this folder's.
	shared := "PROCTOR_CACHE_KEY=team-key-0123456789abcdef"
	entries, _ = filepath.Glob(filepath.Join(cache, "*.json"))
	for _, e := range entries {
		os.Remove(e)
	}
	run(config("", 100), shared)
	if code, _ := run(config("replay", 100), shared); code != exitFailed {
		t.Errorf("replay under the shared key: exit %d, want 1", code)
	}
	if code, out := run(config("replay", 100)); code == exitFailed || !strings.Contains(out, "ignored") {
		t.Errorf("replay under the folder's key of an entry written under the shared key: exit %d:\n%s", code, out)
	}
	// An entry that is a link to /dev/zero is refused, not read.
	entries, _ = filepath.Glob(filepath.Join(cache, "*.json"))
	os.Remove(entries[0])
	os.Symlink("/dev/zero", entries[0])
	if code, out := run(config("replay", 100)); code == exitOK || !strings.Contains(out, "not a regular file") {
		t.Errorf("/dev/zero entry: exit %d:\n%s", code, out)
	}
}
