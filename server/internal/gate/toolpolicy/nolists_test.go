package toolpolicy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// listHomes are the only files that may list tool names: the registry
// of built-in tools and the map of other agents' names for them.
var listHomes = map[string]bool{
	"internal/workspace/tools/registry.go":    true,
	"internal/workspace/tools/compatnames.go": true,
	// The hooks' view of a call: each tool's arguments in Claude Code's
	// input shape, the other half of compatnames' name map. It decides
	// nothing about which tool runs where.
	"internal/gate/hooks/toolinput.go": true,
	// The eval suite scores a run after the fact (which failed calls were
	// edits); it decides nothing about what a model may call.
	"internal/agent/evalsuite/suite.go": true,
}

// TestNoToolNameListsOutsideTheRegistry scans the sidecar's sources (not
// tests) for a composite literal, a switch case or a call's arguments that
// name two tools or more: such a list is a tool policy written out by hand, which a new
// tool silently misses. Rules speak of traits (toolpolicy) instead.
func TestNoToolNameListsOutsideTheRegistry(t *testing.T) {
	names := map[string]bool{}
	for _, x := range everyTool() {
		// A mode's report tools are named only where the mode defines
		// them and its phases end with them (modes.Phase.Exit).
		if !x.Traits().Within(tools.Reports) {
			names[x.Name()] = true
		}
	}
	names["complete_task"] = true
	root := filepath.Join("..", "..", "..")
	consts := toolConsts(t, root, names)
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if listHomes[filepath.ToSlash(rel)] {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			var elts []ast.Expr
			switch n := n.(type) {
			case *ast.CompositeLit:
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						elts = append(elts, kv.Key, kv.Value)
					} else {
						elts = append(elts, e)
					}
				}
			case *ast.CaseClause:
				elts = n.List
			case *ast.CallExpr:
				elts = n.Args
			default:
				return true
			}
			var hit []string
			for _, e := range elts {
				if s, ok := toolName(e, names, consts); ok {
					hit = append(hit, s)
				}
			}
			if len(hit) >= 2 {
				t.Errorf("%s lists tools %v: declare traits on the tools and decide in toolpolicy", fset.Position(n.Pos()), hit)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("scanned only %d files", files)
	}
}

// toolConsts are the constants (by name) whose value is a tool's name,
// such as modes.ToolShell.
func toolConsts(t *testing.T, root string, names map[string]bool) map[string]bool {
	out := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING && i < len(vs.Names) {
						if s, err := strconv.Unquote(lit.Value); err == nil && names[s] {
							out[vs.Names[i].Name] = true
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// toolName is the tool a string literal, or a constant whose value is a
// tool's name, names.
func toolName(e ast.Expr, names, consts map[string]bool) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil && names[s]
		}
	case *ast.SelectorExpr:
		return e.Sel.Name, consts[e.Sel.Name]
	case *ast.Ident:
		return e.Name, consts[e.Name]
	}
	return "", false
}
