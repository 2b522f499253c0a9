package judgereply

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Label kinds.
const (
	kindVerdict = iota + 1
	kindAnswer
	kindScore
	kindFinalScore
	kindCategory
	kindConfidence
	kindField
)

// labels maps every label read (lower case, single spaces) to its kind.
// Every lookup reads underscores as spaces, so "final_verdict" is
// "final verdict".
var labels = map[string]int{
	"verdict": kindVerdict, "final verdict": kindVerdict, "overall verdict": kindVerdict,
	"decision": kindVerdict, "final decision": kindVerdict, "judgement": kindVerdict,
	"judgment": kindVerdict, "final judgement": kindVerdict, "final judgment": kindVerdict,
	"conclusion": kindVerdict, "my verdict": kindVerdict,
	"my final verdict": kindVerdict,

	"final answer": kindAnswer, "answer": kindAnswer, "result": kindAnswer, "final result": kindAnswer,
	"grade": kindAnswer, "final grade": kindAnswer, "choice": kindAnswer, "final choice": kindAnswer,
	"selection": kindAnswer,

	"score": kindScore, "rating": kindScore, "total score": kindScore,
	"final score": kindFinalScore, "overall score": kindFinalScore, "final rating": kindFinalScore,
	"overall rating": kindFinalScore, "overall": kindAnswer,

	"category": kindCategory, "label": kindCategory, "classification": kindCategory, "class": kindCategory,
	"final category": kindCategory, "final label": kindCategory, "final classification": kindCategory,

	"confidence": kindConfidence,

	"criterion": kindField, "violations": kindField, "violation": kindField, "basis": kindField,
	"reasoning": kindField, "reason": kindField, "explanation": kindField, "rationale": kindField,
	"feedback": kindField, "analysis": kindField, "justification": kindField,
}

// labelled reads the value of a labelled claim: a line, a JSON string
// value, a heading's next line or a tag's content. label is lower case.
func (c *claims) labelled(label, val string) {
	label = strings.ReplaceAll(label, "_", " ")
	kind := labels[label]
	if label == "grade" || label == "final grade" {
		if w, rest, _ := head(val); len(w) == 1 && strings.Contains("CIP", w) && strings.TrimSpace(strings.Trim(rest, " .*_")) == "" {
			// Inspect's model_graded_qa: C correct, I incorrect, P partial.
			c.grades = append(c.grades, w)
			c.choices = append(c.choices, w)
			c.loose = true
			return
		}
	}
	switch kind {
	case kindVerdict, kindAnswer:
		v, canonical, ok := c.verdictValue(val)
		switch {
		case ok:
			if kind == kindVerdict && strings.Contains(label, "final") {
				// "Final verdict:" decides over verdicts the reasoning
				// gave along the way, as a final score does.
				c.finalVerdicts = append(c.finalVerdicts, v)
				c.loose = c.loose || !canonical || label != "verdict"
			} else {
				c.verdict(v, !canonical || kind != kindVerdict || label != "verdict")
			}
			if kind == kindAnswer {
				w, _, _ := head(val)
				c.choices = append(c.choices, w)
			}
		case c.err != nil:
		case c.bracketValue(val):
		default:
			if w, _, _ := head(val); verdictWords[strings.ToLower(w)].v != "" {
				// A verdict word read and refused ("pass?", "pass if
				// ..."): not an answer either.
				c.loose = true
				return
			}
			if s, ok := parseScore(val); ok && kind == kindAnswer {
				c.scores = append(c.scores, s)
			} else if ch := choiceOf(cutExplanation(val)); ch != "" {
				c.choices = append(c.choices, ch)
			}
			c.loose = true
		}
	case kindScore, kindFinalScore:
		s, ok := parseScore(val)
		if !ok {
			return
		}
		if label != "score" || s.of != 0 || s.pct || !isPlainNumber(val) {
			c.loose = true
		}
		if kind == kindFinalScore {
			c.finalScores = append(c.finalScores, s)
		} else {
			c.scores = append(c.scores, s)
		}
	case kindCategory:
		if ch := choiceOf(val); ch != "" {
			c.categories = append(c.categories, ch)
		}
	case kindConfidence:
		w, _, _ := head(val)
		switch strings.ToLower(w) {
		case "high":
			c.confidence = "high"
		case "low", "medium", "moderate":
			c.confidence = "low"
		}
	case kindField:
		c.field(label, val)
	}
}

