package config

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestConfigKeysDocumented fails when a key the config file accepts has no
// row in docs/config.md, so the reference cannot fall behind the loader.
// The keys come from the json tags of the structs the file decodes into.
func TestConfigKeysDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{fileConfig{}, judgeEntry{}, embedderEntry{}, scriptedReply{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			key, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if key == "" || key == "-" {
				continue
			}
			if !strings.Contains(string(doc), "| `"+key+"` |") {
				t.Errorf("%s key %q has no row in docs/config.md", typ.Name(), key)
			}
		}
	}
}
