package tools

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

//go:embed descriptions/find_in_file.md
var findInFileDesc string

type findInFileArgs struct {
	FilePath      string `json:"filePath" jsonschema:"required" jsonschema_description:"File to search."`
	SearchString  string `json:"searchString" jsonschema:"required" jsonschema_description:"Exact text to find (case-sensitive; may span lines)."`
	ContextBefore int    `json:"contextBefore,omitempty" jsonschema:"minimum=0,default=2" jsonschema_description:"Lines of context before the match."`
	ContextAfter  int    `json:"contextAfter,omitempty" jsonschema:"minimum=0,default=2" jsonschema_description:"Lines of context after the match."`
	Occurrence    int    `json:"occurrence,omitempty" jsonschema:"minimum=1,default=1" jsonschema_description:"Which occurrence to show (1-based)."`
}

// FindInFile returns the find_in_file tool.
func FindInFile() Tool {
	return &define[findInFileArgs]{
		name: "find_in_file", desc: findInFileDesc, traits: Reads,
		defaults: func() findInFileArgs { return findInFileArgs{ContextBefore: 2, ContextAfter: 2, Occurrence: 1} },
		run:      runFindInFile,
	}
}

func runFindInFile(ctx context.Context, env *Env, a findInFileArgs) (Result, error) {
	if a.SearchString == "" {
		return FailShown("find_in_file: searchString must not be empty", env.Tr("%s: the text to search for is empty.", "find_in_file")), nil
	}
	if a.Occurrence < 1 || a.ContextBefore < 0 || a.ContextAfter < 0 {
		return FailShown("find_in_file: occurrence must be ≥ 1 and context lines ≥ 0", env.Tr("%s: the occurrence must be 1 or more and the context lines 0 or more.", "find_in_file")), nil
	}
	abs, sb, fail := resolveRead(env, a.FilePath)
	if fail != nil {
		return *fail, nil
	}
	cur, err := loadCurrent(ctx, env, abs)
	if err != nil {
		return readFailure(env, a.FilePath, err), nil
	}
	display := sb.Display(abs)
	switch {
	case !cur.exists:
		return notFound(env, sb, "file", a.FilePath, abs), nil
	case cur.isDir:
		return FailShown(display+" is a folder; use grep_search to search folders", env.Tr("%s is a folder, not a file.", display)), nil
	case cur.tooLarge:
		return FailShown(fmt.Sprintf("%s is %s, over the size limit; use grep_search", display, humanSize(cur.size)), tooLargeShown(env, display, cur.size)), nil
	}
	if kind := binaryKind(cur.content); kind != "" {
		return FailShown(fmt.Sprintf("%s is a binary file (%s, %s)", display, kind, humanSize(int64(len(cur.content)))), binaryShown(env, display, kind)), nil
	}
	body := bytes.TrimPrefix(cur.content, utf8BOM)
	needle := strings.ReplaceAll(a.SearchString, "\r\n", "\n")
	if inspectText(body).crlf {
		needle = strings.ReplaceAll(needle, "\n", "\r\n")
	}
	var offs []int
	for i := 0; ; {
		j := bytes.Index(body[i:], []byte(needle))
		if j < 0 {
			break
		}
		offs = append(offs, i+j)
		i += j + max(1, len(needle))
	}
	if env.Files != nil {
		env.Files.RecordRead(abs, cur.content)
	}
	if len(offs) == 0 {
		msg := fmt.Sprintf("%q not found in %s", a.SearchString, display)
		if bytes.Contains(bytes.ToLower(body), bytes.ToLower([]byte(needle))) {
			msg += " (a case-insensitive match exists; the search is case-sensitive)"
		} else if f := strings.Fields(a.SearchString); len(f) > 0 && bytes.Contains(body, []byte(f[0])) && len(f) > 1 {
			msg += fmt.Sprintf(" (the first word %q does occur; check whitespace and line breaks)", f[0])
		}
		return FailShown(msg, env.Tr("Text not found in %s.", display)), nil
	}
	if a.Occurrence > len(offs) {
		return FailShown(fmt.Sprintf("occurrence %d requested but %q occurs only %d time(s) in %s", a.Occurrence, a.SearchString, len(offs), display),
			env.Tr("Occurrence %d was asked for, but the text occurs only %d time(s) in %s.", a.Occurrence, len(offs), display)), nil
	}
	lineAt := func(off int) int { return bytes.Count(body[:off], []byte{'\n'}) + 1 }
	off := offs[a.Occurrence-1]
	first := lineAt(off)
	lastL := first + strings.Count(needle, "\n")
	col := off - bytes.LastIndexByte(body[:off], '\n')
	total := countLines(body)
	from, to := max(1, first-a.ContextBefore), min(total, lastL+a.ContextAfter)

	var out strings.Builder
	fmt.Fprintf(&out, "%s: occurrence %d of %d at line %d, column %d\n", display, a.Occurrence, len(offs), first, col)
	width := len(strconv.Itoa(to))
	for i, l := range linesOf(body, from, to) {
		n := from + i
		mark := " "
		if n >= first && n <= lastL {
			mark = ">"
		}
		fmt.Fprintf(&out, "%s%*d\t%s\n", mark, width, n, strings.ToValidUTF8(l, "\uFFFD"))
	}
	if len(offs) > 1 {
		var ls []string
		for i, o := range offs {
			if i == 50 {
				ls = append(ls, "…")
				break
			}
			ls = append(ls, strconv.Itoa(lineAt(o)))
		}
		fmt.Fprintf(&out, "All occurrences at lines: %s", strings.Join(ls, ", "))
	}
	return Result{OK: true, Output: strings.TrimRight(out.String(), "\n")}, nil
}