// field keeps a free-text field the judge wrote.
func (c *claims) field(key, val string) {
	val = strings.TrimSpace(val)
	switch strings.ReplaceAll(key, "_", " ") {
	case "criterion", "satisfy", "what would satisfy":
		c.criterion = val
	case "violations", "violation":
		c.violations = val
	case "basis":
		c.basis = val
	case "reasoning", "reason", "explanation", "rationale", "feedback", "analysis", "justification",
		"concise explanation", "short explanation", "brief explanation", "detailed explanation":
		if i := strings.Index(strings.ToUpper(val), "[RESULT]"); i >= 0 {
			val = strings.TrimSpace(val[:i])
		}
		if val != "" {
			c.reasoning = append(c.reasoning, val)
		}
	}
}

func (c *claims) verdict(v string, loose bool) {
	c.verdicts = append(c.verdicts, v)
	c.loose = c.loose || loose
}

// verdictWords maps the words read as a verdict; canonical are the
// prompt's own.
var verdictWords = map[string]struct {
	v         string
	canonical bool
	strong    bool // read at the start of a bare line with explanation after it
}{
	"pass": {Pass, true, true}, "passed": {Pass, true, true}, "passes": {Pass, false, true},
	"fail": {Fail, true, true}, "failed": {Fail, true, true}, "fails": {Fail, false, true},
	"abstain": {Abstain, true, true}, "abstained": {Abstain, false, true}, "abstention": {Abstain, false, true},
	"correct": {Pass, false, true}, "incorrect": {Fail, false, true},
	"yes": {Pass, false, false}, "y": {Pass, false, false}, "true": {Pass, false, false}, "1": {Pass, false, false},
	"no": {Fail, false, false}, "n": {Fail, false, false}, "false": {Fail, false, false}, "0": {Fail, false, false},
}

var (
	passSigns = "✅✔✓☑👍"
	failSigns = "❌✗✘✖👎🚫⛔"
)

// head splits s into the decoration before its first word, the word
// (letters and digits) and the rest.
func head(s string) (word, rest, deco string) {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			break
		}
		i += n
	}
	deco = s[:i]
	j := i
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		j += n
	}
	return s[i:j], s[j:], deco
}

// negators turn the verdict word after them around.
var negators = map[string]bool{
	"not": true, "never": true, "no": true, "isn't": true, "doesn't": true, "didn't": true, "don't": true,
	"can't": true, "cannot": true, "won't": true, "wasn't": true, "aren't": true, "nothing": true, "none": true,
}

// verdictValue reads a labelled verdict's value: a verdict word with any
// decoration, then optionally an explanation ("FAIL - wrong year", "PASS
// (high confidence)", "✅ PASS"). A value whose decoration or explanation
// says the opposite makes the reply contradictory.
func (c *claims) verdictValue(val string) (v string, canonical, ok bool) {
	val = strings.TrimSpace(val)
	w, rest, deco := head(val)
	if strings.EqualFold(w, "not") {
		// "Not correct", "not pass": a negated pass word is a fail.
		w2, rest2, _ := head(rest)
		if vw, ok := verdictWords[strings.ToLower(w2)]; ok && vw.strong && vw.v == Pass && strings.TrimSpace(rest[:len(rest)-len(rest2)-len(w2)]) == "" {
			if alternative(rest2) || c.opposite(Fail, rest2, false) {
				return "", false, false
			}
			return Fail, false, true
		}
	}
	vw, known := verdictWords[strings.ToLower(w)]
	if !known || strings.ContainsAny(deco, "/|") {
		return "", false, false
	}
	if alternative(rest) || conditional(rest) {
		return "", false, false
	}
	if c.opposite(vw.v, deco+" "+rest, !vw.strong) {
		return "", false, false
	}
	return vw.v, vw.canonical && strings.Trim(val, " *_`'\".!") == w, true
}

