package proctor

import (
	"cmp"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/proctorhq/proctor/internal/fence"
)

// xmlValidSpec builds a xml_valid grader from its spec.
func xmlValidSpec(o *SpecOptions) (Grader, error) {
	opts := XMLValidOptions{Root: o.String("root", ""), Name: o.Name()}
	if err := o.Err(); err != nil {
		return nil, err
	}
	return NewXMLValid(opts), nil
}

// maxXMLDepth bounds element nesting: deeper documents are not graded
// rather than walked.
const maxXMLDepth = 10000

// XMLValidOptions configure [NewXMLValid]. The zero value accepts any root
// element.
type XMLValidOptions struct {
	// Root, when set, is the local name the root element must have
	// ("invoice"; a "prefix:local" name compares with the prefix as
	// written).
	Root string
	// Name is shown in results; default "xml_valid".
	Name string
}

// XMLValid passes when the output is one well-formed XML document: exactly
// one root element, every element closed in order, attributes quoted and
// not repeated, only the five predefined entities and character
// references, and nothing but white space, comments and processing
// instructions outside the root. A ```xml (or unlabelled) fenced block, if
// the output has one, is checked instead of the whole output. Document
// type declarations are skipped, not read: entities they declare are not
// known. It fails with the parser's first error (and its line), or when
// the root element is not the required one; it is not graded when elements
// nest more than 10000 deep. Uses encoding/xml in strict mode. Immutable
// and safe for concurrent use.
type XMLValid struct {
	name string
	root string
}

var _ Grader = (*XMLValid)(nil)

// NewXMLValid returns an XML well-formedness grader.
func NewXMLValid(opts XMLValidOptions) *XMLValid {
	return &XMLValid{name: cmp.Or(opts.Name, "xml_valid"), root: opts.Root}
}

// Name returns the grader's name.
func (g *XMLValid) Name() string { return g.name }

// errXMLTooDeep is returned by checkXML past maxXMLDepth.
var errXMLTooDeep = errors.New("elements nest too deep")

// checkXML returns the root element's name as written, or the first
// well-formedness error.
func checkXML(doc string) (string, error) {
	d := xml.NewDecoder(strings.NewReader(doc))
	d.Strict = true
	root := ""        // set at the first root element; a name is never empty
	var open []string // names of the open elements
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(open) == 0 {
				if root != "" {
					line, _ := d.InputPos()
					return "", fmt.Errorf("line %d: a second root element <%s>", line, qname(t.Name))
				}
				root = qname(t.Name)
			}
			open = append(open, qname(t.Name))
			if len(open) > maxXMLDepth {
				return "", errXMLTooDeep
			}
			seen := make(map[xml.Name]bool, len(t.Attr))
			for _, a := range t.Attr {
				if seen[a.Name] {
					line, _ := d.InputPos()
					return "", fmt.Errorf("line %d: attribute %s repeated on <%s>", line, qname(a.Name), qname(t.Name))
				}
				seen[a.Name] = true
			}
		case xml.EndElement:
			line, _ := d.InputPos()
			switch {
			case len(open) == 0:
				return "", fmt.Errorf("line %d: </%s> closes nothing", line, qname(t.Name))
			case open[len(open)-1] != qname(t.Name):
				return "", fmt.Errorf("line %d: </%s> closes <%s>", line, qname(t.Name), open[len(open)-1])
			}
			open = open[:len(open)-1]
		case xml.CharData:
			if len(open) == 0 && strings.TrimSpace(string(t)) != "" {
				line, _ := d.InputPos()
				return "", fmt.Errorf("line %d: text outside the root element", line)
			}
		}
	}
	if root == "" {
		return "", errors.New("no root element")
	}
	if len(open) > 0 {
		return "", fmt.Errorf("<%s> is not closed", open[len(open)-1])
	}
	return root, nil
}

// qname writes a raw token name as it appeared: prefix:local.
func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// Grade checks s.Output.
func (g *XMLValid) Grade(_ context.Context, s *Sample) Grade {
	doc := s.Output
	if body, ok := fence.Body(doc, "xml"); ok {
		doc = body
	}
	root, err := checkXML(doc)
	switch {
	case errors.Is(err, errXMLTooDeep):
		return NotGradedf("XML elements nest more than %d deep", maxXMLDepth)
	case err != nil:
		return Failf("not well-formed XML: %v", err)
	case g.root != "" && root != g.root && localName(root) != g.root:
		return Failf("root element is <%s>, want <%s>", root, g.root)
	}
	return Passf("well-formed XML, root <%s>", root)
}

func localName(q string) string {
	if i := strings.IndexByte(q, ':'); i >= 0 {
		return q[i+1:]
	}
	return q
}

// xmlSpecTypes documents the structure family's spec type xml_valid, for
// [Compiler.SpecTypes], with its builder.
func xmlSpecTypes() []SpecType {
	return []SpecType{
		{Name: "xml_valid", Build: xmlValidSpec, Family: "structure", Summary: "the output is one well-formed XML document",
			About: "Go's encoding/xml in strict mode plus the checks it leaves out: exactly one root element, elements closed in order, attributes quoted and not repeated, only the five predefined entities and character references, nothing but white space, comments and processing instructions outside the root. When the output has a code fence labelled xml, or unlabelled, that block is what is checked. Document type declarations are skipped, so entities they declare are errors. Fails with the first error and its line; not graded past 10,000 levels of nesting. Well-formedness only, not a schema (XSD or DTD).",
			Options: []SpecOptionDoc{
				{"root", "string", "any", "The required root element: its local name (invoice) or its name as written (x:invoice)."},
			},
			Example: `{"type": "xml_valid", "root": "invoice"}`},
	}
}
