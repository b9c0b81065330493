// Package integration runs the sidecar against the fake editor and the
// scripted model: every scenario runs in-process over pipes and once more
// against the built binary over real stdio.
package integration

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

var binary string

// mcpEcho is the built devtools/mcpecho: a real stdio MCP server.
var mcpEcho string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "govibe-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "govibe")
	cmd := exec.Command("go", "build", "-o", binary, "github.com/govibe/govibe/server/cmd/govibe")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building govibe:", err)
		os.Exit(1)
	}
	mcpEcho = filepath.Join(dir, "mcpecho")
	cmd = exec.Command("go", "build", "-o", mcpEcho, "github.com/govibe/govibe/server/internal/devtools/mcpecho")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building mcpecho:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// modes runs f in-process and against the binary.
func modes(t *testing.T, f func(t *testing.T, bin string)) {
	t.Run("inprocess", func(t *testing.T) { f(t, "") })
	t.Run("binary", func(t *testing.T) { f(t, binary) })
}