// alternative reports whether rest, the text after a verdict word, opens
// with "/", "|" or "?": "pass/fail", "pass | fail", "pass?" are no verdict.
func alternative(rest string) bool {
	r := strings.TrimSpace(rest)
	return r != "" && strings.IndexByte("/|?", r[0]) >= 0
}

// opposite reports, and records as a contradiction, text after or around a
// verdict that says the other verdict: an opposite sign or verdict word
// ("not" turning a word around).
func (c *claims) opposite(v, text string, weak bool) bool {
	if v == Abstain {
		return false
	}
	against := failSigns
	if v == Fail {
		against = passSigns
	}
	if strings.ContainsAny(text, against) {
		c.fail("%s beside the sign %q", v, text)
		return true
	}
	prev := ""
	for _, t := range words(text) {
		if vw, ok := verdictWords[t]; ok && (vw.strong || weak && len(t) > 1) && vw.v != Abstain {
			got := vw.v
			if negators[prev] {
				got = flip(got)
			}
			if got != v {
				c.fail("%s explained by %q", v, clip(text))
				return true
			}
		}
		prev = t
	}
	return false
}

func flip(v string) string {
	if v == Pass {
		return Fail
	}
	return Pass
}

// words splits s into lower-case words (letters, digits, apostrophes).
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(s, "’", "'")), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}

// bareVerdict reads a verdict word standing at the start of a line of its
// own: alone ("PASS", "**FAIL**", "Yes."), or a strong word (pass, fail,
// correct, incorrect) with an explanation after a dash, comma, period or
// parenthesis ("**FAIL** — wrong year"). alone allows a weak word (yes,
// no, true, false) an explanation too: the whole reply is that line.
func (c *claims) bareVerdict(line string, alone bool) {
	t := strings.TrimSpace(trimListMarker(line))
	w, rest, deco := head(t)
	vw, ok := verdictWords[strings.ToLower(w)]
	if !ok || w == "0" || w == "1" || strings.TrimFunc(deco, isDecoration) != "" {
		return
	}
	r := strings.TrimLeftFunc(rest, isDecoration)
	explained := strings.Trim(r, " \t.!") != ""
	if !vw.strong && !alone && c.asked {
		// "Does it contain errors?\nNo": the judge answers its own
		// question, whose sense is not the criterion's.
		return
	}
	if explained {
		sep := strings.TrimLeft(r, " \t")
		okSep := strings.HasPrefix(r, ",") || strings.HasPrefix(r, ".") || strings.HasPrefix(r, ";") ||
			strings.HasPrefix(r, "!") || strings.HasPrefix(sep, "(") || strings.HasPrefix(sep, "—") ||
			strings.HasPrefix(sep, "–") || strings.HasPrefix(sep, "- ") || strings.HasPrefix(sep, "-\t")
		if !okSep || !(vw.strong || alone) {
			return
		}
	}
	if c.opposite(vw.v, deco+" "+rest, !vw.strong) {
		return
	}
	c.bare = append(c.bare, vw.v)
	c.loose = true
}

// isDecoration reports runes that decorate a word: space, emphasis,
// brackets, emoji and other symbols.
func isDecoration(r rune) bool {
	switch r {
	case ' ', '\t', '*', '_', '`', '~', '#', '[', ']', '<', '>', '"', '\'', '“', '”':
		return true
	}
	return unicode.Is(unicode.So, r) || unicode.Is(unicode.Sk, r) || r == 0xFE0F
}

