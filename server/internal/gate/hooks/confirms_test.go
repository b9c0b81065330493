package hooks

import (
	"sort"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// TestConfirmsItselfFromTraits: the built-in tools that ask before they
// act are exactly those the hooks once listed by name (plus the browser
// sub-agent and MCP tools, checked by the contract tests).
func TestConfirmsItselfFromTraits(t *testing.T) {
	var got []string
	for _, x := range tools.Builtin() {
		if confirmsItself(x) {
			got = append(got, x.Name())
		}
	}
	sort.Strings(got)
	if strings.Join(got, " ") != "create_directory delete_file edit run_shell_command web_fetch write_file" {
		t.Errorf("confirm themselves: %v", got)
	}
}
