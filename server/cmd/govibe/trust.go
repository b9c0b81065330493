package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/govibe/govibe/server/internal/host/config"
)

// Headless workspace trust: `govibe exec --trust`, or the workspace is
// listed (itself or a parent folder) in trusted-folders.json beside the
// user settings file ($XDG_CONFIG_HOME/govibe/trusted-folders.json, by
// default ~/.config/govibe/trusted-folders.json), a JSON array of absolute
// paths. Anything else is untrusted: project hooks, MCP servers, custom
// commands and agents, and skills that carry scripts do not load.

// trustedFoldersFile is where the list lives.
func trustedFoldersFile() string {
	return filepath.Join(filepath.Dir(config.UserFile()), "trusted-folders.json")
}

// workspaceTrusted reports whether ws is inside a listed folder. A
// malformed file is an error naming it: silently trusting nothing would
// hide the mistake, silently trusting anything would be worse.
func workspaceTrusted(ws string) (bool, error) {
	path := trustedFoldersFile()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		return false, fmt.Errorf("%s: expected a JSON array of folder paths: %v", path, err)
	}
	ws = filepath.Clean(ws)
	if r, err := filepath.EvalSymlinks(ws); err == nil {
		ws = r
	}
	for _, f := range list {
		f = strings.TrimSpace(f)
		if f == "" || !filepath.IsAbs(f) {
			continue
		}
		f = filepath.Clean(f)
		if r, err := filepath.EvalSymlinks(f); err == nil {
			f = r
		}
		if rel, err := filepath.Rel(f, ws); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true, nil
		}
	}
	return false, nil
}