// trimListMarker removes a list or heading marker at the start of line.
func trimListMarker(line string) string {
	t := strings.TrimLeft(line, " \t")
	for _, m := range [...]string{"- ", "* ", "+ ", "• "} {
		if strings.HasPrefix(t, m) {
			return t[len(m):]
		}
	}
	if h := strings.TrimLeft(t, "#"); len(h) < len(t) && (h == "" || h[0] == ' ') {
		return h
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && i < len(t)-1 && (t[i] == '.' || t[i] == ')') && t[i+1] == ' ' {
		return t[i+2:]
	}
	return t
}

// splitLabel splits "Label: value" (also "Label = value", "Label - value",
// "Label — value"), tolerating list and heading markers, emphasis around
// the label, and a label quoted whole as a JSON key ("verdict": ...). It
// returns only labels the reader knows, lower case.
func splitLabel(line string) (label, val string, ok bool) {
	label, val, _, ok = splitLabelSep(line)
	return label, val, ok
}

// splitLabelSep is splitLabel, also returning the separator found.
func splitLabelSep(line string) (label, val, sep string, ok bool) {
	t := strings.TrimSpace(trimListMarker(line))
	for _, sep := range [...]string{":", "：", "=", " - ", " — ", " – ", "—", "–"} {
		i := strings.Index(t, sep)
		if i <= 0 || i > 40 {
			continue
		}
		l, okL := labelName(t[:i])
		if !okL {
			continue
		}
		v := strings.TrimSpace(t[i+len(sep):])
		v = strings.TrimLeft(v, "*_ \t")
		v = strings.TrimRight(v, " \t,")
		return l, v, sep, true
	}
	return "", "", "", false
}

// labelName reads a label written plain, in emphasis, or quoted whole.
func labelName(s string) (string, bool) {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, "*_")
	if len(s) >= 2 && (s[0] == '"' || s[0] == '`' || s[0] == '\'') {
		if s[len(s)-1] != s[0] {
			return "", false
		}
		s = s[1 : len(s)-1]
	}
	s = strings.Join(strings.Fields(strings.ToLower(strings.Trim(s, "*_ \t"))), " ")
	if strings.ContainsAny(s, "\"'`") {
		return "", false
	}
	_, ok := labels[strings.ReplaceAll(s, "_", " ")]
	return s, ok
}

// headingLabel reads a line that is only a known label: "## Verdict",
// "**Verdict**", "Verdict:".
func headingLabel(line string) (string, bool) {
	t := strings.TrimSpace(trimListMarker(line))
	t = strings.TrimRight(strings.TrimSpace(strings.Trim(t, "*_ \t")), ":：")
	t = strings.Trim(t, "*_ \t")
	if t == "" || len(t) > 40 {
		return "", false
	}
	return labelName(t)
}

// tagNames are the tags whose content is read as the labelled value.
var tagNames = [...]string{"verdict", "final_answer", "answer", "result", "decision", "score", "rating", "category", "label", "choice", "grade"}

// tags reads <verdict>…</verdict> and the other tags, and returns s
// without them.
func (c *claims) tags(s string) string {
	if !strings.Contains(s, "</") {
		return s
	}
	for _, name := range tagNames {
		open, close := "<"+name+">", "</"+name+">"
		if indexFold(s, open, 0) < 0 {
			continue
		}
		var b strings.Builder
		b.Grow(len(s))
		from := 0
		var q spanScan
		for off := 0; ; {
			i := indexFold(s, open, off)
			if i < 0 {
				break
			}
			j := indexFold(s, close, i+len(open))
			if j < 0 {
				break
			}
			if q.inSpan(s, i) {
				off = i + len(open) // quoted: the line's reading drops it
				continue
			}
			c.labelled(name, removeSpans(strings.TrimSpace(s[i+len(open):j])))
			c.loose = true
			b.WriteString(s[from:i])
			b.WriteString("\n")
			from = j + len(close)
			off = from
		}
		b.WriteString(s[from:])
		s = b.String()
	}
	return s
}

