package proctor_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
)

func TestXMLValid(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name, out, root string
		want            proctor.Status
	}{
		{"simple", `<a><b x="1">t</b></a>`, "", proctor.StatusPassed},
		{"prolog, comment, pi", "<?xml version=\"1.0\"?>\n<!-- c --><a/>\n<?pi x?>", "", proctor.StatusPassed},
		{"doctype skipped", `<!DOCTYPE a><a/>`, "", proctor.StatusPassed},
		{"fenced", "Here:\n```xml\n<invoice><id>1</id></invoice>\n```\n", "invoice", proctor.StatusPassed},
		{"namespaced root by local name", `<x:inv xmlns:x="urn:x"/>`, "inv", proctor.StatusPassed},
		{"namespaced root as written", `<x:inv xmlns:x="urn:x"/>`, "x:inv", proctor.StatusPassed},
		{"wrong root", `<order/>`, "invoice", proctor.StatusFailed},
		{"mismatched end", `<a><b></a></b>`, "", proctor.StatusFailed},
		{"unclosed", `<a><b></b>`, "", proctor.StatusFailed},
		{"stray end", `<a/></a>`, "", proctor.StatusFailed},
		{"two roots", `<a/><b/>`, "", proctor.StatusFailed},
		{"text outside root", `hello <a/>`, "", proctor.StatusFailed},
		{"no root", `just text`, "", proctor.StatusFailed},
		{"empty", ``, "", proctor.StatusFailed},
		{"unquoted attribute", `<a x=1/>`, "", proctor.StatusFailed},
		{"repeated attribute", `<a x="1" x="2"/>`, "", proctor.StatusFailed},
		{"undeclared entity", `<a>&nbsp;</a>`, "", proctor.StatusFailed},
		{"predefined entities", `<a>&lt;&amp;&#169;</a>`, "", proctor.StatusPassed},
		{"bare ampersand", `<a>fish & chips</a>`, "", proctor.StatusFailed},
		{"too deep", strings.Repeat("<a>", 10001) + strings.Repeat("</a>", 10001), "", proctor.StatusNotGraded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := proctor.NewXMLValid(proctor.XMLValidOptions{Root: tt.root})
			if got := g.Grade(ctx, &proctor.Sample{Output: tt.out}); got.Status != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	runSpecRows(t, &proctor.Sample{Output: `<invoice/>`}, []specRow{
		{Spec: `{"type":"xml_valid"}`, Want: proctor.StatusPassed},
		{Spec: `{"type":"xml_valid","root":"order"}`, Want: proctor.StatusFailed},
		{Spec: `{"type":"xml_valid","root":3}`, WantErr: true},
		{Spec: `{"type":"xml_valid","schema":"x.xsd"}`, WantErr: true},
	})
}

func FuzzXMLValid(f *testing.F) {
	for _, s := range []string{`<a><b x="1">t</b></a>`, `<?xml version="1.0"?><a/>`, `<a>&amp;</a>`, `<a><b></a>`, "```xml\n<a/>\n```", `<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>`, "<a\xff/>", ``} {
		f.Add(s)
	}
	g := proctor.NewXMLValid(proctor.XMLValidOptions{Root: "a"})
	f.Fuzz(func(t *testing.T, out string) {
		gr := g.Grade(context.Background(), &proctor.Sample{Output: out})
		if gr.Status != proctor.StatusPassed && gr.Status != proctor.StatusFailed && gr.Status != proctor.StatusNotGraded {
			t.Errorf("status %v", gr.Status)
		}
		if gr.Status == proctor.StatusPassed && !strings.Contains(out, "<") {
			t.Errorf("passed without an element: %q", out)
		}
	})
}

func ExampleNewXMLValid() {
	g := proctor.NewXMLValid(proctor.XMLValidOptions{Root: "invoice"})
	fmt.Println(g.Grade(context.Background(), &proctor.Sample{Output: `<invoice><total>12.50</total></invoice>`}))
	// Output: passed: well-formed XML, root <invoice>
}
