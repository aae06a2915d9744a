package gomlx

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestDocNamesExist: every Config field and every adapters name that the
// package documentation mentions exists. The documentation once promised
// Config.OnImprove and Config.Patience, which never did.
func TestDocNamesExist(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	fields := regexp.MustCompile(`\bConfig\.([A-Z]\w*)`).FindAllStringSubmatch(doc, -1)
	for _, m := range fields {
		if _, ok := reflect.TypeFor[Config]().FieldByName(m[1]); !ok {
			t.Errorf("doc.go mentions Config.%s, which is not a field of Config", m[1])
		}
	}

	// The exported names of package adapters, from its source.
	pkgs, err := parser.ParseDir(token.NewFileSet(), "..", func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range pkgs["adapters"].Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	refs := regexp.MustCompile(`\badapters\.([A-Z]\w*)`).FindAllStringSubmatch(doc, -1)
	for _, m := range refs {
		if !names[m[1]] {
			t.Errorf("doc.go mentions adapters.%s, which package adapters does not declare", m[1])
		}
	}
	if len(fields) == 0 || len(refs) == 0 {
		t.Errorf("doc.go names %d Config fields and %d adapters names: the test checks nothing", len(fields), len(refs))
	}
}
