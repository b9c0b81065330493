package i18n

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// userPackages produce the messages people read (notices, errors shown
// in the chat, server notices, headless output). Model-facing text in
// them (tool results, prompts) is English by design and is not checked.
var userPackages = []string{"engine", "rpc/server", "agent", "agent/subagent", "agent/scheduler/planrun", "agent/compact/compaction", "agent/compact/sessioncompact", "model/usage/budgetgate", "agent/humanerr", "agent/slashcmd", "agent/slashcmd/customcmd", "agent/modes/moderun", "agent/skills", "gate/hooks", "workspace/mcpclient", "gate/trust", "workspace/rollback", "model/profiles", "storage/sessions", "agent/recovery", "agent/turninput", "agent/turntools", "agent/dialogs", "../cmd/govibe"}

// TestUserMessagesGoThroughTheCatalogue is a vet-style check: every text
// that reaches a person through a user-facing sink must be built by the
// catalogue (i18n.T, or a tr/Tr helper), not written inline. The sinks
// are Notice and AddNotice calls, notice and error events, ErrorInfo
// messages, server notices, and the headless printer's own words. A text
// that is a plain variable is not followed (it was built elsewhere, where
// this check looks at its literal).
func TestUserMessagesGoThroughTheCatalogue(t *testing.T) {
	var problems []string
	for _, pkg := range userPackages {
		dir := filepath.Join("..", "..", pkg)
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			path := filepath.Join(dir, name)
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			report := func(n ast.Node, what string) {
				problems = append(problems, fmt.Sprintf("%s: %s bypasses the i18n catalogue", fset.Position(n.Pos()), what))
			}
			// The headless printer's own words (exec_output.go) are a
			// sink too; CLI usage errors elsewhere stay English, as the
			// flag package's own messages do.
			printer := name == "exec_output.go"
			var inline func(ast.Expr) bool
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					inline = inlineIn(n)
				case *ast.FuncLit:
					return true
				case *ast.CallExpr:
					if inline == nil {
						return true
					}
					fname := ""
					switch fn := n.Fun.(type) {
					case *ast.SelectorExpr:
						fname = fn.Sel.Name
					case *ast.Ident:
						fname = fn.Name
					}
					if fname != "" {
						switch fname {
						case "Fprintf", "Fprintln", "Fprint":
							if printer && len(n.Args) > 1 && inline(n.Args[1]) {
								report(n, "headless output")
							}
						case "Notice":
							if len(n.Args) > 0 && inline(n.Args[len(n.Args)-1]) {
								report(n, "a notice")
							}
						case "AddNotice":
							if len(n.Args) == 3 && inline(n.Args[2]) {
								report(n, "a stored notice")
							}
						case "refuse":
							if len(n.Args) == 2 && inline(n.Args[1]) {
								report(n, "a refusal's display text")
							}
						}
					}
				case *ast.CompositeLit:
					if inline == nil {
						return true
					}
					typ := typeName(n.Type)
					notice := false
					for _, el := range n.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok && keyName(kv) == "Kind" {
							if id := typeName(kv.Value); id == "KindNotice" || id == "KindError" {
								notice = true
							}
						}
					}
					for _, el := range n.Elts {
						kv, ok := el.(*ast.KeyValueExpr)
						if !ok {
							continue
						}
						switch {
						case typ == "Event" && notice && keyName(kv) == "Text" && inline(kv.Value):
							report(kv, "a notice event's text")
						// humanerr.Info becomes the engine's ErrorInfo.
						case (typ == "ErrorInfo" || typ == "ServerNotice" || pkg == "humanerr" && typ == "Info") && keyName(kv) == "Message" && inline(kv.Value):
							report(kv, "an error message")
						case keyName(kv) == "Display" && inline(kv.Value):
							report(kv, "a tool result's display text")
						}
					}
				}
				return true
			})
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// inlineIn returns the check for one function: whether an expression
// builds text from a literal without the catalogue (a string literal, a
// concatenation or Sprintf involving one, or a local variable assigned
// such a value in the function).
func inlineIn(fn *ast.FuncDecl) func(ast.Expr) bool {
	tainted := map[string]bool{}
	var inline func(ast.Expr) bool
	inline = func(e ast.Expr) bool { return inlineExpr(e, tainted, inline) }
	if fn.Body == nil {
		return inline
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && inline(as.Rhs[i]) {
					tainted[id.Name] = true
				}
			}
		}
		return true
	})
	return inline
}

func inlineExpr(e ast.Expr, tainted map[string]bool, inline func(ast.Expr) bool) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return tainted[e.Name]
	case *ast.BasicLit:
		v := strings.Trim(e.Value, "\"`")
		return e.Kind == token.STRING && strings.TrimSpace(strings.ReplaceAll(v, "\\n", "")) != "" && !formatOnly(v)
	case *ast.BinaryExpr:
		return inline(e.X) || inline(e.Y)
	case *ast.ParenExpr:
		return inline(e.X)
	case *ast.CallExpr:
		switch fn := e.Fun.(type) {
		case *ast.SelectorExpr:
			switch fn.Sel.Name {
			case "tr", "Tr", "T":
				return false
			case "Sprintf", "Sprint", "Errorf":
				for _, a := range e.Args {
					if inline(a) {
						return true
					}
				}
				return false
			}
		case *ast.Ident:
			if fn.Name == "tr" {
				return false
			}
		}
	}
	return false
}

// formatOnly is a format with no words of its own ("%s\n", "  %s✗ %s").
func formatOnly(v string) bool {
	v = verbRE.ReplaceAllString(strings.ReplaceAll(v, `\n`, ""), "")
	for _, r := range v {
		if unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

var verbRE = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.StarExpr:
		return typeName(e.X)
	}
	return ""
}

func keyName(kv *ast.KeyValueExpr) string {
	if id, ok := kv.Key.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// TestTranslationsKeepFormatVerbs: a translation must take the same
// arguments as its English key (in any order, with explicit indexes such
// as %[2]s).
func TestTranslationsKeepFormatVerbs(t *testing.T) {
	for en, zh := range zhCN {
		if a, b := argVerbs(en), argVerbs(zh); a != b {
			t.Errorf("%q: arguments %s, translation has %s", en, a, b)
		}
	}
}

var argVerbRE = regexp.MustCompile(`%(?:\[(\d+)\])?[-+# 0-9.]*([a-zA-Z%])`)

// argVerbs renders a format's arguments as "1:s 2:q", by argument index.
func argVerbs(format string) string {
	byIndex := map[int]string{}
	next := 1
	for _, m := range argVerbRE.FindAllStringSubmatch(format, -1) {
		if m[2] == "%" {
			continue
		}
		if m[1] != "" {
			next, _ = strconv.Atoi(m[1])
		}
		byIndex[next] = m[2]
		next++
	}
	var out []string
	for i := 1; i <= len(byIndex); i++ {
		out = append(out, fmt.Sprintf("%d:%s", i, byIndex[i]))
	}
	return strings.Join(out, " ")
}
