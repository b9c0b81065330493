package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestPick(t *testing.T) {
	for _, tt := range []struct {
		setting, locale string
		want            Lang
	}{
		{"auto", "zh-cn", Chinese}, {"", "zh-tw", Chinese}, {"auto", "en", English},
		{"zh-CN", "en", Chinese}, {"en", "zh-cn", English}, {"auto", "de", English},
	} {
		if got := Pick(tt.setting, tt.locale); got != tt.want {
			t.Errorf("Pick(%q, %q) = %s, want %s", tt.setting, tt.locale, got, tt.want)
		}
	}
	if got := T(Chinese, "No API key is set for %s. Set one to start chatting.", "x"); !strings.Contains(got, "API 密钥") {
		t.Fatalf("T = %q", got)
	}
	if got := T(English, "The model request failed: %s", "boom"); got != "The model request failed: boom" {
		t.Fatalf("T = %q", got)
	}
}

// TestEveryMessageIsTranslated scans the sidecar's sources for calls to
// i18n.T (or a local tr/t helper taking the message first) with a literal
// message and checks that each has a zh-cn entry, and that no entry is
// stale.
func TestEveryMessageIsTranslated(t *testing.T) {
	used := map[string]bool{}
	root := filepath.Join("..", "..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var name string
			switch fn := call.Fun.(type) {
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok && x.Name == "i18n" && fn.Sel.Name == "T" {
					name = "T"
				} else if fn.Sel.Name == "tr" || fn.Sel.Name == "Tr" {
					name = "tr"
				}
			case *ast.Ident:
				if fn.Name == "tr" {
					name = "tr"
				}
			}
			if name == "" {
				return true
			}
			idx := 0
			if name == "T" {
				idx = 1
			}
			if len(call.Args) > idx {
				if lit, ok := call.Args[idx].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, _ := strconv.Unquote(lit.Value)
					used[s] = true
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(used) < 8 {
		t.Fatalf("found only %d localised messages; is the scan broken?", len(used))
	}
	for m := range used {
		if _, ok := zhCN[m]; !ok {
			t.Errorf("no zh-cn translation for %q", m)
		}
	}
	for m := range zhCN {
		if !used[m] {
			t.Errorf("stale zh-cn entry %q", m)
		}
	}
}
