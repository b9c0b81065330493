package eventdata

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strings"
	"testing"
)

// Every type of this package with a Field method is listed in All (the
// generator derives the wire field and the TypeScript from All, so a type
// left out would never reach the client), once, under a field of its own.
func TestAllListsEveryPayload(t *testing.T) {
	declared := map[string]bool{}
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.Name == "Field" {
				declared[fn.Recv.List[0].Type.(*ast.Ident).Name] = true
			}
		}
	}
	listed, fields := map[string]bool{}, map[string]bool{}
	for _, p := range All {
		name := reflect.TypeOf(p).Name()
		if listed[name] {
			t.Errorf("%s is listed twice", name)
		}
		listed[name] = true
		if fields[p.Field()] || p.Field() == "" {
			t.Errorf("%s: field %q is empty or taken", name, p.Field())
		}
		fields[p.Field()] = true
	}
	for name := range declared {
		if !listed[name] {
			t.Errorf("%s has a Field method but is not in All", name)
		}
	}
	if len(declared) != len(All) {
		t.Errorf("%d payload types declared, %d listed", len(declared), len(All))
	}
}
