package builtin_test

import (
	"encoding"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/agent"
	"github.com/proctorhq/proctor/internal/proctest"
	"github.com/proctorhq/proctor/openaievals"
	"github.com/proctorhq/proctor/similarity"
)

// shapePackages are the packages whose API these tests hold to one shape:
// the root, the family packages and reports, by folder, with the prefix their
// sentinel errors carry.
var shapePackages = []struct{ dir, qual, prefix string }{
	{"..", "", "proctor: "},
	{"../agent", "agent.", "agent: "},
	{"../disclosure", "disclosure.", "disclosure: "},
	{"../code", "code.", "code: "},
	{"../openaievals", "openaievals.", "openaievals: "},
	{"../calibrate", "calibrate.", "calibrate: "},
	{"../reports", "reports.", "reports: "},
	{"../similarity", "similarity.", "similarity: "},
}

// declarations parses the non-test Go files of dir.
func declarations(t *testing.T, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	fset := token.NewFileSet()
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	return files
}

var (
	judgeInput = []openaievals.EvalMessage{{Role: "user", Content: "{{sample.output_text}}"}}
	tokenF1    = proctest.Must(similarity.NewTokenF1(similarity.TokenF1Options{}))
	long       = strings.Repeat("(", 100)
)

// mustCases builds each MustX from valid text, then from text it refuses.
var mustCases = map[string]struct {
	ok, bad func() any
	text    string // the text the bad call compiles, as the message shows it
}{
	"MustJSONPathEquals": {
		func() any { return proctor.MustJSONPathEquals("$.a", 1, proctor.JSONPathOptions{}) },
		func() any { return proctor.MustJSONPathEquals("$[", 1, proctor.JSONPathOptions{}) }, "$["},
	"MustJSONPathExists": {
		func() any { return proctor.MustJSONPathExists("$.a", true, proctor.JSONPathOptions{}) },
		func() any { return proctor.MustJSONPathExists("$[", true, proctor.JSONPathOptions{}) }, "$["},
	"MustJSONPathOneOf": {
		func() any { return proctor.MustJSONPathOneOf("$.a", []any{1, 2}, proctor.JSONPathOptions{}) },
		func() any { return proctor.MustJSONPathOneOf("$.a", nil, proctor.JSONPathOptions{}) }, "$.a"},
	"MustJSONSchema": {
		func() any { return proctor.MustJSONSchema(`{"type":"object"}`, proctor.JSONSchemaOptions{}) },
		func() any { return proctor.MustJSONSchema(`{"type":5}`, proctor.JSONSchemaOptions{}) }, `{"type":5}`},
	"MustRegex": {
		func() any { return proctor.MustRegex(`\d+`, proctor.RegexOptions{}) },
		func() any { return proctor.MustRegex(long, proctor.RegexOptions{}) }, long},
	"MustNotRegex": {
		func() any { return proctor.MustNotRegex(`\d+`, proctor.RegexOptions{}) },
		func() any { return proctor.MustNotRegex("(", proctor.RegexOptions{}) }, "("},
	"MustTemplate": {
		func() any { return proctor.MustTemplate("Q: {{input}}") },
		func() any { return proctor.MustTemplate("Q: {{input") }, "Q: {{input"},
	"agent.MustToolArgumentAssertion": {
		func() any {
			return agent.MustToolArgumentAssertion("book", "$.seats", 2, agent.ToolArgumentAssertionOptions{})
		},
		func() any {
			return agent.MustToolArgumentAssertion("book", "$[", 2, agent.ToolArgumentAssertionOptions{})
		}, "$["},
	"openaievals.MustMulti": {
		func() any {
			return openaievals.MustMulti("token_f1 * 2", []proctor.Grader{tokenF1}, openaievals.MultiOptions{})
		},
		func() any {
			return openaievals.MustMulti("token_f1 **", []proctor.Grader{tokenF1}, openaievals.MultiOptions{})
		}, "token_f1 **"},
	"openaievals.MustStringCheck": {
		func() any {
			return openaievals.MustStringCheck(openaievals.StringOpEq, "{{item.want}}", openaievals.StringCheckOptions{})
		},
		func() any {
			return openaievals.MustStringCheck(openaievals.StringOpEq, "{{nope}}", openaievals.StringCheckOptions{})
		}, "{{nope}}"},
	"openaievals.MustTextSimilarity": {
		func() any {
			return openaievals.MustTextSimilarity(tokenF1, "{{item.want}}", openaievals.TextSimilarityOptions{})
		},
		func() any {
			return openaievals.MustTextSimilarity(tokenF1, "{{item.", openaievals.TextSimilarityOptions{})
		}, "{{item."},
	"openaievals.MustPython": {
		func() any {
			return openaievals.MustPython("def grade(sample, item):\n    return 1\n", openaievals.PythonOptions{})
		},
		func() any { return openaievals.MustPython(" \n", openaievals.PythonOptions{}) }, " \n"},
	"openaievals.MustScoreModel": {
		func() any { return openaievals.MustScoreModel(judgeInput, 0.5, openaievals.ScoreModelOptions{}) },
		func() any {
			return openaievals.MustScoreModel([]openaievals.EvalMessage{{Role: "user", Content: "{{x}}"}}, 0.5, openaievals.ScoreModelOptions{})
		}, "{{x}}"},
	"openaievals.MustLabelModel": {
		func() any {
			return openaievals.MustLabelModel(judgeInput, []string{"a", "b"}, []string{"a"}, openaievals.LabelModelOptions{})
		},
		func() any {
			return openaievals.MustLabelModel(judgeInput, []string{"a"}, []string{"c"}, openaievals.LabelModelOptions{})
		}, "{{sample.output_text}}"},
}