var (
	bracketRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[\[\s*([^\[\]\n]{1,24}?)\s*\]\]`) })
	resultRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\[RESULT\]\s*:?\s*([^\s\]]+)`) })
	letterRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\(([A-Za-z0-9])\)\.?$`) })
)

// readLines reads the prose: tags, labelled lines, headings with the value
// on the next line, [[X]] and [RESULT] X, a "(B)" line, and a verdict word
// standing alone on the first or last line.
func (c *claims) readLines(prose string) {
	prose, table := tableLines(c.tags(prose))
	c.loose = c.loose || table
	var kept []string
	labelledAt := map[int]bool{}
	pending := ""
	openQ := "" // the closing mark of a quotation that runs over lines
	for line := range strings.Lines(prose) {
		line = strings.TrimRight(line, "\r\n")
		if openQ != "" {
			// Inside a quotation that began on an earlier line.
			i := strings.Index(line, openQ)
			if i < 0 {
				continue
			}
			line = " … " + line[i+len(openQ):]
			openQ = ""
		}
		if q := openAtEnd(line); q != "" {
			openQ = q
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if l, ok := headingLabel(removeSpans(line)); ok && labels[strings.ReplaceAll(l, "_", " ")] != kindField {
			pending = l
			kept = append(kept, line)
			labelledAt[len(kept)-1] = true
			continue
		}
		read := ""
		if at := midVerdict(line); at > 0 {
			// "… not my verdict. Verdict: FAIL": a verdict label that
			// starts a sentence is read from there.
			line = line[at:]
		}
		if l, v, sep, ok := splitLabelSep(line); ok {
			v = unwrapValue(v)
			c.labelled(l, v)
			if sep != ":" {
				c.loose = true // "Verdict - PASS" is looser than "Verdict: PASS"
			}
			read = l + ": " + v
			labelledAt[len(kept)] = true
		} else if d, ok := dimensionLine(line); ok {
			c.dims = append(c.dims, d)
			c.loose = true
			read = removeSpans(line)
			labelledAt[len(kept)] = true
		} else {
			read = removeSpans(line)
			if pending != "" {
				c.labelled(pending, unwrapValue(line))
				c.loose = true
				labelledAt[len(kept)] = true
			}
		}
		pending = ""
		c.marks(read)
		kept = append(kept, read)
	}
	c.text = strings.Join(kept, "\n")
	if len(kept) > 0 {
		c.ends(kept, labelledAt)
	}
}

// marks reads the marks a line may hold anywhere: [[X]], [RESULT] X and a
// "(B)" line.
func (c *claims) marks(read string) {
	if strings.Contains(read, "[[") {
		for _, m := range bracketRe().FindAllStringSubmatch(read, -1) {
			c.bracketed(m[1])
		}
	}
	if strings.Contains(read, "]") {
		for _, m := range resultRe().FindAllStringSubmatch(read, -1) {
			c.bracketed(strings.TrimRight(m[1], ".,;"))
		}
	}
	if t := strings.Trim(read, " \t*_"); strings.HasPrefix(t, "(") {
		if m := letterRe().FindStringSubmatch(t); m != nil {
			c.choices = append(c.choices, m[1])
			c.loose = true
		}
	}
}

// ends reads the first and last of the kept lines (labelledAt marks
// those read as labels): a verdict word standing alone there, the choice
// they name, and whether an earlier line asked a question.
func (c *claims) ends(kept []string, labelledAt map[int]bool) {
	last := len(kept) - 1
	for _, k := range kept[:last] {
		if strings.HasSuffix(strings.TrimRight(k, " \t*_"), "?") {
			c.asked = true
		}
	}
	bareAt := map[int]bool{}
	if !labelledAt[0] {
		n := len(c.bare)
		c.bareVerdict(kept[0], last == 0)
		bareAt[0] = len(c.bare) > n
	}
	if last > 0 && !labelledAt[last] {
		n := len(c.bare)
		c.bareVerdict(kept[last], false)
		bareAt[last] = len(c.bare) > n
	}
	c.keepProse(kept, func(i int) bool { return labelledAt[i] || bareAt[i] })
	l := kept[last]
	if _, v, ok := splitLabel(l); ok {
		l = v
	}
	c.last = choiceOf(l)
	if last > 0 && !labelledAt[0] {
		c.first = choiceOf(kept[0])
	}
}

// midVerdict returns where a sentence that starts with a verdict label
// ("Verdict:", "Final verdict:") begins inside line, outside quoted spans,
// or -1.
func midVerdict(line string) int {
	if !strings.Contains(line, "erdict") && !strings.Contains(line, "ERDICT") {
		return -1
	}
	if _, _, ok := splitLabel(line); ok {
		return -1
	}
	lower := strings.ToLower(line)
	for _, l := range [...]string{". verdict:", ". final verdict:", ". verdict -", ". verdict —"} {
		i := strings.LastIndex(lower, l)
		if i < 0 {
			continue
		}
		if removeSpans(line[:i+1]) != line[:i+1] {
			return -1 // a quote is open or closed before it: keep it whole
		}
		return i + 2
	}
	return -1
}

// bracketed reads MT-Bench's [[8]] or [[A]], or Prometheus's [RESULT] X.
func (c *claims) bracketed(x string) {
	c.loose = true
	if s, ok := parseScore(x); ok {
		c.scores = append(c.scores, s)
		return
	}
	if ch := choiceOf(x); ch != "" {
		c.choices = append(c.choices, ch)
	}
}

// spanScan tells, moving forward through a text, whether a position lies
// inside a quoted span (inline code, double quotes) opened earlier on its
// line. Each byte is read once.
type spanScan struct {
	pos   int
	close string // the open span's closing mark, or ""
}

func (q *spanScan) inSpan(s string, at int) bool {
	for q.pos < at {
		switch {
		case s[q.pos] == '\n':
			q.close = ""
			q.pos++
		case q.close != "":
			if strings.HasPrefix(s[q.pos:], q.close) {
				q.pos += len(q.close)
				q.close = ""
			} else {
				q.pos++
			}
		default:
			if _, cl, ok := openQuote(s[q.pos:]); ok {
				q.pos += len(cl) // every opener is as long as its closer
				q.close = cl
			} else {
				q.pos++
			}
		}
	}
	return q.close != ""
}

// conditionals, first after a verdict word, make it a rule rather than a
// verdict: "pass if the year is right", "fail unless it cites a source".
var conditionals = map[string]bool{
	"if": true, "unless": true, "when": true, "whenever": true, "only": true, "would": true, "should": true,
	"or": true, "requires": true, "needs": true, "means": true, "iff": true, "could": true, "might": true,
}

// conditional reports whether rest, the text after a verdict word, opens
// with a conditional word.
func conditional(rest string) bool {
	t := strings.TrimLeft(rest, " \t")
	if len(t) == len(rest) || t == "" || !unicode.IsLetter(rune(t[0])) {
		return false
	}
	ws := words(rest)
	return len(ws) > 0 && conditionals[ws[0]]
}

// openAtEnd returns the closing mark of a double quotation left open at
// the end of line, or "".
func openAtEnd(line string) string {
	for i := 0; i < len(line); {
		open, close, ok := openQuote(line[i:])
		if !ok {
			i++
			continue
		}
		j := strings.Index(line[i+len(open):], close)
		if j < 0 {
			if open == "`" {
				return ""
			}
			return close
		}
		i += len(open) + j + len(close)
	}
	return ""
}
