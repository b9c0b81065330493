package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"gopkg.in/yaml.v3"
)

// EditCheck is one proposed file change.
type EditCheck struct {
	// Path is absolute; RelPath is what problems are located by.
	Path, RelPath      string
	Original, Proposed string
	IsNew, Delete      bool
	// Roots are searched for callers of changed exported symbols; none
	// skips the search.
	Roots []string
}

// Static is what the model-free checks found.
type Static struct {
	// Problems of severity error reject the edit without asking a model;
	// warnings are passed to the reviewer and shown with its verdict.
	Problems []Problem
	// Diff is the unified diff of the change.
	Diff string
}

// CheckEdit runs the syntax, placeholder, deletion and caller checks.
func CheckEdit(in EditCheck) Static {
	name := in.RelPath
	if name == "" {
		name = filepath.Base(in.Path)
	}
	edits := udiff.Lines(in.Original, in.Proposed)
	st := Static{}
	if d, err := udiff.ToUnified("a/"+name, "b/"+name, in.Original, edits, 3); err == nil {
		st.Diff = d
	}
	if in.Delete {
		st.Problems = append(st.Problems, Problem{Severity: SeverityWarning, Message: "deletes the whole file", Location: name})
		st.Problems = append(st.Problems, callers(in, name)...)
		return st
	}
	added, removed := changedLines(in.Original, edits)
	if p, ok := syntaxProblem(name, in.Original, in.Proposed, in.IsNew); ok {
		st.Problems = append(st.Problems, p)
	}
	st.Problems = append(st.Problems, placeholders(name, added)...)
	st.Problems = append(st.Problems, deletions(name, in, len(added), removed)...)
	st.Problems = append(st.Problems, callers(in, name)...)
	return st
}

type addedLine struct {
	n    int // 1-based line number in the proposed file
	text string
}

func changedLines(original string, edits []udiff.Edit) (added []addedLine, removed int) {
	u, err := udiff.ToUnifiedDiff("a", "b", original, edits, 0)
	if err != nil {
		return nil, 0
	}
	shift := 0
	for _, h := range u.Hunks {
		n := h.FromLine + shift
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Insert:
				added = append(added, addedLine{n: n, text: strings.TrimRight(l.Content, "\r\n")})
				n++
				shift++
			case udiff.Delete:
				removed++
				shift--
			default:
				n++
			}
		}
	}
	return added, removed
}

// jsoncNames are JSON files whose tools accept comments and trailing
// commas; strict JSON parsing would reject valid edits of them.
func isJSONC(name string) bool {
	base := strings.ToLower(path.Base(filepath.ToSlash(name)))
	dir := path.Base(path.Dir(filepath.ToSlash(name)))
	return strings.HasSuffix(base, ".jsonc") || strings.HasPrefix(base, "tsconfig") || strings.HasPrefix(base, "jsconfig") ||
		dir == ".vscode" || dir == ".devcontainer" || strings.HasPrefix(base, ".eslintrc") || base == "devcontainer.json"
}

// syntaxProblem parses the proposed content when a parser exists for the
// file type. A file that did not parse before the change is not held
// against it: the edit did not break it.
func syntaxProblem(name, original, proposed string, isNew bool) (Problem, bool) {
	var check func(string) error
	switch strings.ToLower(filepath.Ext(name)) {
	case ".go":
		check = func(s string) error { return checkGo(name, s) }
	case ".json":
		if isJSONC(name) {
			return Problem{}, false
		}
		check = checkJSON
	case ".yaml", ".yml":
		check = checkYAML
	default:
		return Problem{}, false
	}
	err := check(proposed)
	if err == nil || (!isNew && check(original) != nil) {
		return Problem{}, false
	}
	return Problem{Severity: SeverityError, Message: "the result does not parse: " + err.Error(), Location: name}, true
}

func checkGo(name, src string) error {
	// ErrorList's message is the first error and a count of the others.
	_, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	return err
}

func checkJSON(src string) error {
	dec := json.NewDecoder(strings.NewReader(src))
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, err2 := dec.Token(); err2 != io.EOF {
			return errors.New("unexpected data after the top-level value")
		}
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count([]byte(src[:min(int(se.Offset), len(src))]), []byte("\n"))
		return fmt.Errorf("line %d: %v", line, se)
	}
	if err == io.EOF {
		return errors.New("the file is empty")
	}
	return err
}

func checkYAML(src string) error {
	dec := yaml.NewDecoder(strings.NewReader(src))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// placeholderRes match text a model writes instead of code it did not
// want to repeat. They are applied to added lines only, so a file that
// documents such phrases can still be edited.
var placeholderRes = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(\.\.\.|…)\s*\(?\s*(the\s+)?(rest|remainder)\s+of\s+(the\s+)?(code|file|function|class|method|implementation|content|module|component|body|logic)`),
	regexp.MustCompile(`(?i)(rest|remainder)\s+of\s+(the\s+)?(code|file|function|class|method|implementation|content|module|component)\s+(is\s+|remains\s+|stays\s+)?(unchanged|the\s+same|omitted|as\s+before)`),
	regexp.MustCompile(`(?i)(existing|previous|original|other|remaining)\s+(code|content|implementation|methods|functions|logic|imports|fields)\s+(remains?\s+|stays?\s+|is\s+|are\s+|goes\s+)?(unchanged|here|as\s+(is|before)|omitted|the\s+same)`),
	regexp.MustCompile(`(?i)^\s*(//|#|/\*|\*|<!--|--|;)?\s*(\.\.\.|…)\s*\(?\s*(unchanged|omitted|same as before|existing code|keep existing)\b`),
	regexp.MustCompile(`(?i)\b(code|lines?)\s+(omitted|elided)\s+for\s+brevity`),
	regexp.MustCompile(`(?i)^\s*(//|#|/\*|<!--)\s*\.\.\.\s*(existing|unchanged|rest)`),
}

func placeholders(name string, added []addedLine) []Problem {
	var out []Problem
	for _, l := range added {
		for _, re := range placeholderRes {
			if re.MatchString(l.text) {
				out = append(out, Problem{Severity: SeverityError,
					Message:  fmt.Sprintf("placeholder text instead of real content: %q; write the complete code", strings.TrimSpace(l.text)),
					Location: fmt.Sprintf("%s:%d", name, l.n)})
				break
			}
		}
		if len(out) >= 5 {
			break
		}
	}
	return out
}

// deletions flags changes that remove much more than they add: the usual
// sign of a model rewriting a file from a partial memory of it.
func deletions(name string, in EditCheck, added, removed int) []Problem {
	if in.IsNew {
		return nil
	}
	if strings.TrimSpace(in.Proposed) == "" && strings.TrimSpace(in.Original) != "" {
		return []Problem{{Severity: SeverityWarning, Message: "empties the file", Location: name}}
	}
	total := strings.Count(in.Original, "\n") + 1
	if removed >= 20 && added*4 < removed {
		return []Problem{{Severity: SeverityWarning, Location: name,
			Message: fmt.Sprintf("removes %d lines (%d%% of the file) and adds only %d: check nothing is lost unintentionally", removed, removed*100/total, added)}}
	}
	return nil
}
