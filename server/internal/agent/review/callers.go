package review

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/govibe/govibe/server/internal/util/skipdirs"
	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// Limits of the caller search: it runs before the user sees an edit, so
// it must stay fast on big workspaces.
const (
	maxSearchFiles   = 20000
	maxSearchSize    = 1 << 20
	maxRefsPerSymbol = 5
)

// skipDirs are never searched for callers: dependencies, build outputs
// and version control.
// The names come from skipdirs, the one shared list.
var skipDirs = skipdirs.NotOwnCode

type language struct {
	exts    map[string]bool
	symbols func(src string) map[string]string // name → signature
}

var languages = []language{
	{exts: set(".go"), symbols: goSymbols},
	{exts: set(".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte"), symbols: jsSymbols},
	{exts: set(".py"), symbols: pySymbols},
}

func set(xs ...string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func languageOf(name string) *language {
	ext := strings.ToLower(filepath.Ext(name))
	for i := range languages {
		if languages[i].exts[ext] {
			return &languages[i]
		}
	}
	return nil
}

// callers finds exported symbols the change removes or whose signature it
// changes, and the places elsewhere in the workspace that still name them.
// Findings are warnings: the agent may be about to update those callers.
func callers(in EditCheck, name string) []Problem {
	lang := languageOf(name)
	if lang == nil || in.IsNew || len(in.Roots) == 0 {
		return nil
	}
	before := lang.symbols(in.Original)
	after := map[string]string{}
	if !in.Delete {
		after = lang.symbols(in.Proposed)
		if after == nil {
			return nil // unparseable: the syntax check reports it
		}
	}
	type change struct{ key, what string }
	var changed []change
	for key, sig := range before {
		switch nsig, ok := after[key]; {
		case !ok:
			changed = append(changed, change{key, "removes exported " + key})
		case nsig != sig:
			changed = append(changed, change{key, "changes the signature of exported " + key})
		}
	}
	if len(changed) == 0 {
		return nil
	}
	sort.Slice(changed, func(i, j int) bool { return changed[i].key < changed[j].key })
	idents := make([]string, len(changed))
	for i, c := range changed {
		idents[i] = c.key[strings.LastIndexByte(c.key, '.')+1:]
	}
	refs := findReferences(in.Roots, in.Path, lang, idents)
	var out []Problem
	for i, c := range changed {
		rs := refs[idents[i]]
		if len(rs) == 0 {
			continue
		}
		out = append(out, Problem{Severity: SeverityWarning, Location: name,
			Message: fmt.Sprintf("%s, which is still referenced at %s", c.what, strings.Join(rs, ", "))})
	}
	return out
}

// findReferences searches files of the same language for whole-word uses
// of each identifier, up to maxRefsPerSymbol each.
func findReferences(roots []string, self string, lang *language, idents []string) map[string][]string {
	refs := map[string][]string{}
	files := 0
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if p != root && (skipDirs(d.Name()) || strings.HasPrefix(d.Name(), ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			if p == self || !lang.exts[strings.ToLower(filepath.Ext(p))] {
				return nil
			}
			if files++; files > maxSearchFiles {
				return filepath.SkipAll
			}
			if info, err := d.Info(); err != nil || info.Size() > maxSearchSize {
				return nil
			}
			data, err := safefile.ReadFile(p, maxSearchSize) // a FIFO or a device is refused, not waited on
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			for _, id := range idents {
				if len(refs[id]) >= maxRefsPerSymbol {
					continue
				}
				for _, line := range wordLines(data, id) {
					if len(refs[id]) < maxRefsPerSymbol {
						refs[id] = append(refs[id], fmt.Sprintf("%s:%d", filepath.ToSlash(rel), line))
					}
				}
			}
			return nil
		})
	}
	return refs
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// wordLines returns the 1-based lines where id occurs as a whole word.
func wordLines(data []byte, id string) []int {
	var lines []int
	w := []byte(id)
	off := 0
	for {
		i := bytes.Index(data[off:], w)
		if i < 0 {
			return lines
		}
		at := off + i
		end := at + len(w)
		if (at == 0 || !isIdent(data[at-1])) && (end == len(data) || !isIdent(data[end])) {
			line := 1 + bytes.Count(data[:at], []byte("\n"))
			if len(lines) == 0 || lines[len(lines)-1] != line {
				lines = append(lines, line)
			}
			if len(lines) >= maxRefsPerSymbol {
				return lines
			}
		}
		off = end
	}
}

// goSymbols maps exported top-level names (methods as Recv.Name) to their
// signatures; nil when the source does not parse.
func goSymbols(src string) map[string]string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	render := func(n any) string {
		var b bytes.Buffer
		_ = printer.Fprint(&b, fset, n)
		return b.String()
	}
	out := map[string]string{}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			key := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				recv := render(d.Recv.List[0].Type)
				recv = strings.TrimLeft(recv, "*")
				if i := strings.IndexByte(recv, '['); i >= 0 {
					recv = recv[:i]
				}
				if !ast.IsExported(recv) {
					continue
				}
				key = recv + "." + key
			}
			out[key] = render(d.Type)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						out[s.Name.Name] = "type"
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							out[n.Name] = d.Tok.String()
						}
					}
				}
			}
		}
	}
	return out
}

var (
	jsExportRe = regexp.MustCompile(`(?m)^export\s+(?:default\s+)?(?:declare\s+)?(?:async\s+)?(function\*?|class|const|let|var|interface|type|enum|abstract\s+class)\s+([A-Za-z_$][\w$]*)([^{=\n]*)`)
	pyDefRe    = regexp.MustCompile(`(?m)^(?:async\s+)?(def|class)\s+([A-Za-z]\w*)\s*(\([^)\n]*\)?)?`)
)

func jsSymbols(src string) map[string]string {
	out := map[string]string{}
	for _, m := range jsExportRe.FindAllStringSubmatch(src, -1) {
		sig := m[1]
		if strings.Contains(m[1], "function") {
			sig += strings.Join(strings.Fields(m[3]), " ")
		}
		out[m[2]] = sig
	}
	return out
}

func pySymbols(src string) map[string]string {
	out := map[string]string{}
	for _, m := range pyDefRe.FindAllStringSubmatch(src, -1) {
		out[m[2]] = m[1] + strings.Join(strings.Fields(m[3]), " ")
	}
	return out
}
