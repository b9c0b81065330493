package tools

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
)

//go:embed descriptions/create_directory.md
var createDirectoryDesc string

type createDirectoryArgs struct {
	DirPath   string `json:"dirPath" jsonschema:"required" jsonschema_description:"Folder to create."`
	Recursive bool   `json:"recursive,omitempty" jsonschema:"default=true" jsonschema_description:"Also create missing parent folders."`
}

// CreateDirectory returns the create_directory tool.
func CreateDirectory() Tool {
	return &define[createDirectoryArgs]{
		name: "create_directory", desc: createDirectoryDesc, traits: WritesWorkspace | Deferred,
		defaults: func() createDirectoryArgs { return createDirectoryArgs{Recursive: true} },
		run:      runCreateDirectory,
	}
}

func runCreateDirectory(ctx context.Context, env *Env, a createDirectoryArgs) (Result, error) {
	if r := editsDisabled(env, "create_directory"); r != nil {
		return *r, nil
	}
	if err := needTracker(env); err != nil {
		return Result{}, err
	}
	abs, sb, fail := resolveWrite(env, a.DirPath)
	if fail != nil {
		return *fail, nil
	}
	display := sb.Display(abs)
	if fi, err := os.Stat(abs); err == nil {
		if fi.IsDir() {
			return Result{OK: true, Output: display + " already exists."}, nil
		}
		return FailShown(display+" exists and is a file, not a folder", env.Tr("%s exists and is a file, not a folder.", display)), nil
	}
	if !a.Recursive {
		if _, err := os.Stat(filepath.Dir(abs)); err != nil {
			return FailShown(fmt.Sprintf("the parent folder of %s does not exist; pass recursive=true to create it too", display), env.Tr("The parent folder of %s does not exist.", display)), nil
		}
	}
	beforeMutation(ctx, env)
	mk := os.Mkdir
	if a.Recursive {
		mk = os.MkdirAll
	}
	if err := mk(abs, 0o755); err != nil {
		return FailShown(fmt.Sprintf("could not create %s: %v", display, err), errShown(env, display, err)), nil
	}
	return Result{OK: true, Output: "Created folder " + display + "."}, nil
}
