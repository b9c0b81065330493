package contextfiles

import (
	"fmt"
	"github.com/govibe/govibe/server/internal/workspace/safefile"
	"os"
	"path/filepath"
	"strings"

	"github.com/govibe/govibe/server/internal/gate/osbox"
)

// Imports: Claude Code (https://docs.anthropic.com/en/docs/claude-code/memory,
// "CLAUDE.md imports") and Gemini CLI (docs/core/memport.md) expand an
// `@path` in their context files into that file, relative to the file that
// names it, up to five hops deep. The same files are read by both tools
// (and AGENTS.md by teams that point one at the other), so GoVibe expands
// the same way. What it will not do: leave the workspace folders and the
// home folder, read a secret the command sandbox masks, follow a cycle, or
// grow one context file past MaxExpandedBytes.
const (
	MaxImportDepth   = 5
	MaxExpandedBytes = 64 << 10
)

// importNames are the context files whose @paths are imports.
var importNames = map[string]bool{"AGENTS.md": true, "CLAUDE.md": true, "CLAUDE.local.md": true, "GEMINI.md": true}

// importsOf says whether a file's @paths are imports.
func importsOf(rel string) bool { return importNames[filepath.Base(rel)] }

type importer struct {
	root     string   // the workspace root the top file belongs to
	allowed  []string // real paths imports may come from
	home     string
	secrets  []string // real paths of the home's masked secrets
	left     int
	problems []error
}

func newImporter(root string) *importer {
	im := &importer{root: root, left: MaxExpandedBytes}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		im.allowed = append(im.allowed, r)
	}
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		if r, err := filepath.EvalSymlinks(h); err == nil {
			im.home = r
			im.allowed = append(im.allowed, r)
			for _, s := range osbox.HomeSecrets(h) {
				if rs, err := filepath.EvalSymlinks(s); err == nil {
					im.secrets = append(im.secrets, rs)
				} else {
					im.secrets = append(im.secrets, s)
				}
			}
		}
	}
	return im
}

