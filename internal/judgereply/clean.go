package judgereply

import (
	"strings"
	"unicode"
)

// StripQuoted removes every region of s between an opening tag
// "<NAME-nonce>" and its closing tag "</NAME-nonce>" (to the end of s when
// unclosed), and any stray tag carrying nonce.
func StripQuoted(s, nonce string) string {
	if nonce == "" || !strings.Contains(s, nonce) {
		return s
	}
	var b strings.Builder
	for {
		open, name, end := findTag(s, nonce, false, "")
		if open < 0 {
			break
		}
		b.WriteString(s[:open])
		rest := s[end:]
		cl, _, cend := findTag(rest, nonce, true, name)
		if cl < 0 {
			s = ""
			break
		}
		s = rest[cend:]
	}
	b.WriteString(s)
	out := b.String()
	// Stray closing tags (and any other mention of the nonce) go too.
	for {
		i := strings.Index(out, nonce)
		if i < 0 {
			return out
		}
		lo := strings.LastIndexByte(out[:i], '<')
		if lo < 0 || i-lo > 40 {
			lo = i
		}
		hi := i + len(nonce)
		if j := strings.IndexByte(out[hi:], '>'); j >= 0 && j < 4 {
			hi += j + 1
		}
		out = out[:lo] + out[hi:]
	}
}

// findTag finds the first tag "<NAME-nonce>" (closing: "</NAME-nonce>") in
// s, with NAME equal to want when want is set. It returns the tag's start,
// NAME and the index after the tag, or -1.
func findTag(s, nonce string, closing bool, want string) (start int, name string, end int) {
	suffix := "-" + nonce + ">"
	off := 0
	for {
		i := strings.Index(s[off:], suffix)
		if i < 0 {
			return -1, "", 0
		}
		i += off
		lt := strings.LastIndexByte(s[:i], '<')
		if lt >= 0 && i-lt <= 40 {
			n := s[lt+1 : i]
			isClose := strings.HasPrefix(n, "/")
			n = strings.TrimPrefix(n, "/")
			if isClose == closing && IsTagName(n) && (want == "" || n == want) {
				return lt, n, i + len(suffix)
			}
		}
		off = i + len(suffix)
	}
}

