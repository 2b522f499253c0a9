package fastre

// The backtracking dialect: patterns RE2 refuses because they need
// backtracking run on github.com/dlclark/regexp2 instead, after a
// translation that keeps every RE2 construct's RE2 meaning.
//
// regexp2 is a port of .NET's engine. Its RE2 option gives \d, \w and \s
// their ASCII RE2 meaning, accepts (?P<name>...) and [[:alpha:]], and is the
// mode used here. Where .NET still differs from RE2 or from what users paste
// from Python and PCRE, Translate rewrites the pattern:
//
//   - Groups are numbered left to right as in RE2, Python and PCRE. .NET
//     numbers named groups after unnamed ones, so every capturing group is
//     written (?<N>...) with its RE2 number, and every reference by name
//     (\k<name>, \k'name', \k{name}, (?P=name), (?(name)...)) becomes a
//     reference by that number.
//   - Possessive quantifiers (X*+, X++, X?+, X{n,m}+), which .NET lacks,
//     become atomic groups: (?>X*) and so on, X being the atom before the
//     quantifier: one character, an escape, a class or a group.
//   - \b and \B keep RE2's ASCII word boundary (.NET's is Unicode).
//   - $ outside (?m) is \z, as in RE2 (.NET's also matches before a final
//     newline).
//   - Classes ([...], \pL, \p{Greek}) become the explicit ranges RE2 reads
//     in them: .NET knows fewer class names and would read [a-z-[aeiou]]
//     as a subtraction. Under (?i) or IgnoreCase, letters and classes are
//     RE2's folded classes, since .NET folds by lowercasing and keeps s and
//     the long s apart (dialectclass.go).
//   - \Q...\E becomes escaped literals and octal escapes become \x{...}.
//
// The same walk writes a skeleton: the pattern with each construct of the
// dialect replaced by an RE2 group of the same shape (a lookaround or an
// atomic group by (?:...), a backreference by (?:), a conditional by a group
// of its branches). RE2 must compile the skeleton, so everything outside the
// dialect's constructs is checked by RE2's own rules: an unknown escape or a
// repeat over 1000 is refused as RE2 refuses it, never taken as regexp2's
// lenient reading.

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// Feature is a set of the dialect's constructs found in a pattern.
type Feature uint8

// The constructs that need backtracking.
const (
	Lookahead Feature = 1 << iota
	Lookbehind
	Backreference
	Conditional
	AtomicGroup
	Possessive
)

var featureNames = []string{"lookahead", "lookbehind", "backreference", "conditional", "atomic group", "possessive quantifier"}

