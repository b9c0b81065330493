package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"sort"
	"strings"
)

type constant struct {
	name, value, group string
	pos                token.Pos
}

// readConsts reads exported untyped constants with literal values from the
// protocol package source, so the TypeScript side shares the exact values.
func readConsts(dir string) ([]constant, error) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool {
		n := fi.Name()
		return strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") && !strings.HasSuffix(n, "_gen.go")
	}, 0)
	if err != nil {
		return nil, err
	}
	var out []constant
	for _, pkg := range pkgs {
		for fname, f := range pkg.Files {
			group := strings.TrimSuffix(fname[strings.LastIndex(fname, "/")+1:], ".go")
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, s := range gd.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if !n.IsExported() || i >= len(vs.Values) {
							continue
						}
						if v, ok := literal(vs.Values[i]); ok {
							out = append(out, constant{n.Name, v, group, n.Pos()})
						}
					}
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].group != out[j].group {
			return out[i].group < out[j].group
		}
		return out[i].pos < out[j].pos
	})
	return out, nil
}

func literal(e ast.Expr) (string, bool) {
	switch v := e.(type) {
	case *ast.BasicLit:
		if v.Kind == token.STRING || v.Kind == token.INT {
			return v.Value, true
		}
	case *ast.UnaryExpr:
		if lit, ok := v.X.(*ast.BasicLit); ok && v.Op == token.SUB && lit.Kind == token.INT {
			return "-" + lit.Value, true
		}
	}
	return "", false
}
