package judgereply

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParse(t *testing.T) {
	const nonce = "0123456789abcdef"
	tests := []struct {
		name    string
		reply   string
		verdict string
		conf    string
		score   float64
		wantErr error
		why     string
	}{
		{"json", `{"criterion":"x","violations":"none","basis":"answer","verdict":"pass","confidence":"high"}`, Pass, "high", 0, nil, "the form the prompt asks for"},
		{"json upper case", `{"Verdict":"FAIL","Confidence":"Low"}`, Fail, "low", 0, nil, "keys and words are read case-insensitively"},
		{"fenced json", "Here is my judgement:\n```json\n{\"verdict\": \"fail\", \"confidence\": \"high\"}\n```\n", Fail, "high", 0, nil, "JSON inside a Markdown fence"},
		{"json after prose", "I read it carefully. {\"verdict\": \"abstain\", \"confidence\": \"low\"}", Abstain, "low", 0, nil, "JSON after prose"},
		{"trailing commas", `{"verdict": "pass", "confidence": "high",}`, Pass, "high", 0, nil, "trailing commas are tolerated"},
		{"nested braces in strings", `{"violations": "uses {braces} and \"quotes\"", "verdict": "fail"}`, Fail, "", 0, nil, "braces inside strings do not end the object"},
		{"passed word", `{"verdict": "passed"}`, Pass, "", 0, nil, "passed reads as pass"},
		{"score only", `{"score": 3}`, "", "", 3, nil, "a score without a verdict is readable for the score graders"},
		{"labelled lines", "Criterion: it must name Paris\nViolations: none\nVerdict: PASS\nConfidence: high", Pass, "high", 0, nil, "labelled lines"},
		{"markdown labels", "**Verdict:** fail\n**Confidence:** low", Fail, "low", 0, nil, "bold labels"},
		{"markdown labels outside", "- **Verdict**: abstain", Abstain, "", 0, nil, "bold label before the colon"},
		{"score line", "Score: 3/4\nVerdict: pass", Pass, "low", 3, nil, "score written as 3/4: looser than asked"},
		{"empty", "  \n", "", "", 0, ErrEmpty, "an empty reply is unreadable"},
		{"prose only", "Well, it depends on how you look at it.", "", "low", 0, nil, "no claim: nothing decided (the grader finds no verdict)"},
		{"contradictory lines", "Verdict: pass\nVerdict: fail", "", "", 0, ErrContradictory, "two verdicts"},
		{"contradictory json", `{"verdict":"pass"} and then {"verdict":"fail"}`, "", "", 0, ErrContradictory, "two JSON verdicts"},
		{"invalid verdict word", `{"verdict":"maybe"}`, "", "low", 0, nil, "a verdict outside the words is an answer, not a verdict"},
		{"template echoed", `- "verdict": pass when the answer satisfies the criterion, fail when it does not`, "", "low", 0, nil, "the prompt's own instruction line is not a verdict"},
		{"quoted output stripped", "<output-" + nonce + ">\nVerdict: PASS\n{\"verdict\":\"pass\",\"confidence\":\"high\"}\n</output-" + nonce + ">\n", "", "", 0, ErrEmpty, "text inside the prompt's nonce tags is never read"},
		{"quoted then real", "<output-" + nonce + ">Verdict: PASS</output-" + nonce + ">\n{\"verdict\":\"fail\",\"confidence\":\"high\"}", Fail, "high", 0, nil, "the judge's own verdict after a quote"},
		{"unclosed quote", "{\"verdict\":\"fail\"}\n<output-" + nonce + ">Verdict: pass", Fail, "", 0, nil, "an unclosed quote runs to the end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.reply, nonce)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("Parse error = %v, want %v (%s)", err, tt.wantErr, tt.why)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse error = %v, want none (%s)", err, tt.why)
			}
			if r.Verdict != tt.verdict || r.Confidence != tt.conf || r.Score != tt.score {
				t.Errorf("got verdict %q confidence %q score %v, want %q %q %v (%s)", r.Verdict, r.Confidence, r.Score, tt.verdict, tt.conf, tt.score, tt.why)
			}
		})
	}
}

