package tools

import (
	"context"
	_ "embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/govibe/govibe/server/internal/gate/sandbox"
	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

//go:embed descriptions/list_files.md
var listFilesDesc string

type listFilesArgs struct {
	Path       string `json:"path,omitempty" jsonschema_description:"Folder to list; defaults to the workspace root."`
	Recursive  bool   `json:"recursive,omitempty" jsonschema:"default=false" jsonschema_description:"List sub-folders' contents too."`
	MaxEntries int    `json:"maxEntries,omitempty" jsonschema:"minimum=1,default=500" jsonschema_description:"Maximum entries to return."`
}

// ListFiles returns the list_files tool.
func ListFiles() Tool {
	return &define[listFilesArgs]{
		name: "list_files", desc: listFilesDesc, traits: Searches,
		defaults: func() listFilesArgs { return listFilesArgs{MaxEntries: 500} },
		run:      runListFiles,
	}
}

func runListFiles(ctx context.Context, env *Env, a listFilesArgs) (Result, error) {
	if a.MaxEntries <= 0 {
		a.MaxEntries = 500
	}
	abs, sb, fail := resolveRead(env, a.Path)
	if fail != nil {
		return *fail, nil
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return notFound(env, sb, "folder", a.Path, abs), nil
	}
	if safefile.Special(fi.Mode()) {
		return readFailure(env, a.Path, &safefile.KindError{Path: abs, Mode: fi.Mode().Type()}), nil
	}
	if !fi.IsDir() {
		return FailShown(fmt.Sprintf("%s is a file, not a folder; use read_file or get_file_info", sb.Display(abs)), env.Tr("%s is a file, not a folder.", sb.Display(abs))), nil
	}
	out, n, withheld := listDir(env, sb, abs, a.Recursive, a.MaxEntries)
	if n == 0 {
		return Result{OK: true, Output: sb.Display(abs) + " is empty (or everything in it is ignored by .gitignore)." + withheldNote(withheld, "entries")}, nil
	}
	return Result{OK: true, Output: out + withheldNote(withheld, "entries")}, nil
}

// listDir lists a folder (folders end with "/"), honouring .gitignore and
// never showing .git or what the Read rules deny (counted in withheld);
// entries are relative to dir.
func listDir(env *Env, sb *sandbox.Sandbox, dir string, recursive bool, maxEntries int) (string, int, int) {
	withheld := 0
	var lines []string
	more := false
	base := sb.Root(dir)
	if base == "" {
		base = dir
	}
	walkFrom(base, dir, walkOptions{hidden: true}, func(path, _ string, d fs.DirEntry) bool {
		if len(lines) == maxEntries {
			more = true
			return false
		}
		if env.readable(path) != nil {
			withheld++
			return true
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			rel += "/"
		}
		lines = append(lines, rel)
		return true
	}, recursive)
	out := strings.Join(lines, "\n")
	if more {
		out += fmt.Sprintf("\n[Stopped at %d entries; list a sub-folder or raise maxEntries.]", maxEntries)
	}
	return out, len(lines), withheld
}