// TestMustShape: MustX exists only beside a constructor that compiles text,
// each one listed in mustCases, and every MustX panics the one way: an
// error reading `proctor: MustX("<text, cut at 80 runes>"): <why>` that
// wraps the constructor's error.
func TestMustShape(t *testing.T) {
	var found []string
	for _, p := range shapePackages {
		for _, f := range declarations(t, p.dir) {
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Must") && fn.Name.IsExported() {
					found = append(found, p.qual+fn.Name.Name)
				}
			}
		}
	}
	for _, name := range found {
		if _, ok := mustCases[name]; !ok {
			t.Errorf("%s is not in mustCases: a Must twin is only for a constructor that compiles text (add it, or remove the twin)", name)
		}
	}
	for name, tc := range mustCases {
		t.Run(name, func(t *testing.T) {
			if !slices.Contains(found, name) {
				t.Fatalf("%s is in mustCases but not declared", name)
			}
			if g, p := catch(tc.ok); p != nil || g == nil {
				t.Fatalf("valid text: got %v, panic %v; want a value", g, p)
			}
			_, p := catch(tc.bad)
			err, ok := p.(error)
			if !ok {
				t.Fatalf("refused text: panic %#v, want an error", p)
			}
			if errors.Unwrap(err) == nil {
				t.Errorf("panic %q wraps nothing, want the constructor's error", err)
			}
			shown := tc.text
			if r := []rune(shown); len(r) > 80 {
				shown = string(r[:80])
			}
			want := "proctor: " + name + "(" + strconv.Quote(shown)
			if len([]rune(tc.text)) > 80 {
				want += "…"
			}
			want += "): "
			msg := err.Error()
			if !strings.HasPrefix(msg, want) || len(msg) == len(want) || strings.HasPrefix(msg[len(want):], "proctor: ") {
				t.Errorf("panic %q, want %q followed by the reason", msg, want)
			}
		})
	}
}

func catch(f func() any) (v, panicked any) {
	defer func() { panicked = recover() }()
	return f(), nil
}

// aliasedSentinels are the exported sentinel errors declared as another
// package's error rather than with errors.New, by qualified name.
var aliasedSentinels = map[string]error{
	"ErrWebhookBlocked":   proctor.ErrWebhookBlocked,
	"ErrSchemaTooComplex": proctor.ErrSchemaTooComplex,
}

// unprefixedSentinels are the aliased sentinels whose text is an engine's
// own and still lacks the prefix: json_schema's work bound, whose text is
// in every reason it gives.
var unprefixedSentinels = []string{"ErrSchemaTooComplex"}