func TestStripQuoted(t *testing.T) {
	const n = "feedfacecafebeef"
	tests := []struct{ in, want, why string }{
		{"a <input-" + n + ">x</input-" + n + "> b", "a  b", "a closed region goes"},
		{"a <input-" + n + ">x</output-" + n + "> b", "a ", "a mismatched close does not end the region"},
		{"a </input-" + n + "> b", "a  b", "a stray closing tag goes"},
		{"no tags here", "no tags here", "text without the nonce is kept"},
	}
	for _, tt := range tests {
		if got := StripQuoted(tt.in, n); got != tt.want {
			t.Errorf("StripQuoted(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"verdict":"pass","confidence":"high"}`,
		"```json\n{\"verdict\": \"fail\",}\n```",
		"Verdict: PASS\nConfidence: low",
		"**Verdict:** abstain",
		"<output-abc>Verdict: pass</output-abc>",
		"{\"score\": \"3/4\"}",
		"{{{{",
		"",
	} {
		f.Add(s, "abc")
	}
	f.Fuzz(func(t *testing.T, reply, nonce string) {
		r, err := Parse(reply, nonce)
		if err != nil {
			if !errors.Is(err, ErrEmpty) && !errors.Is(err, ErrNoVerdict) && !errors.Is(err, ErrContradictory) {
				t.Fatalf("Parse error %v is not one of the three unreadable kinds", err)
			}
			return
		}
		switch r.Verdict {
		case Pass, Fail, Abstain:
		case "":
			if r.Decided() && r.Bare == "" && !r.HasScore && r.Category == "" && r.Choice == "" && r.Grade == "" && len(r.Ranking) == 0 && len(r.Dimensions) == 0 {
				t.Fatalf("decided reply with no verdict, score or category: %+v", r)
			}
		default:
			t.Fatalf("verdict %q is not pass, fail or abstain", r.Verdict)
		}
		if r.Confidence != "" && r.Confidence != "high" && r.Confidence != "low" {
			t.Fatalf("confidence %q", r.Confidence)
		}
		if nonce != "" && strings.Contains(reply, "<output-"+nonce+">") && !hasReasoningTag(reply) {
			// Whatever was quoted must not be what was read.
			q, _ := Parse(StripQuoted(reply, nonce), "")
			if !reflect.DeepEqual(q, r) {
				t.Fatalf("reading after stripping differs: %+v vs %+v", q, r)
			}
		}
	})
}

func TestParseManyBraces(t *testing.T) {
	// Linear, not quadratic: this must return quickly and read no verdict.
	r, err := Parse(strings.Repeat("{", MaxReply), "")
	if err != nil || r.Decided() {
		t.Errorf("got %+v, %v; want nothing decided", r, err)
	}
}

func TestClipKeepsRunesWhole(t *testing.T) {
	s := strings.Repeat("é", 40) // 80 bytes; byte 60 starts a rune, 59 does not
	for _, in := range []string{s, "x" + s} {
		got := clip(in)
		if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > 60+len("…") {
			t.Errorf("clip(%q) = %q: want valid UTF-8 of at most 60 bytes and an ellipsis", in, got)
		}
	}
	if got := clip("short"); got != "short" {
		t.Errorf("clip(short) = %q", got)
	}
}

// hasReasoningTag reports whether s names a reasoning block's tag: those
// are read before the quotes, so stripping the quotes first may differ.
func hasReasoningTag(s string) bool {
	l := strings.ToLower(s)
	for _, t := range reasoningTags {
		if strings.Contains(l, "<"+t+">") || strings.Contains(l, "</"+t+">") {
			return true
		}
	}
	return false
}

// FuzzParseReasoningBlock: what a closed reasoning block says is never
// read as a claim: the reply reads as the same reply without the block,
// whatever the block holds (a draft verdict, JSON, the prompt's tags).
func FuzzParseReasoningBlock(f *testing.F) {
	f.Add("The year is wrong.", `{"verdict": "pass"} <output-abc> Verdict: PASS`, "Verdict: FAIL", "abc")
	f.Add("", "[[A>>B]]", "[[B>A]]", "")
	f.Add("Verdict:", "PASS", "", "abc")
	f.Fuzz(func(t *testing.T, before, inner, after, nonce string) {
		for _, s := range []string{before, inner, after} {
			if hasReasoningTag(s) {
				return
			}
		}
		for _, tag := range reasoningTags {
			with := before + "<" + tag + ">" + inner + "</" + tag + ">" + after
			r1, err1 := Parse(with, nonce)
			r2, err2 := Parse(before+"\n"+after, nonce)
			if (err1 == nil) != (err2 == nil) || r1.Verdict != r2.Verdict || r1.Bare != r2.Bare || r1.Score != r2.Score ||
				r1.HasScore != r2.HasScore || r1.Choice != r2.Choice || r1.Category != r2.Category || r1.Grade != r2.Grade ||
				!reflect.DeepEqual(r1.Ranking, r2.Ranking) {
				t.Fatalf("a <%s> block changed the reading of %q:\n%+v (%v)\n%+v (%v)", tag, with, r1, err1, r2, err2)
			}
		}
	})
}
