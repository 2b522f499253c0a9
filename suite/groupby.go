package suite

import (
	"fmt"
	"slices"
	"strings"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/metric"
)

// tagsField is the group_by value that groups cases by their tags: a case
// with several tags is counted under each.
const tagsField = "tags"

// fieldWatch follows one suite key naming a field (cluster, group_by)
// over the cases as they load, so a field no case has is refused at load:
// a misspelt item field would otherwise group every case under none.
type fieldWatch struct {
	key   string // the suite key: cluster or group_by
	field string // its value
	line  int    // the line of its value
	found bool   // some case has the field
	items map[string]bool
	// For group_by: tags, whether some case has tags and whether some
	// case's item has a tags field (the field group_by: tags meant before
	// cases had tags of their own).
	itemTags bool
}

// maxItemKeys bounds the item keys kept to suggest a field from.
const maxItemKeys = 256

// watch starts following the field key names; a case key needs no
// watching unless it is tags.
func (w *fieldWatch) watch(key, field string, line int) {
	*w = fieldWatch{key: key, field: field, line: line}
	if field != tagsField && slices.Contains(caseFields, field) {
		w.found = true
	}
}

// observe notes whether c has the watched field.
func (w *fieldWatch) observe(c *proctor.Case) {
	if w.field == "" || w.found {
		return
	}
	if w.field == tagsField {
		w.found = w.found || len(c.Tags) > 0
		_, it := c.Sample.Item[tagsField]
		w.itemTags = w.itemTags || it
		return
	}
	if _, ok := c.Sample.Item[strings.TrimPrefix(w.field, "item.")]; ok {
		w.found = true
		return
	}
	if w.items == nil {
		w.items = map[string]bool{}
	}
	for k := range c.Sample.Item {
		if len(w.items) >= maxItemKeys {
			break
		}
		w.items[k] = true
	}
}

// check returns the error for a field no case of the total has; nil
// when some case has it, or the suite has no case.
func (w *fieldWatch) check(s *Suite) error {
	if w.field == "" || w.found || s.Total == 0 {
		return nil
	}
	at := &node{line: w.line}
	if w.field == tagsField {
		if w.itemTags {
			return s.errAt(at, w.key, "no case has tags, but their items have a tags field: write item.tags to group by it")
		}
		return s.errAt(at, w.key, "no case has tags: give cases tags: [...] to group by them")
	}
	name := strings.TrimPrefix(w.field, "item.")
	// Item keys are compared by name and suggested as item.NAME; a bare
	// field may also misspell a case key.
	words := slices.Sorted(func(yield func(string) bool) {
		for k := range w.items {
			if !yield(k) {
				return
			}
		}
	})
	suggest := make([]string, len(words))
	for i, k := range words {
		suggest[i] = "item." + k
	}
	if !strings.HasPrefix(w.field, "item.") {
		words = append(slices.Clone(fieldKeys(w.key)), words...)
		suggest = append(slices.Clone(fieldKeys(w.key)), suggest...)
	}
	msg := fmt.Sprintf("no case has the item field %q", name)
	if i, ok := nearestWord(name, words); ok {
		msg += fmt.Sprintf("; did you mean %q?", suggest[i])
	}
	return s.errAt(at, w.key, "%s (want a case key: %s; or an item field: item.NAME)", msg, strings.Join(fieldKeys(w.key), ", "))
}

// fieldKeys are the case keys the suite key may name: group_by may also
// name tags.
func fieldKeys(key string) []string {
	if key == "group_by" {
		return append(slices.Clip(caseFields), tagsField)
	}
	return caseFields
}

// nearestWord returns the index of the word in words that s most likely
// misspells: the nearest by edit distance, ignoring case, within 2 edits
// and fewer than half of s's letters.
func nearestWord(s string, words []string) (int, bool) {
	best, bestD := -1, 3
	for i, w := range words {
		d := metric.LevenshteinDistance(strings.ToLower(s), strings.ToLower(w))
		if d < bestD && 2*d < len([]rune(s)) {
			best, bestD = i, d
		}
	}
	return best, best >= 0
}

// decodeTags reads a case's tags: a list of non-empty strings, each once.
func (s *Suite) decodeTags(n *node, at string) ([]string, error) {
	if n.isNull() {
		return nil, nil
	}
	tags, err := s.strings(n, at)
	if err != nil {
		return nil, err
	}
	for i, t := range tags {
		switch {
		case strings.TrimSpace(t) == "":
			return nil, s.errAt(n.items[i], fmt.Sprintf("%s[%d]", at, i), "a tag must not be empty")
		case slices.Contains(tags[:i], t):
			return nil, s.errAt(n.items[i], fmt.Sprintf("%s[%d]", at, i), "tag %q is given twice", t)
		}
	}
	if len(tags) == 0 {
		return nil, nil
	}
	return tags, nil
}