// TestSentinelPrefix: every exported sentinel error of the root and the
// family packages says which package it is from, with one prefix per
// package ("proctor: ", "agent: ", ...).
func TestSentinelPrefix(t *testing.T) {
	n := 0
	for _, p := range shapePackages {
		for _, f := range declarations(t, p.dir) {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, s := range gd.Specs {
					vs := s.(*ast.ValueSpec)
					for i, id := range vs.Names {
						if !id.IsExported() || !strings.HasPrefix(id.Name, "Err") || i >= len(vs.Values) {
							continue
						}
						n++
						name := p.qual + id.Name
						text, ok := errorsNewText(vs.Values[i])
						if !ok {
							err, listed := aliasedSentinels[name]
							switch {
							case !listed:
								t.Errorf("%s is not errors.New(\"...\"): add it to aliasedSentinels", name)
							case slices.Contains(unprefixedSentinels, name):
							case !strings.HasPrefix(err.Error(), p.prefix):
								t.Errorf("%s reads %q, want the prefix %q", name, err, p.prefix)
							}
							continue
						}
						if !strings.HasPrefix(text, p.prefix) {
							t.Errorf("%s reads %q, want the prefix %q", name, text, p.prefix)
						}
					}
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("found %d sentinel errors, want the package's twenty or more: is the scan reading the sources?", n)
	}
}

// TestErrorPrefix: the errors a package makes (errors.New, fmt.Errorf and
// kit.Refuse with a literal text) never carry another package's prefix, as
// a family's constructors once said "proctor: ", and a kit.Refuse or
// kit.SpecCause names its own package.
func TestErrorPrefix(t *testing.T) {
	n := 0
	for _, p := range shapePackages {
		for _, f := range declarations(t, p.dir) {
			ast.Inspect(f, func(node ast.Node) bool {
				call, ok := node.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				fn := fmt.Sprint(sel.X) + "." + sel.Sel.Name
				if fn != "errors.New" && fn != "fmt.Errorf" && fn != "kit.Refuse" && fn != "kit.SpecCause" {
					return true
				}
				lit, ok := call.Args[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				text, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				n++
				if (fn == "kit.Refuse" || fn == "kit.SpecCause") && text != p.prefix {
					t.Errorf("%s: %s(%q, ...), want the package's prefix %q", p.dir, fn, text, p.prefix)
				}
				for _, other := range shapePackages {
					if other.prefix != p.prefix && strings.HasPrefix(text, other.prefix) {
						t.Errorf("%s: %s(%q) has another package's prefix %q, want %q or none", p.dir, fn, text, other.prefix, p.prefix)
					}
				}
				return true
			})
		}
	}
	if n < 100 {
		t.Errorf("found %d error texts, want a hundred or more: is the scan reading the sources?", n)
	}
}

// errorsNewText returns s when e is errors.New("s").
func errorsNewText(e ast.Expr) (string, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "New" || fmt.Sprint(sel.X) != "errors" {
		return "", false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// enumCase is one enum: its values, and how to decode a word into a new
// one.
type enumCase struct {
	values []textEnum
	decode func([]byte) (textEnum, error)
	prefix string
}

type textEnum interface {
	encoding.TextMarshaler
	fmt.Stringer
}

func enum[T textEnum, PT interface {
	*T
	encoding.TextUnmarshaler
}](prefix string, vals ...T) enumCase {
	c := enumCase{prefix: prefix, decode: func(b []byte) (textEnum, error) {
		var v T
		err := PT(&v).UnmarshalText(b)
		return v, err
	}}
	for _, v := range vals {
		c.values = append(c.values, v)
	}
	return c
}

// enumCases lists every enum of the root and the family packages with all
// its values, by qualified type name.
var enumCases = map[string]enumCase{
	"Status":                    enum("proctor: ", proctor.StatusNotGraded, proctor.StatusPassed, proctor.StatusFailed, proctor.StatusFlaky),
	"Severity":                  enum("proctor: ", proctor.SeverityUnset, proctor.SeverityLow, proctor.SeverityMedium, proctor.SeverityHigh, proctor.SeverityCritical),
	"Verdict":                   enum("proctor: ", proctor.VerdictAbstain, proctor.VerdictPass, proctor.VerdictFail),
	"Confidence":                enum("proctor: ", proctor.ConfidenceLow, proctor.ConfidenceHigh),
	"Kind":                      enum("proctor: ", proctor.KindDeterministic, proctor.KindNetwork, proctor.KindModel),
	"ContainsMode":              enum("proctor: ", proctor.ContainsAll, proctor.ContainsAny),
	"MatchMode":                 enum("proctor: ", proctor.MatchDefault, proctor.MatchFull, proctor.MatchSearch),
	"similarity.ContextMeasure": enum("similarity: ", similarity.MeasureF1, similarity.MeasurePrecision, similarity.MeasureRecall),
	"similarity.RougeMeasure":   enum("similarity: ", similarity.RougeFMeasure, similarity.RougePrecision, similarity.RougeRecall),
	"TokenField":                enum("proctor: ", proctor.TokenOutput, proctor.TokenInput, proctor.TokenTotal),
	"JudgeCacheMode":            enum("proctor: ", proctor.JudgeCacheReadWrite, proctor.JudgeCacheReplay, proctor.JudgeCacheRecord),
	"agent.SequenceMode":        enum("agent: ", agent.SequenceSubsequence, agent.SequenceExact, agent.SequenceAnyOrder),
	"agent.TrajectoryMode": enum("agent: ", agent.TrajectoryStrict, agent.TrajectoryUnordered,
		agent.TrajectorySubset, agent.TrajectorySuperset),
	"agent.ArgsMode":       enum("agent: ", agent.ArgsExact, agent.ArgsIgnore, agent.ArgsSubset, agent.ArgsSuperset),
	"openaievals.StringOp": enum("openaievals: ", openaievals.StringOpEq, openaievals.StringOpNe, openaievals.StringOpLike, openaievals.StringOpILike),
}

var enumWord = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// TestEnumText: every enum of the root and the family packages (an
// exported integer type) encodes one way: as text, its String word in
// lower case, which decodes back to the same value; an unknown word is an
// error with the package's prefix. Only Severity's unset zero value is
// the empty word.
func TestEnumText(t *testing.T) {
	var found []string
	for _, p := range shapePackages {
		for _, f := range declarations(t, p.dir) {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.TYPE {
					continue
				}
				for _, s := range gd.Specs {
					ts := s.(*ast.TypeSpec)
					if id, ok := ts.Type.(*ast.Ident); ok && ts.Name.IsExported() && slices.Contains([]string{"uint8", "int", "uint", "int8", "uint16", "string"}, id.Name) {
						found = append(found, p.qual+ts.Name.Name)
					}
				}
			}
		}
	}
	for _, name := range found {
		if _, ok := enumCases[name]; !ok {
			t.Errorf("%s is an enum not in enumCases", name)
		}
	}
	for name, c := range enumCases {
		if !slices.Contains(found, name) {
			t.Errorf("%s is in enumCases but not declared as an integer type", name)
		}
		for i, v := range c.values {
			b, err := v.MarshalText()
			w := string(b)
			switch {
			case err != nil:
				t.Errorf("%s %d: MarshalText: %v", name, i, err)
			case w != v.String():
				t.Errorf("%s %d: MarshalText %q, String %q: want one word", name, i, w, v.String())
			case !enumWord.MatchString(w) && (w != "" || name != "Severity" || i != 0):
				t.Errorf("%s %d: word %q, want lower-case letters, digits and _", name, i, w)
			}
			back, err := c.decode(b)
			if err != nil || back != v {
				t.Errorf("%s: UnmarshalText(%q) = %v, %v; want %v", name, w, back, err, v)
			}
		}
		if _, err := c.decode([]byte("NoSuchWord")); err == nil || !strings.HasPrefix(err.Error(), c.prefix) {
			t.Errorf("%s: UnmarshalText(NoSuchWord) = %v, want an error with the prefix %q", name, err, c.prefix)
		}
	}
}
