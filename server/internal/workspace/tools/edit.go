package tools

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"unicode/utf8"
)

//go:embed descriptions/edit.md
var editDesc string

type editArgs struct {
	FilePath   string `json:"filePath" jsonschema:"required" jsonschema_description:"File to edit."`
	StartLine  int    `json:"startLine" jsonschema:"required,minimum=1" jsonschema_description:"First line to replace (1-based, as numbered when you last read the file)."`
	EndLine    int    `json:"endLine" jsonschema:"required,minimum=0" jsonschema_description:"Last line to replace (inclusive). endLine = startLine-1 inserts before startLine without replacing anything."`
	NewContent string `json:"newContent" jsonschema:"required" jsonschema_description:"Replacement text for those lines (without line numbers). Empty deletes the lines."`
}

// Edit returns the edit tool.
func Edit() Tool {
	return &define[editArgs]{
		name: "edit", desc: editDesc, traits: WritesWorkspace,
		defaults: func() editArgs { return editArgs{} },
		run:      runEdit,
	}
}

func runEdit(ctx context.Context, env *Env, a editArgs) (Result, error) {
	t, fail, err := beginWrite(env, "edit", a.FilePath)
	if t == nil {
		return derefResult(fail), err
	}
	defer t.release()
	abs, sb, display := t.abs, t.sb, t.display
	cur, fail := t.loadText(ctx, env, a.FilePath, "edit", "edit only changes text files")
	if fail != nil {
		return *fail, nil
	}
	newLines := splitNewContent(a.NewContent)
	if !cur.exists {
		if a.StartLine != 1 || a.EndLine != 0 {
			r := notFound(env, sb, "file", a.FilePath, abs)
			r.Output += "\nTo create a new file, use startLine=1, endLine=0 (or write_file)."
			return r, nil
		}
		return createFile(ctx, env, "edit", abs, display, []byte(a.NewContent))
	}
	ti := inspectText(cur.content)
	total := ti.lines
	reread := fmt.Sprintf("%d–%d", max(1, min(a.StartLine, total)), max(1, min(max(a.EndLine, a.StartLine), total)))
	if r := checkFresh(env, abs, display, cur, reread); r != nil {
		return *r, nil
	}
	start, refusal := env.Files.planEdit(abs, a.StartLine, a.EndLine)
	if refusal != "" {
		return FailShown("edit refused: "+refusal+"; nothing was written", env.Tr("Not written: lines %d–%d are outside %s as the model read it.", a.StartLine, a.EndLine, display)), nil
	}
	end := start + (a.EndLine - a.StartLine)
	after, region, err := replaceLinesInfo(cur.content, ti, start, end, newLines)
	if err != nil {
		return FailShown("edit refused: "+err.Error()+"; nothing was written", linesShown(env, display, a.StartLine, a.EndLine, total)), nil
	}
	if !utf8.Valid(region) {
		return FailShown(fmt.Sprintf("edit refused: lines %d–%d contain bytes that are not valid UTF-8 (shown as \uFFFD by read_file); replacing them from text would corrupt them; nothing was written", a.StartLine, a.EndLine),
			env.Tr("Not written: lines %d–%d of %s are not valid UTF-8 text.", a.StartLine, a.EndLine, display)), nil
	}
	before := cur.content
	p := proposal{
		tool: "edit", abs: abs, display: display, before: before, after: after, mode: cur.mode, reread: reread,
		stillCurrent: func() bool {
			now, err := loadCurrent(ctx, env, abs)
			return err == nil && now.exists && bytes.Equal(now.content, before)
		},
	}
	o, r, err := apply(ctx, env, p)
	if o == nil {
		return derefResult(r), err
	}
	if o.edited {
		env.Files.MustReread(abs, o.content)
	} else {
		env.Files.commitEdit(abs, a.StartLine, a.EndLine, len(newLines), o.content)
	}
	what := fmt.Sprintf("replaced lines %d–%d with %d line(s)", a.StartLine, a.EndLine, len(newLines))
	if a.EndLine < a.StartLine {
		what = fmt.Sprintf("inserted %d line(s) before line %d", len(newLines), a.StartLine)
	} else if len(newLines) == 0 {
		what = fmt.Sprintf("deleted lines %d–%d", a.StartLine, a.EndLine)
	}
	nowLines := total - (end - start + 1) + len(newLines)
	if o.edited || o.applied {
		nowLines = countLines(bytes.TrimPrefix(o.content, utf8BOM))
	}
	summary := fmt.Sprintf("Edited %s: %s; it now has %d lines. Line numbers for further edits still refer to the file as you last read it.", display, what, nowLines)
	if cur.dirty {
		summary += " (The edit was made on the editor's unsaved changes.)"
	}
	return appliedResult(p, o, summary), nil
}

// createFile makes a new file (and its missing parent folders).
func createFile(ctx context.Context, env *Env, tool, abs, display string, content []byte) (Result, error) {
	p := proposal{
		tool: tool, abs: abs, display: display, after: content, isNew: true, mode: 0o644, reread: "1–1",
		stillCurrent: func() bool {
			_, err := os.Lstat(abs)
			return os.IsNotExist(err)
		},
	}
	o, r, err := apply(ctx, env, p)
	if o == nil {
		return derefResult(r), err
	}
	if o.edited {
		env.Files.MustReread(abs, o.content)
	} else {
		env.Files.RecordWrite(abs, o.content)
	}
	return appliedResult(p, o, fmt.Sprintf("Created %s (%d lines).", display, countLines(o.content))), nil
}

func derefResult(r *Result) Result {
	if r == nil {
		return Result{}
	}
	return *r
}
