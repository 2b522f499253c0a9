package proctor

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// userPrompt is a judge prompt the user brings as it stands (an MT-Bench
// or arena-hard prompt, say) in place of the one proctor writes. It is a
// template (see [ParseTemplate]); a pairwise prompt also places the two
// answers with {{answer_a}} and {{answer_b}}. The reply is read in
// whatever shape the prompt asks for, as every reply is read.
type userPrompt struct {
	src   string
	parts []*Template // the text around the answers' slots
	slots []string    // slots[i] follows parts[i]: "answer_a" or "answer_b"
}

var answerSlotRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\{\{\s*(answer_a|answer_b)\s*\}\}`)
})

// parseUserPrompt parses a user's judge prompt; pairwise allows (and
// requires) the answers' slots.
func parseUserPrompt(src string, pairwise bool) (*userPrompt, error) {
	if strings.TrimSpace(src) == "" {
		return nil, fmt.Errorf("the prompt is empty")
	}
	p := &userPrompt{src: src}
	at := 0
	for _, m := range answerSlotRe().FindAllStringSubmatchIndex(src, -1) {
		if !pairwise {
			return nil, fmt.Errorf("{{%s}} is only for llm_pairwise prompts", src[m[2]:m[3]])
		}
		if err := p.addPart(src[at:m[0]]); err != nil {
			return nil, err
		}
		p.slots = append(p.slots, src[m[2]:m[3]])
		at = m[1]
	}
	if err := p.addPart(src[at:]); err != nil {
		return nil, err
	}
	if pairwise && (!strings.Contains(strings.Join(p.slots, " "), "answer_a") || !strings.Contains(strings.Join(p.slots, " "), "answer_b")) {
		return nil, fmt.Errorf("a pairwise prompt needs both {{answer_a}} and {{answer_b}}")
	}
	return p, nil
}

func (p *userPrompt) addPart(src string) error {
	t, err := ParseTemplate(src)
	if err != nil {
		return err
	}
	p.parts = append(p.parts, t)
	return nil
}

// render writes the prompt for s, every value taken from the sample (and
// the answers a and b) passed through redact.
func (p *userPrompt) render(s *Sample, redact func(string) string, a, b string) (string, error) {
	var out strings.Builder
	for i, t := range p.parts {
		text, err := renderRedacted(t, s, redact)
		if err != nil {
			return "", err
		}
		out.WriteString(text)
		if i < len(p.slots) {
			if p.slots[i] == "answer_a" {
				out.WriteString(redact(a))
			} else {
				out.WriteString(redact(b))
			}
		}
	}
	return out.String(), nil
}

// buildUser writes the prompts of a task that carries the user's own
// prompt: one, or for a pairwise task one per order of the answers. They
// carry no nonce tags: what the judged text says is not told apart from
// the judge's own words by tags, only by the reader's rules.
func (t *judgeTask) buildUser(s *Sample, red func(string) string, base string) ([]builtPrompt, string) {
	one := func(a, b string) (builtPrompt, string) {
		text, err := t.prompt.render(s, red, a, b)
		if err != nil {
			return builtPrompt{}, "the judge prompt: " + err.Error()
		}
		return builtPrompt{text: text}, ""
	}
	if t.kind != taskPairwise {
		p, why := one("", "")
		if why != "" {
			return nil, why
		}
		return []builtPrompt{p}, ""
	}
	p1, why := one(s.Output, base)
	if why != "" {
		return nil, why
	}
	p2, _ := one(base, s.Output)
	return []builtPrompt{p1, p2}, ""
}
