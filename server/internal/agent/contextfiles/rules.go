package contextfiles

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"gopkg.in/yaml.v3"

	"github.com/govibe/govibe/server/internal/util/frontmatter"
)

// Rules that attach by path, as their own tools read them:
//   - Copilot's .github/instructions/*.instructions.md: `applyTo` is a glob
//     or several, comma-separated, as VS Code reads it
//     (https://code.visualstudio.com/docs/copilot/customization/custom-instructions);
//     brace lists (`**/*.{ts,tsx}`) are one pattern.
//   - Cursor's .cursor/rules/*.mdc (https://docs.cursor.com/context/rules):
//     `alwaysApply: true` always, else `globs` when matching files are in
//     play, else a `description` lets the model read the rule when it fits;
//     a rule with none of them is applied by hand only and not loaded.
//   - Cline's .clinerules (https://docs.cline.bot/features/cline-rules): one
//     file, or a folder whose Markdown and text files all apply.
//
// A header value of the wrong shape (a list where a string was expected)
// never drops the file: the patterns are read from what is there.

// MaxRuleFiles bounds the files read from one rules folder.
const MaxRuleFiles = 64

// patterns reads a glob header value: a string of comma-separated
// patterns, or a YAML list of them (whose items may hold commas too).
func patterns(n *yaml.Node) []string {
	if n == nil {
		return nil
	}
	var out []string
	switch n.Kind {
	case yaml.ScalarNode:
		out = splitGlobs(n.Value)
	case yaml.SequenceNode:
		for _, c := range n.Content {
			out = append(out, patterns(c)...)
		}
	}
	return out
}

// splitGlobs splits at commas outside brace lists.
func splitGlobs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			switch s[i] {
			case '{':
				depth++
				continue
			case '}':
				if depth > 0 {
					depth--
				}
				continue
			case ',':
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		if g := strings.Trim(strings.TrimSpace(s[start:i]), `"'`); g != "" {
			out = append(out, g)
		}
		start = i + 1
	}
	return out
}

// ruleHeader is the frontmatter of the three formats, shapes left open.
type ruleHeader struct {
	ApplyTo     yaml.Node `yaml:"applyTo"`
	Globs       yaml.Node `yaml:"globs"`
	Paths       yaml.Node `yaml:"paths"`
	Description string    `yaml:"description"`
	AlwaysApply bool      `yaml:"alwaysApply"`
}

// splitRule reads a rule file's header as written (Cursor writes
// `globs: *.ts,*.tsx` unquoted, which YAML alone refuses).
func splitRule(f File) (ruleHeader, string, error) {
	var h ruleHeader
	doc, err := frontmatter.Split([]byte(f.Content), false)
	if err == nil {
		err = doc.DecodeAsWritten(&h)
	}
	if err == nil {
		for _, k := range []struct {
			key string
			n   *yaml.Node
		}{{"applyTo", &h.ApplyTo}, {"globs", &h.Globs}, {"paths", &h.Paths}} {
			for _, g := range patterns(k.n) {
				if !doublestar.ValidatePattern(g) {
					// A pattern that can never match would make the rule
					// silently dead; dropping it could make it apply always.
					return h, "", &frontmatter.Error{Line: doc.FieldLine(k.key), Message: fmt.Sprintf("%s: %q is not a glob pattern (see the VS Code documentation on glob patterns)", k.key, g)}
				}
			}
		}
	}
	return h, strings.TrimSpace(doc.Body), err
}

// loadInstructions reads .github/instructions/*.instructions.md.
func loadInstructions(root string) (files []File, problems []error) {
	matches, _ := filepath.Glob(filepath.Join(root, ".github", "instructions", "*.instructions.md"))
	sort.Strings(matches)
	return loadRuleFiles(root, matches, func(f *File, h ruleHeader, body string) bool {
		f.Content, f.ApplyTo = body, patterns(&h.ApplyTo)
		return true
	})
}

// loadRuleFiles reads each of matches as a rule file with a header;
// apply fills the file from its header and body, or drops it (false).
// An unreadable file or a header that does not parse is a problem, and
// the rest still load.
func loadRuleFiles(root string, matches []string, apply func(f *File, h ruleHeader, body string) bool) (files []File, problems []error) {
	for _, m := range matches {
		f, ok, err := readRel(root, m)
		if err != nil || !ok {
			problems = appendErr(problems, err)
			continue
		}
		h, body, err := splitRule(f)
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %v", m, err))
			continue
		}
		if apply(&f, h, body) {
			files = append(files, f)
		}
	}
	return files, problems
}

// loadCursorRules reads .cursor/rules/*.mdc (nested folders too, as
// Cursor does).
func loadCursorRules(root string) (files []File, problems []error) {
	dir := filepath.Join(root, ".cursor", "rules")
	var matches []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(matches) >= MaxRuleFiles {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".mdc") {
			matches = append(matches, p)
		}
		return nil
	})
	return loadRuleFiles(root, matches, func(f *File, h ruleHeader, body string) bool {
		globs := patterns(&h.Globs)
		switch {
		case h.AlwaysApply:
			f.Content = body
		case len(globs) > 0:
			f.Content, f.ApplyTo = body, globs
		case strings.TrimSpace(h.Description) != "":
			// Cursor offers such a rule to the model by its description.
			f.Content = fmt.Sprintf("A rule to follow when it applies: %s. Read %s with read_file when it does.", strings.TrimSpace(h.Description), f.Rel)
		default:
			return false
		}
		return true
	})
}

// loadClineRules reads .clinerules, a file or a folder.
func loadClineRules(root string) (files []File, problems []error) {
	p := filepath.Join(root, ".clinerules")
	st, err := os.Lstat(p)
	if err != nil {
		return nil, nil
	}
	if !st.IsDir() {
		f, ok, err := readRel(root, p)
		if ok {
			files = append(files, f)
		}
		return files, appendErr(nil, err)
	}
	var matches []string
	_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil || len(matches) >= MaxRuleFiles {
			return filepath.SkipDir
		}
		if ext := strings.ToLower(filepath.Ext(d.Name())); !d.IsDir() && (ext == ".md" || ext == ".txt") {
			matches = append(matches, q)
		}
		return nil
	})
	for _, m := range matches {
		f, ok, err := readRel(root, m)
		if err != nil || !ok {
			problems = appendErr(problems, err)
			continue
		}
		// Cline's conditional rules name their files in `paths:`.
		if h, body, err := splitRule(f); err == nil {
			f.Content, f.ApplyTo = body, patterns(&h.Paths)
		}
		files = append(files, f)
	}
	return files, problems
}

func readRel(root, abs string) (File, bool, error) {
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return File{}, false, err
	}
	return read(root, filepath.ToSlash(rel))
}

func appendErr(list []error, err error) []error {
	if err != nil {
		return append(list, err)
	}
	return list
}

// matchAny says whether any pattern matches p (a slash path relative to
// the root). A pattern without a slash matches a base name too, as
// VS Code's `*.ts` does for files in folders.
func matchAny(globs []string, p string) bool {
	for _, g := range globs {
		g = strings.TrimPrefix(g, "/")
		if ok, _ := doublestar.Match(g, p); ok {
			return true
		}
		if ok, _ := doublestar.Match(g, filepath.Base(p)); ok && !strings.Contains(g, "/") {
			return true
		}
	}
	return false
}

// always says whether patterns match every file.
func always(globs []string) bool {
	if len(globs) == 0 {
		return true
	}
	for _, g := range globs {
		if g == "**" || g == "**/*" || g == "*" {
			return true
		}
	}
	return false
}