// IsTagName reports whether n may name a prompt's quote tag: one or more
// lower-case ASCII letters, digits and underscores, as findTag reads them.
func IsTagName(n string) bool {
	if n == "" {
		return false
	}
	for _, r := range n {
		if (r < 'a' || r > 'z') && r != '_' && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// reasoningTags name the blocks a judge reasons in before it answers.
var reasoningTags = [...]string{"thinking", "think", "reasoning", "scratchpad"}

// stripThink removes closed reasoning blocks (<think>…</think>,
// <thinking>, <reasoning>, <scratchpad>; any case) and returns what they
// said, for the evidence. An unclosed opening tag, or a closing tag with
// no opening one, is removed alone: the text around it stays. One pass
// per tag name: linear in the reply.
func stripThink(s string) (string, []string) {
	var said []string
	for _, tag := range reasoningTags {
		open, close := "<"+tag+">", "</"+tag+">"
		if indexFold(s, open, 0) < 0 && indexFold(s, close, 0) < 0 {
			continue
		}
		lastClose := lastIndexFold(s, close)
		var b strings.Builder
		b.Grow(len(s))
		for i := 0; i < len(s); {
			switch {
			case s[i] == '<' && hasFold(s[i:], open):
				j := -1
				if i < lastClose {
					j = indexFold(s, close, i+len(open))
				}
				if j < 0 {
					i += len(open) // unclosed: the tag alone goes
					continue
				}
				b.WriteString("\n")
				if t := strings.TrimSpace(s[i+len(open) : j]); t != "" {
					said = append(said, t)
				}
				i = j + len(close)
			case s[i] == '<' && hasFold(s[i:], close):
				b.WriteString("\n") // a closing tag alone goes
				i += len(close)
			default:
				b.WriteByte(s[i])
				i++
			}
		}
		s = b.String()
	}
	return s, said
}

// hasFold reports whether s starts with prefix, ignoring ASCII case.
func hasFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// lastIndexFold is strings.LastIndex ignoring ASCII case, or -1.
func lastIndexFold(s, sub string) int {
	for i := len(s) - len(sub); i >= 0; i-- {
		if s[i] == '<' && strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// indexFold is strings.Index from off, ignoring ASCII case; sub is lower
// case ASCII.
func indexFold(s, sub string, off int) int {
	for i := off; i+len(sub) <= len(s); i++ {
		if s[i] != '<' {
			continue
		}
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// scan drops blockquote lines and fence markers, reads every JSON object
// in the rest and returns the prose around them. An inline code span is
// passed through whole (a JSON object inside it is quoted, not said); a
// "{" span that does not decode is dropped whole, never searched for
// objects inside it; an unclosed one runs to the end of the reply.
func (c *claims) scan(s string) string {
	s = quoteFences(s)
	var out strings.Builder
	out.Grow(len(s))
	for i := 0; i < len(s); {
		switch s[i] {
		case '`':
			if j := strings.IndexAny(s[i+1:], "`\n"); j >= 0 && s[i+1+j] == '`' {
				out.WriteString(s[i : i+2+j])
				i += j + 2
				continue
			}
		case '{':
			if quotedBefore(s, i) {
				// Quoted JSON is skipped to its end, and never past its
				// line: its quotes may be escaped beyond reading.
				eol := len(s)
				if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
					eol = i + k
				}
				end := objectEnd(s[:eol], i)
				clamped := end < 0
				if clamped {
					end = eol
				}
				out.WriteString(" … ")
				if t := strings.TrimRight(s[:i], " \t"); clamped && strings.HasSuffix(t, `"`) {
					out.WriteString(`"`) // close the quotation the skipped text left open
				} else if clamped && strings.HasSuffix(t, "“") {
					out.WriteString("”")
				}
				i = end
				continue
			}
			end := objectEnd(s, i)
			if end < 0 {
				if introduced(s, i) {
					c.truncated(s[i:])
				}
				i = len(s)
				continue
			}
			if inSentence(s, i, end) {
				// JSON the judge's sentence is about ("the code prints
				// {"result": 48}, but …"): quoted, not said.
				out.WriteString(" … ")
				i = end
				continue
			}
			c.object(s[i:end])
			out.WriteString(" ")
			i = end
			continue
		}
		out.WriteByte(s[i])
		i++
	}
	return out.String()
}

// inSentence reports whether the object s[i:end] stands inside a
// sentence: prose before it on its line that does not introduce it (no
// closing colon), and words after it on the same line.
func inSentence(s string, i, end int) bool {
	after := s[end:]
	if k := strings.IndexByte(after, '\n'); k >= 0 {
		after = after[:k]
	}
	return !introduced(s, i) && strings.IndexFunc(after, unicode.IsLetter) >= 0
}

// introduced reports whether the object at s[i] opens its line, or
// follows words that end with a colon ("My verdict: {…}").
func introduced(s string, i int) bool {
	before := strings.TrimSpace(s[strings.LastIndexByte(s[:i], '\n')+1 : i])
	return before == "" || strings.HasSuffix(before, ":") || strings.HasSuffix(before, "：") ||
		strings.TrimLeft(before, "[, \t") == "" // an element of a list

}

// truncated reads an object the reply was cut off inside: the top-level
// pairs that a comma closes are read, loosely; the value cut off is not.
// An object with another object or list inside is read not at all: what
// it nests cannot be told from what it says.
func (c *claims) truncated(span string) {
	if strings.ContainsAny(span[1:], "{[") {
		return
	}
	cut := strings.LastIndexByte(span, ',')
	for cut > 0 {
		if pairs, ok := decodePairs(dropTrailingCommas(span[:cut] + "}")); ok {
			if len(pairs) > 0 {
				c.loose = true
				c.object(span[:cut] + "}")
			}
			return
		}
		cut = strings.LastIndexByte(span[:cut], ',')
	}
}

// quoteFences drops blockquote lines, and fenced blocks that stand
// between the judge's own words: a block with text both before and after
// it quotes something (the judged output, most often), while a block that
// opens or closes the reply is the judge's answer, and only its fence
// lines go.
func quoteFences(s string) string {
	lines := strings.SplitAfter(s, "\n")
	fence := func(l string) bool {
		t := strings.TrimLeft(l, " \t")
		return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
	}
	// textFrom[k] is the first line at k or after with text of the
	// judge's own (not blank, not a blockquote), or len(lines).
	textFrom := make([]int, len(lines)+1)
	textFrom[len(lines)] = len(lines)
	for k := len(lines) - 1; k >= 0; k-- {
		textFrom[k] = textFrom[k+1]
		if t := strings.TrimSpace(lines[k]); t != "" && !strings.HasPrefix(t, ">") {
			textFrom[k] = k
		}
	}
	blank := func(from, to int) bool { return textFrom[from] >= to }
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), ">") {
			b.WriteString("\n")
			continue
		}
		if !fence(l) {
			b.WriteString(l)
			continue
		}
		end := len(lines)
		for j := i + 1; j < len(lines); j++ {
			if fence(lines[j]) {
				end = j
				break
			}
		}
		quote := !blank(0, i) && !blank(min(end+1, len(lines)), len(lines))
		b.WriteString("\n")
		for _, in := range lines[i+1 : end] {
			if quote || strings.HasPrefix(strings.TrimLeft(in, " \t"), ">") {
				b.WriteString("\n")
			} else {
				b.WriteString(in)
			}
		}
		if end < len(lines) {
			b.WriteString("\n")
		}
		i = end
	}
	return b.String()
}

// quotedBefore reports whether the object at s[i] opens right after a
// quotation mark: text the judge quotes, not its own reply.
func quotedBefore(s string, i int) bool {
	t := strings.TrimRight(s[:i], " \t")
	return strings.HasSuffix(t, `"`) || strings.HasSuffix(t, "“") || strings.HasSuffix(t, "'") || strings.HasSuffix(t, "‘")
}

// objectEnd returns the index after the JSON-ish object starting at s[i]
// ('{'), honouring strings and escapes, or -1 when it does not close.
func objectEnd(s string, i int) int {
	depth := 0
	var st strState
	for j := i; j < len(s); j++ {
		if !st.code(s[j]) {
			continue
		}
		switch s[j] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// strState tracks whether a byte of JSON text is inside a string.
type strState struct{ in, esc bool }

// code takes the next byte and reports whether it is outside every string
// (and not a quote).
func (st *strState) code(c byte) bool {
	switch {
	case st.esc:
		st.esc = false
		return false
	case st.in && c == '\\':
		st.esc = true
		return false
	case c == '"':
		st.in = !st.in
		return false
	}
	return !st.in
}

// quotePairs are the quotation marks whose spans in prose are quotes.
var quotePairs = [...][2]string{{"`", "`"}, {`"`, `"`}, {"“", "”"}, {"«", "»"}}

// openQuote reports the quotation mark s starts with, and its closer.
func openQuote(s string) (open, close string, ok bool) {
	for _, q := range quotePairs {
		if strings.HasPrefix(s, q[0]) {
			return q[0], q[1], true
		}
	}
	return "", "", false
}

// removeSpans replaces every quoted span of line (inline code, double
// quotes) with " … ". An unclosed quotation mark quotes the rest of the
// line.
func removeSpans(line string) string {
	if !strings.ContainsAny(line, "`\"“«") {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		open, close, ok := openQuote(line[i:])
		if !ok {
			b.WriteByte(line[i])
			i++
			continue
		}
		j := strings.Index(line[i+len(open):], close)
		if j >= 0 && selfQuote(line[:i]) {
			// "should be rated as follows: "Rating: [[6]]"": the judge
			// quoting its own claim says it.
			b.WriteString(line[i+len(open) : i+len(open)+j])
			i += len(open) + j + len(close)
			continue
		}
		b.WriteString(" … ")
		if j < 0 {
			break
		}
		i += len(open) + j + len(close)
	}
	return b.String()
}

// unwrapValue reads a labelled line's value: when it starts with a quoted
// span ("Verdict: `PASS`"), the span is the judge's own value and is kept;
// every other span is removed.
func unwrapValue(v string) string {
	t := strings.TrimLeft(v, " \t*_")
	open, close, ok := openQuote(t)
	if !ok {
		return removeSpans(v)
	}
	j := strings.Index(t[len(open):], close)
	if j < 0 {
		return removeSpans(v)
	}
	return t[len(open):len(open)+j] + removeSpans(t[len(open)+j+len(close):])
}

// selfIntro are the words with which a judge introduces its own claim in
// quotation marks.
var selfIntro = [...]string{
	"rated as follows", "rate it as follows", "rate the response as follows", "rating is as follows",
	"my rating is", "my final rating is", "my score is", "my final score is", "my verdict is",
	"my final verdict is", "i rate it", "i would rate it", "i rate this", "i would rate this",
	"i give it", "i would give it",
}

// selfQuote reports whether before, the text ahead of a quotation on its
// line, ends with words that introduce the judge's own claim.
func selfQuote(before string) bool {
	t := strings.ToLower(strings.TrimRight(before, " \t:"))
	for _, p := range selfIntro {
		if strings.HasSuffix(t, p) {
			return true
		}
	}
	return false
}
