package mentions

import (
	"bufio"
	"context"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// @#Name (or @#Type.Member) attaches the definition of a symbol: the
// sidecar finds where it is declared (func, type, class, def, fn,
// interface... in the languages below) in the workspace files .gitignore
// keeps, and attaches each definition's lines through read_file, so the
// sandbox and Read rules apply as to any file mention. It works the same
// in the editor and headless; the editor's own symbol provider only
// feeds the autocomplete.

// Bounds of one symbol search.
const (
	maxSymbolDefs   = 3
	maxSymbolLines  = 80
	maxSymbolFile   = 1 << 20
	symbolBudget    = 3 * time.Second
	maxSymbolWalked = 100000
)

var symbolName = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)?$`)

var symbolExts = map[string]bool{".go": true, ".ts": true, ".tsx": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true,
	".py": true, ".rs": true, ".java": true, ".kt": true, ".cs": true, ".swift": true, ".rb": true, ".php": true, ".scala": true,
	".c": true, ".h": true, ".cc": true, ".cpp": true, ".hpp": true}

// defPattern matches a line declaring name: a keyword, an optional Go
// receiver, then the name as a whole word.
func defPattern(name string) *regexp.Regexp {
	kw := `(?:func|type|class|interface|struct|enum|trait|impl|def|fn|function|const|let|var|record|object|module)`
	return regexp.MustCompile(`^\s*(?:(?:export|default|public|private|protected|internal|static|abstract|final|async|pub(?:\([^)]*\))?|open|data|sealed)\s+)*` +
		kw + `\s+(?:\([^)]*\)\s*)?\*?` + regexp.QuoteMeta(name) + `\b`)
}

// SymbolDef is one place a symbol is declared.
type SymbolDef struct {
	Root string
	Rel  string // slash path relative to Root
	Line int    // 1-based
}

// FindSymbol finds the declarations of name ("Send", or "Engine.Send" to
// prefer the member of Engine) in roots, best first: a declaration naming
// the container on its line (a Go receiver, a class method found under
// its class) before others, then by path.
func FindSymbol(ctx context.Context, roots []string, name string, readable func(abs string) error) ([]SymbolDef, bool) {
	container, member, dotted := strings.Cut(name, ".")
	if !dotted {
		member, container = name, ""
	}
	re := defPattern(member)
	deadline := time.Now().Add(symbolBudget)
	var mu sync.Mutex
	var found []SymbolDef
	preferred := map[SymbolDef]bool{}
	stopped := false
	walked := 0
	for _, root := range roots {
		tools.WalkFiles(root, func(rel string) bool {
			mu.Lock()
			walked++
			if walked > maxSymbolWalked || ctx.Err() != nil || time.Now().After(deadline) {
				stopped = true
				mu.Unlock()
				return false
			}
			mu.Unlock()
			if !symbolExts[strings.ToLower(path.Ext(rel))] {
				return true
			}
			abs := filepath.Join(root, filepath.FromSlash(rel))
			if readable != nil && readable(abs) != nil {
				return true
			}
			for _, d := range scanFile(abs, re, container) {
				mu.Lock()
				def := SymbolDef{Root: root, Rel: rel, Line: d.line}
				found = append(found, def)
				preferred[def] = d.inContainer
				mu.Unlock()
			}
			return true
		})
	}
	sort.Slice(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if preferred[a] != preferred[b] {
			return preferred[a]
		}
		if a.Rel != b.Rel {
			return a.Rel < b.Rel
		}
		return a.Line < b.Line
	})
	if container != "" && len(found) > 0 && preferred[found[0]] {
		n := 0
		for _, d := range found {
			if preferred[d] {
				found[n] = d
				n++
			}
		}
		found = found[:n]
	}
	return found, stopped
}

type fileDef struct {
	line        int
	inContainer bool
}

// scanFile returns the lines of abs declaring the symbol; inContainer
// says the declaration names container on its line (a Go receiver) or
// follows a declaration of container (a method in its class).
func scanFile(abs string, re *regexp.Regexp, container string) []fileDef {
	// A walker's entry: a FIFO or a link swapped in since the listing is
	// refused, never waited on (issue 31).
	f, st, err := safefile.Open(abs, safefile.Options{NoFollow: true})
	if err != nil {
		return nil
	}
	defer f.Close()
	if st.Size() > maxSymbolFile {
		return nil
	}
	var containerRE, containerDef *regexp.Regexp
	if container != "" {
		containerRE = regexp.MustCompile(`\b` + regexp.QuoteMeta(container) + `\b`)
		containerDef = defPattern(container)
	}
	var out []fileDef
	inClass := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if containerRE != nil && containerRE.MatchString(line) && containerDef.MatchString(line) {
			inClass = true
		}
		if re.MatchString(line) {
			in := containerRE != nil && (containerRE.MatchString(line) || inClass)
			out = append(out, fileDef{line: n, inContainer: in})
		}
	}
	return out
}

// symbolAttachment reads each definition found for name (at most
// maxSymbolDefs) through read_file.
func symbolAttachment(ctx context.Context, env *tools.Env, name string) (string, string) {
	if !symbolName.MatchString(name) {
		return "", "write @#Name or @#Type.Member with a symbol's name"
	}
	defs, partial := FindSymbol(ctx, env.Roots, name, env.Readable)
	if len(defs) == 0 {
		if partial {
			return "", fmt.Sprintf("no declaration of %s found before the search stopped (large workspace); use grep_search", name)
		}
		return "", fmt.Sprintf("no declaration of %s found in the workspace", name)
	}
	var b strings.Builder
	more := len(defs) - maxSymbolDefs
	for i, d := range defs[:min(len(defs), maxSymbolDefs)] {
		if i > 0 {
			b.WriteString("\n\n")
		}
		p := d.Rel
		if len(env.Roots) > 1 {
			p = filepath.Join(d.Root, filepath.FromSlash(d.Rel))
		}
		end := definitionEnd(filepath.Join(d.Root, filepath.FromSlash(d.Rel)), d.Line)
		content, errMsg := runTool(ctx, env, tools.ReadFile(), map[string]any{"filePath": p, "startLine": d.Line, "endLine": end})
		if errMsg != "" {
			fmt.Fprintf(&b, "%s:%d: %s", d.Rel, d.Line, errMsg)
			continue
		}
		b.WriteString(content)
	}
	if more > 0 {
		fmt.Fprintf(&b, "\n\n[%d more declarations of %s; grep_search finds them]", more, name)
	}
	return b.String(), ""
}

// definitionEnd guesses the last line of the declaration starting at
// line: where its braces close, or, for an indented block (Python), the
// line before the next one indented no deeper; at most maxSymbolLines.
func definitionEnd(abs string, line int) int {
	f, _, err := safefile.Open(abs, safefile.Options{NoFollow: true})
	if err != nil {
		return line + maxSymbolLines - 1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	depth, opened, indent, last := 0, false, -1, line
	for n := 1; sc.Scan(); n++ {
		if n < line {
			continue
		}
		if n >= line+maxSymbolLines {
			return n - 1
		}
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		lead := len(text) - len(strings.TrimLeft(text, " \t"))
		if n == line {
			indent = lead
		} else if !opened && trimmed != "" && lead <= indent {
			return last // an indented block (or a one-line declaration) ended
		}
		for _, c := range text {
			switch c {
			case '{':
				depth++
				opened = true
			case '}':
				depth--
			}
		}
		if trimmed != "" {
			last = n
		}
		if opened && depth <= 0 {
			return n
		}
	}
	return last
}
