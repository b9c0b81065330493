package tools

import (
	"context"
	_ "embed"
	"os"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

//go:embed descriptions/delete_file.md
var deleteFileDesc string

type deleteFileArgs struct {
	FilePath string `json:"filePath" jsonschema:"required" jsonschema_description:"File to delete."`
}

// DeleteFile returns the delete_file tool.
func DeleteFile() Tool {
	return &define[deleteFileArgs]{
		name: "delete_file", desc: deleteFileDesc, traits: WritesWorkspace | Deferred,
		defaults: func() deleteFileArgs { return deleteFileArgs{} },
		run:      runDeleteFile,
	}
}

func runDeleteFile(ctx context.Context, env *Env, a deleteFileArgs) (Result, error) {
	t, refusal, err := beginWrite(env, "delete_file", a.FilePath)
	if t == nil {
		return derefResult(refusal), err
	}
	defer t.release()
	abs, sb, display := t.abs, t.sb, t.display
	fi, err := os.Lstat(abs)
	if err != nil {
		return notFound(env, sb, "file", a.FilePath, abs), nil
	}
	if fi.IsDir() {
		return FailShown(display+" is a folder; delete_file only deletes files", env.Tr("%s is a folder, not a file.", display)), nil
	}
	var before []byte
	if fi.Mode().IsRegular() && fi.Size() <= maxFileSize(env) {
		// Read through safefile: a FIFO swapped in since the Lstat is
		// refused, not waited on.
		if before, err = safefile.ReadFile(abs, maxFileSize(env)); err != nil {
			return readFailure(env, display, err), nil
		}
	}
	p := proposal{
		tool: "delete_file", abs: abs, display: display, before: before, delete: true, reread: "1–1",
		stillCurrent: func() bool {
			now, err := os.Lstat(abs)
			return err == nil && now.ModTime().Equal(fi.ModTime()) && now.Size() == fi.Size()
		},
	}
	o, r, err := apply(ctx, env, p)
	if o == nil {
		return derefResult(r), err
	}
	env.Files.Forget(abs)
	return appliedResult(p, o, "Deleted "+display+"."), nil
}