// expand returns content with each import's text inserted after the line
// that names it (the line stays, so "See @README.md for the overview"
// still reads). from is the real path of the file content came from;
// chain holds the real paths being expanded, for cycles.
func (im *importer) expand(content, from string, chain []string) string {
	var b strings.Builder
	fence := ""
	for _, line := range strings.SplitAfter(content, "\n") {
		b.WriteString(line)
		trimmed := strings.TrimSpace(line)
		// Claude Code and Gemini CLI leave @ in code alone.
		if f := fenceOf(trimmed); f != "" {
			if fence == "" {
				fence = f
			} else if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		for _, tok := range importTokens(line) {
			text, ok := im.one(tok, from, chain)
			if !ok {
				continue
			}
			if !strings.HasSuffix(b.String(), "\n") {
				b.WriteString("\n")
			}
			b.WriteString(text)
		}
	}
	return b.String()
}

// one resolves and reads one import; ok is false when tok names no file
// (an @mention of a person, a package) or the import is refused.
func (im *importer) one(tok, from string, chain []string) (string, bool) {
	p, ok := im.resolve(tok, from)
	if !ok {
		return "", false
	}
	name := im.display(p)
	where := im.display(from)
	switch {
	case len(chain) > MaxImportDepth:
		im.problems = append(im.problems, fmt.Errorf("%s: @%s is not imported: imports nest at most %d levels", where, tok, MaxImportDepth))
		return "", false
	case contains(chain, p):
		im.problems = append(im.problems, fmt.Errorf("%s: @%s is not imported: it imports itself (a cycle)", where, tok))
		return "", false
	case !im.inside(p):
		im.problems = append(im.problems, fmt.Errorf("%s: @%s is not imported: only files in the workspace folders and the home folder are", where, tok))
		return "", false
	case im.secret(p):
		im.problems = append(im.problems, fmt.Errorf("%s: @%s is not imported: it is a secret the sandbox masks", where, tok))
		return "", false
	}
	data, err := readCapped(p, im.left)
	if err != nil {
		im.problems = append(im.problems, fmt.Errorf("%s: @%s: %v", where, tok, err))
		return "", false
	}
	cut := len(data) > im.left
	if cut {
		data = data[:max(im.left, 0)]
	}
	im.left -= len(data)
	body := im.expand(strings.ToValidUTF8(string(data), "\uFFFD"), p, append(chain, p))
	if cut {
		body += fmt.Sprintf("\n(cut: imports of one context file stop at %d KB; read_file shows the rest)", MaxExpandedBytes>>10)
	}
	return fmt.Sprintf("<!-- Imported from: %s -->\n%s\n<!-- End of import from: %s -->\n", name, strings.TrimRight(body, "\n"), name), true
}

// resolve turns an @token into the real path of an existing regular file.
// A token may end in sentence punctuation ("see @docs/a.md."): the longest
// prefix that is a file wins.
func (im *importer) resolve(tok, from string) (string, bool) {
	for _, cand := range []string{tok, strings.TrimRight(tok, ".,;:!?)]'\"")} {
		if cand == "" {
			continue
		}
		var p string
		switch {
		case strings.HasPrefix(cand, "~/"):
			if im.home == "" {
				continue
			}
			p = filepath.Join(im.home, cand[2:])
		case filepath.IsAbs(cand):
			p = cand
		default:
			p = filepath.Join(filepath.Dir(from), filepath.FromSlash(cand))
		}
		real, err := filepath.EvalSymlinks(filepath.Clean(p))
		if err != nil {
			continue
		}
		if st, err := os.Stat(real); err == nil && st.Mode().IsRegular() {
			return real, true
		}
	}
	return "", false
}

func (im *importer) inside(p string) bool {
	for _, a := range im.allowed {
		if within(p, a) {
			return true
		}
	}
	return false
}

func (im *importer) secret(p string) bool {
	if osbox.IsSecretFile(filepath.Base(p)) {
		return true
	}
	for _, s := range im.secrets {
		if p == s || within(p, s) {
			return true
		}
	}
	return false
}

// display names a file for the model: relative to the workspace root,
// else to the home folder as ~/…
func (im *importer) display(p string) string {
	if len(im.allowed) > 0 && im.allowed[0] != im.home {
		if rel, err := filepath.Rel(im.allowed[0], p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	if im.home != "" {
		if rel, err := filepath.Rel(im.home, p); err == nil && !strings.HasPrefix(rel, "..") {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return p
}

// importTokens finds the @paths of a line: an @ at the start of a word
// (so an e-mail address is not one), outside `code spans`.
func importTokens(line string) []string {
	var out []string
	inCode := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '`' {
			inCode = !inCode
			continue
		}
		if c != '@' || inCode || (i > 0 && !isSpace(line[i-1])) {
			continue
		}
		j := i + 1
		for j < len(line) && !isSpace(line[j]) && line[j] != '`' {
			j++
		}
		if j > i+1 {
			out = append(out, line[i+1:j])
		}
		i = j - 1
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// fenceOf is the fence a line opens or closes (``` or ~~~), or "".
func fenceOf(trimmed string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(trimmed, f) {
			return f
		}
	}
	return ""
}

func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimRight(dir, string(filepath.Separator))+string(filepath.Separator))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// readCapped reads at most limit+1 bytes of p, so a caller sees whether
// the file is longer than what is left.
// A FIFO or device named by an import is refused by kind (safefile),
// never waited on.
func readCapped(p string, limit int) ([]byte, error) {
	return safefile.ReadPrefix(p, int64(max(limit, 0))+1)
}

// withImports expands the imports of a context file that takes them, and
// rehashes it, so editing an imported file counts as a change.
func withImports(f File) (File, []error) {
	if !importsOf(f.Rel) || !strings.Contains(f.Content, "@") {
		return f, nil
	}
	abs := filepath.Join(f.Root, filepath.FromSlash(f.Rel))
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return f, nil
	}
	im := newImporter(f.Root)
	out := im.expand(f.Content, real, []string{real})
	if out != f.Content {
		f.Content = out
		f.Hash = hashOf([]byte(out))
	}
	return f, im.problems
}
