package tools

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/go-git/go-git/v5"
)

//go:embed descriptions/get_workspace_info.md
var workspaceInfoDesc string

type noArgs struct{}

// GetWorkspaceInfo returns the get_workspace_info tool.
func GetWorkspaceInfo() Tool {
	return &define[noArgs]{
		name: "get_workspace_info", desc: workspaceInfoDesc, traits: Searches | Deferred,
		defaults: func() noArgs { return noArgs{} },
		run:      runWorkspaceInfo,
	}
}

func runWorkspaceInfo(ctx context.Context, env *Env, _ noArgs) (Result, error) {
	sb := sandboxOf(env)
	var out strings.Builder
	fmt.Fprintf(&out, "OS: %s/%s\nShell: %s\n", runtime.GOOS, runtime.GOARCH, shellName(env))
	if len(sb.Roots()) == 0 {
		out.WriteString("No workspace folder is open.")
		return Result{OK: true, Output: out.String()}, nil
	}
	for i, root := range sb.Roots() {
		label := "Root"
		if i == 0 {
			label = "Root (default for relative paths)"
		}
		fmt.Fprintf(&out, "\n%s: %s\n", label, root)
		if repo, err := git.PlainOpenWithOptions(root, &git.PlainOpenOptions{DetectDotGit: true}); err == nil {
			branch := ""
			if head, err := repo.Head(); err == nil && head.Name().IsBranch() {
				branch = " (branch " + head.Name().Short() + ")"
			}
			fmt.Fprintf(&out, "Git repository: yes%s\n", branch)
		} else {
			out.WriteString("Git repository: no\n")
		}
		if _, err := os.Stat(root); err != nil {
			out.WriteString("(folder does not exist)\n")
			continue
		}
		list, _, _ := listDir(env, sb, root, false, 100)
		out.WriteString("Top-level entries:\n")
		for l := range strings.SplitSeq(list, "\n") {
			if l != "" {
				out.WriteString("  " + l + "\n")
			}
		}
	}
	return Result{OK: true, Output: strings.TrimRight(out.String(), "\n")}, nil
}

func shellName(env *Env) string {
	if env.Settings.Shell != "" {
		return env.Settings.Shell
	}
	if runtime.GOOS == "windows" {
		return "powershell"
	}
	return "bash"
}
