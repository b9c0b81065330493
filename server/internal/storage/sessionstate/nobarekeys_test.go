package sessionstate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoRawStateAccess keeps NewKey the one way to name session state: outside the store and this package, no code calls the raw
// GetState/SetState(Relaxed)/DeleteState/StateOfSessions, so no bare string key can appear.
func TestNoRawStateAccess(t *testing.T) {
	root := filepath.Join("..", "..", "..") // server/
	raw := map[string]bool{"GetState": true, "SetState": true, "DeleteState": true, "StateOfSessions": true, "SetStateRelaxed": true}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := filepath.ToSlash(path); strings.HasSuffix(n, "internal/storage/store") || strings.HasSuffix(n, "internal/storage/sessionstate") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && raw[sel.Sel.Name] {
				t.Errorf("%s: raw session state access %s; declare the key in sessionstate/keys.go and use sessionstate.Get/Set/Delete", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
