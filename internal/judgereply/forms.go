package judgereply

import (
	"strings"
	"unicode"
)

// dimensionLine reads "Name: N", a score on a line labelled with a name
// the reader does not know (one or two words of letters, three letters
// at least: "A: 3" names an answer, not a dimension): G-Eval's "-
// Coherence: 2".
func dimensionLine(line string) (Dimension, bool) {
	t := strings.TrimSpace(trimListMarker(line))
	name, val, ok := strings.Cut(t, ":")
	name = strings.ToLower(strings.Trim(strings.TrimSpace(name), "*_"))
	if !ok || len(name) < 3 || len(strings.Fields(name)) > 2 || !isPlainNumber(strings.TrimSpace(val)) {
		return Dimension{}, false
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && r != ' ' {
			return Dimension{}, false
		}
	}
	sc, ok := parseScore(val)
	if !ok || sc.of != 0 || sc.pct {
		return Dimension{}, false
	}
	return Dimension{Name: strings.Join(strings.Fields(name), " "), Score: sc.v}, true
}

// tableLines rewrites Markdown tables as the labelled lines they hold: a
// row "| Verdict | PASS |" as "Verdict: PASS", and under a header that
// names a label ("| Criterion | Verdict |"), each row's cell in that
// column as "Verdict: cell". Other tables stay as they are. It reports
// whether a table was read.
func tableLines(s string) (string, bool) {
	if !strings.Contains(s, "|") {
		return s, false
	}
	read := false
	lines := strings.Split(s, "\n")
	var out []string
	for i := 0; i < len(lines); {
		if !isRow(lines[i]) {
			out = append(out, lines[i])
			i++
			continue
		}
		j := i
		for j < len(lines) && isRow(lines[j]) {
			j++
		}
		out = append(out, tableClaims(lines[i:j])...)
		read = true
		i = j
	}
	return strings.Join(out, "\n"), read
}

func isRow(l string) bool {
	t := strings.TrimSpace(l)
	return len(t) > 1 && t[0] == '|' && strings.Count(t, "|") >= 3
}

// cells splits a table row into its trimmed cells.
func cells(row string) []string {
	t := strings.Trim(strings.TrimSpace(row), "|")
	cs := strings.Split(t, "|")
	for i, c := range cs {
		cs[i] = strings.TrimSpace(c)
	}
	return cs
}

func isSeparator(cs []string) bool {
	for _, c := range cs {
		if strings.Trim(c, "-: ") != "" || c == "" {
			return false
		}
	}
	return true
}

// tableClaims turns the rows of one table into lines to read.
func tableClaims(rows []string) []string {
	head := cells(rows[0])
	body := rows[1:]
	if len(body) > 0 && isSeparator(cells(body[0])) {
		body = body[1:]
	} else {
		body = rows
		head = nil
	}
	var out []string
	var col []int // the columns whose header is a label
	for k, h := range head {
		if l, ok := labelName(h); ok && labels[strings.ReplaceAll(l, "_", " ")] != kindField {
			col = append(col, k)
		}
	}
	for _, r := range body {
		cs := cells(r)
		if len(cs) == 2 && len(col) == 0 {
			if _, ok := labelName(cs[0]); ok {
				out = append(out, cs[0]+": "+cs[1])
				continue
			}
		}
		read := false
		for _, k := range col {
			if k < len(cs) {
				out = append(out, head[k]+": "+cs[k])
				read = true
			}
		}
		if !read {
			out = append(out, r)
		}
	}
	return out
}

// maxProse is how much of the judge's prose the evidence keeps.
const maxProse = 4 << 10

// keepProse keeps the lines of kept that are not labelled claims and not
// a bare verdict: the reasoning a judge wrote as prose.
func (c *claims) keepProse(kept []string, claimed func(int) bool) {
	size := 0
	for i, k := range kept {
		t := strings.TrimSpace(k)
		if _, _, _, num := ScoreAlone(t); claimed(i) || t == "" || num {
			continue
		}
		if size += len(t); size > maxProse {
			break
		}
		c.prose = append(c.prose, t)
	}
}

// bracketValue reports whether a labelled value opens with a bracketed
// answer ("Final verdict: [[C]] for a tie."): the line's bracket reading
// takes it. Prose after it that calls it a tie when it names an answer,
// or the other way round, contradicts it.
func (c *claims) bracketValue(val string) bool {
	t := strings.TrimLeft(val, " \t*_")
	m := bracketRe().FindStringSubmatchIndex(t)
	if m == nil || m[0] != 0 {
		return false
	}
	c.loose = true
	in := strings.ToLower(strings.ReplaceAll(t[m[2]:m[3]], " ", ""))
	isTie := in == "c" || in == "tie" || strings.Contains(in, "=")
	for _, w := range words(t[m[1]:]) {
		if (w == "tie" || w == "draw") && !isTie && (in == "a" || in == "b" || strings.ContainsAny(in, "<>")) {
			c.fail("%q called a tie", t[m[2]:m[3]])
		}
	}
	return true
}
