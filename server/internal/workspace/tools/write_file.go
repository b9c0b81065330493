package tools

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
)

//go:embed descriptions/write_file.md
var writeFileDesc string

type writeFileArgs struct {
	FilePath string `json:"filePath" jsonschema:"required" jsonschema_description:"File to create or overwrite."`
	Content  string `json:"content" jsonschema:"required" jsonschema_description:"The complete new content of the file."`
}

// WriteFile returns the write_file tool.
func WriteFile() Tool {
	return &define[writeFileArgs]{
		name: "write_file", desc: writeFileDesc, traits: WritesWorkspace,
		defaults: func() writeFileArgs { return writeFileArgs{} },
		run:      runWriteFile,
	}
}

func runWriteFile(ctx context.Context, env *Env, a writeFileArgs) (Result, error) {
	t, refusal, err := beginWrite(env, "write_file", a.FilePath)
	if t == nil {
		return derefResult(refusal), err
	}
	defer t.release()
	abs, display := t.abs, t.display
	cur, refusal := t.loadText(ctx, env, a.FilePath, "write_file", "write_file will not overwrite it with text (delete it first if that is intended)")
	if refusal != nil {
		return *refusal, nil
	}
	if !cur.exists {
		return createFile(ctx, env, "write_file", abs, display, []byte(a.Content))
	}
	n := countLines(bytes.TrimPrefix(cur.content, utf8BOM))
	reread := fmt.Sprintf("1–%d", max(1, n))
	if r := checkFresh(env, abs, display, cur, reread); r != nil {
		return *r, nil
	}
	before := cur.content
	p := proposal{
		tool: "write_file", abs: abs, display: display, before: before,
		after: conformText(before, a.Content, true), mode: cur.mode, reread: reread,
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
		env.Files.RecordWrite(abs, o.content)
	}
	return appliedResult(p, o, fmt.Sprintf("Overwrote %s (%d lines).", display, countLines(bytes.TrimPrefix(o.content, utf8BOM)))), nil
}
