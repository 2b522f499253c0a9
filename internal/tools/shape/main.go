// Command shape prints the figures that say whether the root package is a
// kernel a newcomer can read in one sitting: how many files the repository
// root holds, how many names the root package exports, how long its godoc
// index is and where the kernel's types fall in it, and which non-test
// functions and files anywhere in the module are too long to read at once.
//
// Run it from the module root:
//
//	go run ./internal/tools/shape
//
// With -check it exits 1 when a figure is past the layout's goals (at most
// 60 files in the root, 280 exported names, 430 index entries with Runner,
// Case, Check and Compiler among the first 150, no function over 80 lines and
// no file over 700 lines), so a change that undoes the layout is caught.
//
// With -index it prints the root package's godoc index, numbered as the
// figures count it. With -without it counts the root as if the root files
// its comma-separated globs match had moved to a package of their own, so
// a proposed move can be weighed before it is made:
//
//	go run ./internal/tools/shape -without 'llmjudge*.go,judgerun_test.go'
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Goals of the layout (CONTRIBUTING.md).
const (
	maxRootFiles  = 60
	maxExported   = 280
	maxIndex      = 430
	kernelRank    = 150
	maxFuncLines  = 80
	maxFileLines  = 700
	longFuncLines = 60
)

var kernel = []string{"Runner", "Case", "Check", "Compiler"}

func main() {
	check := flag.Bool("check", false, "exit 1 when a figure is past the layout's goals")
	verbose := flag.Bool("v", false, "list the long functions and files")
	listIndex := flag.Bool("index", false, "print the root package's godoc index, one numbered entry a line")
	without := flag.String("without", "", "comma-separated globs of root files to count as moved out")
	flag.Parse()
	skip, err := skipper(*without)
	if err == nil {
		if *listIndex {
			err = printIndex(skip)
		} else {
			err = run(*check, *verbose, skip)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "shape:", err)
		os.Exit(1)
	}
}

// skipper returns a func that reports whether a root file is one the
// -without globs match; a glob that does not parse is an error.
func skipper(globs string) (func(name string) bool, error) {
	var pats []string
	for _, g := range strings.Split(globs, ",") {
		if g = strings.TrimSpace(g); g == "" {
			continue
		}
		if _, err := filepath.Match(g, ""); err != nil {
			return nil, fmt.Errorf("-without %q: %w", g, err)
		}
		pats = append(pats, g)
	}
	return func(name string) bool {
		return slices.ContainsFunc(pats, func(p string) bool {
			ok, _ := filepath.Match(p, name)
			return ok
		})
	}, nil
}

func run(check, verbose bool, skip func(string) bool) error {
	root, err := rootFiles(".", skip)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	pkg, err := parsePackage(fset, ".", skip)
	if err != nil {
		return err
	}
	exported := exportedNames(pkg)
	index := indexEntries(fset, pkg)
	long, err := longCode(".")
	if err != nil {
		return err
	}
	var over []string
	fmt.Printf("root files            %d (%d code, %d test .go)\n", root.all, root.code, root.test)
	fmt.Printf("root exported names   %d\n", exported)
	fmt.Printf("root godoc index      %d entries\n", len(index))
	for _, k := range kernel {
		r := slices.Index(index, "type "+k) + 1
		fmt.Printf("  %-19s #%d\n", "type "+k, r)
		if r == 0 || r > kernelRank {
			over = append(over, fmt.Sprintf("type %s is entry %d of the index, want within %d", k, r, kernelRank))
		}
	}
	fmt.Printf("functions >= %d lines  %d\n", longFuncLines, long.funcs60)
	fmt.Printf("functions > %d lines   %d\n", maxFuncLines, len(long.funcs))
	fmt.Printf("files > %d lines      %d\n", maxFileLines, len(long.files))
	if verbose {
		for _, f := range long.funcs {
			fmt.Println("  func", f)
		}
		for _, f := range long.files {
			fmt.Println("  file", f)
		}
	}
	over = appendOver(over, "root files", root.all, maxRootFiles)
	over = appendOver(over, "exported names", exported, maxExported)
	over = appendOver(over, "index entries", len(index), maxIndex)
	over = appendOver(over, "functions over 80 lines", len(long.funcs), 0)
	over = appendOver(over, "files over 700 lines", len(long.files), 0)
	if check && len(over) > 0 {
		return fmt.Errorf("past the layout's goals:\n  %s", strings.Join(over, "\n  "))
	}
	return nil
}

