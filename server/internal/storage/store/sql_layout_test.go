package store

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// sqlOwners says which files may write each table (the package doc,
// "Hand-written SQL"). A table's own queries live in the file named for it; the other
// entries are the operations that must change several tables in one
// transaction (a turn's begin, a streaming message, import, recovery, a
// merge of another database),
// each in the file named for that operation.
var sqlOwners = map[string][]string{
	"sessions":         {"sessions.go", "messages.go", "stream_writer.go", "export.go", "merge.go"},
	"messages":         {"messages.go", "stream_writer.go", "export.go", "recovery.go", "merge.go"},
	"message_parts":    {"messages.go", "parts.go", "stream_writer.go", "stream_discard.go", "merge.go"},
	"llm_messages":     {"llm_track.go", "merge.go"},
	"session_state":    {"state.go", "export.go", "merge.go"},
	"confirmations":    {"confirmations.go", "recovery.go", "export.go", "merge.go"},
	"endpoints":        {"endpoints.go", "merge.go"},
	"merged_stores":    {"merge.go"},
	"message_text_fts": {},
}

var writeRE = regexp.MustCompile(`(?i)\b(INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)`)

// TestSQLStaysWithItsTable: every statement that writes a table is in a
// file allowed to write it, so hand-written SQL does not spread.
func TestSQLStaysWithItsTable(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, _ := strconv.Unquote(lit.Value)
			for _, m := range writeRE.FindAllStringSubmatch(s, -1) {
				table := strings.ToLower(m[2])
				if table == "set" || table == "of" {
					continue // "ON CONFLICT ... DO UPDATE SET", trigger text
				}
				owners, known := sqlOwners[table]
				if !known {
					t.Errorf("%s writes table %q, which has no owner in sqlOwners", name, table)
					continue
				}
				seen[table] = true
				ok := false
				for _, o := range owners {
					ok = ok || o == name
				}
				if !ok {
					t.Errorf("%s writes %s; only %v may (move the statement, or name the operation in sqlOwners and the package doc)", name, table, owners)
				}
			}
			return true
		})
	}
	for table, owners := range sqlOwners {
		if len(owners) > 0 && !seen[table] {
			t.Errorf("sqlOwners lists %s but no statement writes it", table)
		}
	}
}

// TestEveryStoreMethodHasATest: each exported method of Store and
// StreamWriter (each a query site or a wrapper of one) is called by a
// test in this package.
func TestEveryStoreMethodHasATest(t *testing.T) {
	methods := map[string]bool{}
	called := map[string]bool{}
	entries, _ := os.ReadDir(".")
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		test := strings.HasSuffix(name, "_test.go")
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if !test && n.Recv != nil && n.Name.IsExported() {
					if typ := recvType(n.Recv.List[0].Type); typ == "Store" || typ == "StreamWriter" {
						methods[typ+"."+n.Name.Name] = true
					}
				}
			case *ast.SelectorExpr:
				if test {
					called[n.Sel.Name] = true
				}
			}
			return true
		})
	}
	var missing []string
	for m := range methods {
		if !called[m[strings.IndexByte(m, '.')+1:]] {
			missing = append(missing, m)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("no test calls %v", missing)
	}
	if len(methods) < 30 {
		t.Fatalf("found only %d methods; is the scan broken?", len(methods))
	}
}

func recvType(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
