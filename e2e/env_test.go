package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// toolEnv is what e2e/setup.sh installed, as recorded in .cache/e2e/env.json.
type toolEnv struct {
	Node                string `json:"node"`
	CodeServerEntry     string `json:"codeServerEntry"`
	CodeServerVersion   string `json:"codeServerVersion"`
	PlaywrightDriverDir string `json:"playwrightDriverDir"`
	Chromium            string `json:"chromium"`
}

const setupHint = "the e2e set-up has not been run on this machine: run `bash e2e/setup.sh` from the repository root " +
	"(idempotent; about 3 minutes the first time, seconds afterwards)"

// repoRoot finds the module root by walking up to go.mod, so the suite works
// whether `go test` is started from the root or from e2e/.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}

func cacheDir(root string) string {
	if d := os.Getenv("GOVIBE_E2E_CACHE"); d != "" {
		return d
	}
	return filepath.Join(root, ".cache", "e2e")
}

// loadToolEnv fails with setupHint when anything setup.sh provides is missing,
// so a machine without the set-up gets a failure that says how to fix it.
func loadToolEnv(root string) (toolEnv, error) {
	var env toolEnv
	path := filepath.Join(cacheDir(root), "env.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return env, fmt.Errorf("%s (%w)", setupHint, err)
	}
	if err := json.Unmarshal(data, &env); err != nil {
		return env, fmt.Errorf("%s (%s is corrupt: %w)", setupHint, path, err)
	}
	for _, p := range []string{env.Node, env.CodeServerEntry, env.Chromium,
		filepath.Join(env.PlaywrightDriverDir, "package", "cli.js")} {
		if _, err := os.Stat(p); err != nil {
			return env, fmt.Errorf("%s (%w)", setupHint, err)
		}
	}
	return env, nil
}

// vsixPath is where `make vsix-local` leaves the package, unless GOVIBE_VSIX
// names another one.
func vsixPath(root string) string {
	if p := os.Getenv("GOVIBE_VSIX"); p != "" {
		return p
	}
	return filepath.Join(root, "dist", "govibe-linux-x64.vsix")
}
