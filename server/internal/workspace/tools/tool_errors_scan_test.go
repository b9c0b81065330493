package tools

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryFailureIsWordedForThePerson is the static half of the class
// check: anywhere in the sidecar, a failed tool result is built with a
// Display. A Fail(...) call must be assigned to a variable whose Display
// the same function sets (or go through FailShown instead), and a Result
// literal that fails (OK false or left out) with an Output must name
// Display. The behavioural test above only reaches what bad inputs reach;
// this one also covers the loop, sub-agents and phase guards.
func TestEveryFailureIsWordedForThePerson(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Name.Name == "Fail" {
				continue
			}
			for _, p := range failuresWithoutDisplay(fn) {
				t.Errorf("%s: a failed tool result without a Display for the person", fset.Position(p))
			}
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("scanned only %d functions; is the walk broken?", n)
	}
}

func failuresWithoutDisplay(fn *ast.FuncDecl) []token.Pos {
	displaySet := map[string]bool{} // variables whose .Display is assigned
	assigned := map[ast.Expr]string{}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			if sel, ok := l.(*ast.SelectorExpr); ok && sel.Sel.Name == "Display" {
				if id, ok := sel.X.(*ast.Ident); ok {
					displaySet[id.Name] = true
				}
			}
			if id, ok := l.(*ast.Ident); ok && i < len(as.Rhs) {
				assigned[as.Rhs[i]] = id.Name
			}
		}
		return true
	})
	var bad []token.Pos
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if isFailCall(n) {
				if v, ok := assigned[n]; !ok || !displaySet[v] {
					bad = append(bad, n.Pos())
				}
			}
		case *ast.CompositeLit:
			if resultType(n.Type) && failingLiteral(n) {
				bad = append(bad, n.Pos())
			}
		}
		return true
	})
	return bad
}

func isFailCall(c *ast.CallExpr) bool {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name == "Fail"
	case *ast.SelectorExpr:
		x, ok := f.X.(*ast.Ident)
		return ok && x.Name == "tools" && f.Sel.Name == "Fail"
	}
	return false
}

func resultType(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "Result"
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && x.Name == "tools" && e.Sel.Name == "Result"
	}
	return false
}

// failingLiteral: OK is false or absent, an Output is set and no Display.
func failingLiteral(c *ast.CompositeLit) bool {
	okFalse, output, display := true, false, false
	for _, el := range c.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return false
		}
		switch k, _ := kv.Key.(*ast.Ident); k.Name {
		case "OK":
			id, isIdent := kv.Value.(*ast.Ident)
			okFalse = isIdent && id.Name == "false"
		case "Output":
			output = true
		case "Display":
			display = true
		}
	}
	return okFalse && output && !display
}