// printIndex prints the root package's godoc index, numbered as the
// figures count it, so a change's effect on the kernel's place shows.
func printIndex(skip func(string) bool) error {
	fset := token.NewFileSet()
	pkg, err := parsePackage(fset, ".", skip)
	if err != nil {
		return err
	}
	for i, e := range indexEntries(fset, pkg) {
		fmt.Printf("%4d %s\n", i+1, e)
	}
	return nil
}

func appendOver(over []string, what string, n, limit int) []string {
	if n > limit {
		over = append(over, fmt.Sprintf("%s: %d, want at most %d", what, n, limit))
	}
	return over
}

type fileCount struct{ all, code, test int }

// rootFiles counts the files (not folders) in the repository root,
// dot-files and those skip matches aside.
func rootFiles(dir string, skip func(string) bool) (fileCount, error) {
	var c fileCount
	ents, err := os.ReadDir(dir)
	if err != nil {
		return c, err
	}
	for _, e := range ents {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") || skip(e.Name()) {
			continue
		}
		c.all++
		switch {
		case strings.HasSuffix(e.Name(), "_test.go"):
			c.test++
		case strings.HasSuffix(e.Name(), ".go"):
			c.code++
		}
	}
	return c, nil
}

// parsePackage parses the non-test files of the package in dir, those skip
// matches aside.
func parsePackage(fset *token.FileSet, dir string, skip func(string) bool) (*ast.Package, error) {
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go") && !skip(fi.Name())
	}, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	for name, p := range pkgs {
		if name != "main" {
			return p, nil
		}
	}
	return nil, fmt.Errorf("no package in %s", dir)
}

// exportedNames counts the package-level exported identifiers: constants,
// variables, functions and types (methods and fields are not names of the
// package).
func exportedNames(p *ast.Package) int {
	n := 0
	for _, f := range p.Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					n++
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							n++
						}
					case *ast.ValueSpec:
						for _, id := range s.Names {
							if id.IsExported() {
								n++
							}
						}
					}
				}
			}
		}
	}
	return n
}

// indexEntries lists the godoc index in its order: the Constants and
// Variables headings when present, the functions that belong to no type,
// then each type followed by its constructors and its methods.
func indexEntries(fset *token.FileSet, p *ast.Package) []string {
	files := make([]*ast.File, 0, len(p.Files))
	for _, f := range p.Files {
		files = append(files, f)
	}
	d, err := doc.NewFromFiles(fset, files, "example.com/"+p.Name)
	if err != nil {
		return nil
	}
	var out []string
	if len(d.Consts) > 0 {
		out = append(out, "Constants")
	}
	if len(d.Vars) > 0 {
		out = append(out, "Variables")
	}
	for _, f := range d.Funcs {
		out = append(out, "func "+f.Name)
	}
	for _, t := range d.Types {
		out = append(out, "type "+t.Name)
		for _, f := range t.Funcs {
			out = append(out, "func "+f.Name)
		}
		for _, m := range t.Methods {
			out = append(out, "method "+t.Name+"."+m.Name)
		}
	}
	return out
}

type longs struct {
	funcs   []string
	files   []string
	funcs60 int
}

// longCode walks the module's non-test Go files (testdata and hidden
// folders aside) for functions over maxFuncLines and files over
// maxFileLines.
func longCode(dir string) (longs, error) {
	var l longs
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if n := e.Name(); path != "." && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		return measureFile(path, &l)
	})
	return l, err
}

func measureFile(path string, l *longs) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	if lines := fset.File(f.Pos()).LineCount(); lines > maxFileLines {
		l.files = append(l.files, fmt.Sprintf("%s (%d lines)", path, lines))
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
		if n >= longFuncLines {
			l.funcs60++
		}
		if n > maxFuncLines {
			l.funcs = append(l.funcs, fmt.Sprintf("%s:%s (%d lines)", path, fd.Name.Name, n))
		}
	}
	return nil
}