// String lists the constructs in f, comma-separated ("lookahead, backreference").
func (f Feature) String() string {
	var names []string
	for i, n := range featureNames {
		if f&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// ErrUnsupported is wrapped by the error of [Translate] and
// [CompileBacktracking] for a construct neither engine supports (recursion,
// branch reset, the U flag with backtracking constructs, a conditional on
// something other than a group or a lookaround).
var ErrUnsupported = errors.New("unsupported construct")

// Translation is a pattern rewritten for regexp2 in RE2 mode.
type Translation struct {
	// Pattern is the pattern for regexp2 (compiled with regexp2.RE2).
	Pattern string
	// Skeleton is the pattern with each dialect construct replaced by an
	// RE2 group of the same shape; RE2 must compile it.
	Skeleton string
	// Features are the dialect's constructs the pattern uses; none for a
	// pattern of plain RE2 syntax.
	Features Feature
}

// Translate rewrites pattern for regexp2; ignoreCase says that the whole
// pattern is matched case-insensitively, as (?i) does. It does not compile
// either output; its error is for a reference to a group that does not
// exist or a construct neither engine supports ([ErrUnsupported]).
func Translate(pattern string, ignoreCase bool) (Translation, error) {
	// The first walk counts and names the groups; the second resolves
	// references with them.
	first := &translator{p: pattern, names: map[string]int{}}
	_ = first.run()
	t := &translator{p: pattern, resolve: true, groups: first.ncap, names: first.names}
	t.mode.fold = ignoreCase
	if err := t.run(); err != nil {
		return Translation{}, err
	}
	return Translation{Pattern: string(t.bt), Skeleton: string(t.sk), Features: t.feats}, nil
}

// BacktrackOptions configure [CompileBacktracking].
type BacktrackOptions struct {
	// Full makes the Regexp match only the whole text, as \A(?:P)\z.
	Full bool
	// IgnoreCase matches letters case-insensitively.
	IgnoreCase bool
	// Timeout is the budget of one match (regexp2's MatchTimeout); a match
	// past it returns an error. It must be positive: backtracking has no
	// bound of its own.
	Timeout time.Duration
}

// CompileBacktracking compiles a pattern that RE2 refuses for the
// backtracking engine: it translates the pattern, checks its skeleton with
// RE2 and compiles the translation with regexp2 in RE2 mode, with the match
// budget set on this Regexp alone. A pattern with none of the dialect's
// constructs gets RE2's own error. The error says which constructs the
// pattern uses when one of the steps refuses it.
func CompileBacktracking(pattern string, opts BacktrackOptions) (*regexp2.Regexp, error) {
	if opts.Timeout <= 0 {
		return nil, fmt.Errorf("fastre: match timeout %v, want a positive budget", opts.Timeout)
	}
	tr, err := Translate(pattern, opts.IgnoreCase)
	if err != nil {
		return nil, err
	}
	if _, err := regexp.Compile(tr.Skeleton); err != nil {
		if tr.Features == 0 {
			return nil, err
		}
		return nil, fmt.Errorf("uses %v, and the rest is not valid RE2 syntax: %w", tr.Features, err)
	}
	if tr.Features == 0 {
		// Plain RE2 syntax that RE2 still refused (it should not happen):
		// RE2's verdict stands.
		_, err := regexp.Compile(pattern)
		return nil, cmp.Or(err, errors.New("plain RE2 syntax: compile it with Compile"))
	}
	ro := regexp2.RegexOptions(regexp2.RE2)
	if opts.IgnoreCase {
		ro |= regexp2.IgnoreCase
	}
	// Compile the translation alone first so that wrapping it cannot change
	// its meaning (`a)|(b` must not become a valid `\A(?:a)|(b)\z`).
	re, err := regexp2.Compile(tr.Pattern, ro)
	if err == nil && opts.Full {
		re, err = regexp2.Compile(`\A(?:`+tr.Pattern+`)\z`, ro)
	}
	if err != nil {
		return nil, fmt.Errorf("uses %v, which the backtracking engine refuses here: %w", tr.Features, err)
	}
	re.MatchTimeout = opts.Timeout
	return re, nil
}

// translator walks a pattern once, writing the regexp2 pattern (bt) and
// the RE2 skeleton (sk) side by side.
type translator struct {
	p       string
	i       int
	bt, sk  []byte
	feats   Feature
	resolve bool           // second walk: references are checked
	groups  int            // capturing groups (from the first walk)
	names   map[string]int // group name to number (from the first walk)
	ncap    int            // capturing groups opened so far
	// atom is where the last quantifiable atom starts in bt; -1 for none.
	atom  int
	stack []group
	mode  mode
}

// mode holds the flags in force that the translation depends on.
type mode struct {
	multi bool // (?m): $ is the end of a line
	// fold is (?i). regexp2 folds case by lowercasing, so that s and the
	// long s (U+017F) differ for it while RE2 folds them together; under
	// fold, letters and classes are written as RE2's folded classes.
	fold bool
}

// group is an open group: where it starts in bt and the flags to restore
// when it closes.
type group struct {
	bt   int
	mode mode
}

func (t *translator) run() error {
	t.atom = -1
	for t.i < len(t.p) {
		if err := t.step(); err != nil {
			return err
		}
	}
	return nil
}

// emit writes s to both outputs.
func (t *translator) emit(s string) { t.both(s, s) }

func (t *translator) both(bt, sk string) {
	t.bt = append(t.bt, bt...)
	t.sk = append(t.sk, sk...)
}

// step translates one token.
func (t *translator) step() error {
	c := t.p[t.i]
	start := len(t.bt)
	switch c {
	case '\\':
		return t.escape(start)
	case '[':
		t.class()
	case '(':
		return t.open()
	case ')':
		t.close()
		return nil
	case '|':
		t.emit("|")
		t.i++
		t.atom = -1
		return nil
	case '*', '+', '?':
		t.quantifier(1)
		return nil
	case '{':
		if n := repeatLen(t.p[t.i:]); n > 0 {
			t.quantifier(n)
			return nil
		}
		t.emit("{")
		t.i++
	case '$':
		if t.mode.multi {
			t.emit("$")
		} else {
			t.both(`\z`, "$")
		}
		t.i++
	default:
		r, n := utf8.DecodeRuneInString(t.p[t.i:])
		lit := t.p[t.i : t.i+n]
		if bt, ok := t.folded(r); ok {
			t.both(bt, lit)
		} else {
			t.emit(lit)
		}
		t.i += n
	}
	t.atom = start
	return nil
}

// repeatLen returns the length of a {n}, {n,} or {n,m} repeat at the start
// of s, or 0 when s does not start with one (then { is a literal, as in RE2).
func repeatLen(s string) int {
	j := 1
	digits := func() int {
		k := j
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j - k
	}
	if digits() == 0 {
		return 0
	}
	if j < len(s) && s[j] == ',' {
		j++
		digits()
	}
	if j < len(s) && s[j] == '}' {
		return j + 1
	}
	return 0
}

// quantifier copies a quantifier of n bytes and an optional lazy ? after it;
// a + after it makes it possessive, written as an atomic group around the
// atom and the quantifier.
func (t *translator) quantifier(n int) {
	q := t.p[t.i : t.i+n]
	t.i += n
	if t.i < len(t.p) && t.p[t.i] == '+' && t.atom >= 0 {
		t.i++
		t.feats |= Possessive
		t.bt = append(slices.Insert(t.bt, t.atom, []byte("(?>")...), q+")"...)
		t.sk = append(t.sk, q...)
		return
	}
	t.emit(q)
	if t.i < len(t.p) && t.p[t.i] == '?' {
		t.emit("?")
		t.i++
	}
}

// close ends the innermost group; the group is the atom a quantifier after
// it applies to.
func (t *translator) close() {
	t.emit(")")
	t.i++
	t.atom = -1
	if n := len(t.stack); n > 0 {
		g := t.stack[n-1]
		t.stack = t.stack[:n-1]
		t.atom, t.mode = g.bt, g.mode
	}
}

// push records a group opened at bt offset start.
func (t *translator) push(start int) {
	t.stack = append(t.stack, group{bt: start, mode: t.mode})
	t.atom = -1
}

// capture opens the next capturing group; sk is its RE2 spelling.
func (t *translator) capture(start int, sk string, n int) {
	t.ncap++
	t.both("(?<"+strconv.Itoa(t.ncap)+">", sk)
	t.i += n
	t.push(start)
}

// open translates the start of a group.
func (t *translator) open() error {
	start := len(t.bt)
	rest := t.p[t.i:]
	if !strings.HasPrefix(rest, "(?") {
		t.capture(start, "(", 1)
		return nil
	}
	for _, la := range []struct {
		prefix string
		f      Feature
	}{{"(?=", Lookahead}, {"(?!", Lookahead}, {"(?<=", Lookbehind}, {"(?<!", Lookbehind}, {"(?>", AtomicGroup}} {
		if strings.HasPrefix(rest, la.prefix) {
			t.feats |= la.f
			t.both(la.prefix, "(?:")
			t.i += len(la.prefix)
			t.push(start)
			return nil
		}
	}
	switch {
	case strings.HasPrefix(rest, "(?P<"), strings.HasPrefix(rest, "(?<"):
		n := strings.IndexByte(rest, '>')
		if n < 0 {
			t.emit(rest) // RE2 explains the missing >
			t.i = len(t.p)
			return nil
		}
		if name := rest[strings.IndexByte(rest, '<')+1 : n]; !t.resolve {
			if _, dup := t.names[name]; !dup {
				t.names[name] = t.ncap + 1
			}
		}
		t.capture(start, rest[:n+1], n+1)
		return nil
	case strings.HasPrefix(rest, "(?P="):
		return t.namedRef(start, 4, ')')
	case strings.HasPrefix(rest, "(?("):
		return t.conditional(start)
	case strings.HasPrefix(rest, "(?P>"), strings.HasPrefix(rest, "(?R"), strings.HasPrefix(rest, "(?|"),
		strings.HasPrefix(rest, "(?&"), len(rest) > 2 && rest[2] >= '0' && rest[2] <= '9':
		return fmt.Errorf("%w: %s (recursion and branch reset need a PCRE engine)", ErrUnsupported, clipTok(rest))
	}
	return t.flags(start)
}

// flags copies (?flags) or (?flags:. The U (ungreedy) flag has no regexp2
// spelling.
func (t *translator) flags(start int) error {
	rest := t.p[t.i:]
	j := 2
	for j < len(rest) && rest[j] != ')' && rest[j] != ':' {
		j++
	}
	fl := rest[2:min(j, len(rest))]
	if strings.ContainsRune(fl, 'U') {
		return fmt.Errorf("%w: the U (ungreedy) flag in %s with backtracking constructs", ErrUnsupported, clipTok(rest))
	}
	m := mode{multi: flagOn(fl, 'm', t.mode.multi), fold: flagOn(fl, 'i', t.mode.fold)}
	if j < len(rest) && rest[j] == ':' {
		t.emit(rest[:j+1])
		t.i += j + 1
		t.push(start)
		t.mode = m
		return nil
	}
	t.emit(rest[:min(j+1, len(rest))])
	t.i += min(j+1, len(rest))
	t.mode = m
	return nil
}

// flagOn reports whether flag f is on after the flags fl (such as "i-m"),
// given whether it was on before.
func flagOn(fl string, f byte, was bool) bool {
	if k := strings.IndexByte(fl, f); k >= 0 {
		return !strings.Contains(fl[:k], "-")
	}
	return was
}

// conditional translates (?(cond)yes|no). The condition is a group number,
// a group name (bare, <name> or 'name') or a lookaround; regexp2 reads any
// other condition as a lookahead of its text, which neither RE2, Python nor
// PCRE means, so it is refused.
func (t *translator) conditional(start int) error {
	t.feats |= Conditional
	rest := t.p[t.i:]
	for _, la := range []string{"(?(?=", "(?(?!", "(?(?<=", "(?(?<!"} {
		if strings.HasPrefix(rest, la) {
			t.both("(?", "(?:")
			t.i += 2
			t.push(start)
			return t.open()
		}
	}
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return fmt.Errorf("%w: unterminated condition in %s", ErrUnsupported, clipTok(rest))
	}
	cond := rest[3:end]
	if len(cond) >= 2 && (cond[0] == '<' && cond[len(cond)-1] == '>' || cond[0] == '\'' && cond[len(cond)-1] == '\'') {
		cond = cond[1 : len(cond)-1]
	}
	n, err := t.group(cond, "conditional "+clipTok(rest[:end+1]))
	if err != nil {
		return err
	}
	t.both("(?("+strconv.Itoa(n)+")", "(?:")
	t.i += end + 1
	t.push(start)
	return nil
}

// group resolves a group number or name used by what (for errors).
func (t *translator) group(ref, what string) (int, error) {
	if !t.resolve {
		return 1, nil
	}
	if n, err := strconv.Atoi(ref); err == nil && ref[0] != '+' && ref[0] != '-' {
		if n < 1 || n > t.groups {
			return 0, fmt.Errorf("%s refers to group %d, and the pattern has %d", what, n, t.groups)
		}
		return n, nil
	}
	if n, ok := t.names[ref]; ok {
		return n, nil
	}
	if ref == "" || strings.Trim(ref, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" {
		return 0, fmt.Errorf("%w: %s needs a group number, a group name or a lookaround", ErrUnsupported, what)
	}
	return 0, fmt.Errorf("%s refers to no group named %q", what, ref)
}

// backref writes a reference to group n.
func (t *translator) backref(n int) {
	t.feats |= Backreference
	t.both(`\k<`+strconv.Itoa(n)+`>`, "(?:)")
}

// namedRef translates a reference whose name starts skip bytes into the
// token and ends at the byte end: \k<name>, \k'name', \k{name}, (?P=name).
func (t *translator) namedRef(start, skip int, end byte) error {
	rest := t.p[t.i:]
	k := strings.IndexByte(rest[skip:], end)
	if k < 0 {
		return fmt.Errorf("%w: unterminated reference %s", ErrUnsupported, clipTok(rest))
	}
	tok := rest[:skip+k+1]
	n, err := t.group(rest[skip:skip+k], "backreference "+tok)
	if err != nil {
		return err
	}
	t.backref(n)
	t.i += len(tok)
	t.atom = start
	return nil
}

// escape translates a backslash escape outside a class.
func (t *translator) escape(start int) error {
	rest := t.p[t.i:]
	if len(rest) < 2 {
		t.emit(rest) // RE2 explains the trailing backslash
		t.i++
		return nil
	}
	t.atom = start
	switch c := rest[1]; {
	case c == 'k' && len(rest) > 2 && strings.IndexByte("<'{", rest[2]) >= 0:
		return t.namedRef(start, 3, closer(rest[2]))
	case c >= '1' && c <= '9' && !(c <= '7' && len(rest) > 2 && rest[2] >= '0' && rest[2] <= '7'):
		n, err := t.group(rest[1:2], `backreference \`+rest[1:2])
		if err != nil {
			return err
		}
		t.backref(n)
		t.i += 2
	case c >= '0' && c <= '7':
		t.octal()
	case c == 'Q':
		t.quote()
	case c == 'b' || c == 'B':
		t.boundary(c == 'B')
	case c == 'p' || c == 'P' || t.mode.fold && (c == 'w' || c == 'W'):
		n := escapeLen(rest)
		bt, ok := ranges("["+rest[:n]+"]", t.mode.fold)
		if !ok {
			bt = rest[:n]
		}
		t.both(bt, rest[:n])
		t.i += n
	default:
		n := escapeLen(rest)
		t.emit(rest[:n])
		t.i += n
	}
	return nil
}

// closer returns the byte that closes a reference opened by c.
func closer(c byte) byte {
	switch c {
	case '<':
		return '>'
	case '{':
		return '}'
	}
	return c
}

// escapeLen returns the length of the escape at the start of s (at least
// two bytes): \p{Greek} and \x{41} to their brace, \pL with its letter,
// \x41 with its two digits, others with one rune.
func escapeLen(s string) int {
	switch s[1] {
	case 'p', 'P', 'x':
		if len(s) > 2 && s[2] == '{' {
			if k := strings.IndexByte(s, '}'); k > 0 {
				return k + 1
			}
			return len(s)
		}
		if s[1] == 'x' {
			return min(4, len(s))
		}
		_, n := utf8.DecodeRuneInString(s[2:])
		return 2 + n
	}
	_, n := utf8.DecodeRuneInString(s[1:])
	return 1 + n
}

// octal translates \0 to \777 as RE2 reads them (up to three octal digits)
// into \x{...}, which regexp2 cannot take for a backreference.
func (t *translator) octal() {
	j := t.i + 1
	v := 0
	for k := 0; k < 3 && j < len(t.p) && t.p[j] >= '0' && t.p[j] <= '7'; k++ {
		v = v*8 + int(t.p[j]-'0')
		j++
	}
	t.both(`\x{`+strconv.FormatInt(int64(v), 16)+`}`, t.p[t.i:j])
	t.i = j
}

// quote translates \Q...\E (or to the end) into escaped literals; a
// quantifier after it applies to its last character.
func (t *translator) quote() {
	t.i += 2
	end := strings.Index(t.p[t.i:], `\E`)
	lit := t.p[t.i:]
	if end >= 0 {
		lit = lit[:end]
	}
	for _, r := range lit {
		t.atom = len(t.bt)
		t.emit(regexp.QuoteMeta(string(r)))
	}
	t.i += len(lit)
	if end >= 0 {
		t.i += 2
	}
}

// boundary writes RE2's ASCII word boundary (\b) or its negation (\B).
func (t *translator) boundary(negate bool) {
	// (?-i:...): RE2's \b never folds, and regexp2 would take the Kelvin
	// sign for a k, a word character.
	bt, sk := `(?-i:(?<=\w)(?!\w)|(?<!\w)(?=\w))`, `\b`
	if negate {
		bt, sk = `(?-i:(?<=\w)(?=\w)|(?<!\w)(?!\w))`, `\B`
	}
	t.both(bt, sk)
	t.i += 2
}

// clipTok quotes the start of a construct for an error message.
func clipTok(s string) string {
	if len(s) > 12 {
		s = s[:12] + "…"
	}
	return "`" + s + "`"
}
