package turninput_test

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/agent/turninput"
	"github.com/govibe/govibe/server/internal/host/config"
)

// TestPermissionModeInClaudeCodesWords: hooks read the session's approval
// mode as Claude Code names it, from the mode, the headless --approve
// policy or the editor's settings, without an engine.
func TestPermissionModeInClaudeCodesWords(t *testing.T) {
	cases := []struct {
		name     string
		mode     modes.Mode
		headless bool
		approve  string
		settings config.Values
		want     string
	}{
		{"plan mode wins", modes.Plan, true, "all", nil, "plan"},
		{"headless all", "", true, "all", nil, "bypassPermissions"},
		{"headless edits", "", true, "edits", nil, "acceptEdits"},
		{"headless none", "", true, "none", config.Values{"autoApprove.edits": true}, "default"},
		{"editor auto-approves edits", "", false, "", config.Values{"autoApprove.edits": true, "confirmChanges": true}, "acceptEdits"},
		{"editor without confirmation", "", false, "", config.Values{"confirmChanges": false}, "acceptEdits"},
		{"editor confirms", "", false, "", config.Values{"confirmChanges": true}, "default"},
	}
	for _, c := range cases {
		a := turninput.New(turninput.Deps{Headless: c.headless, Approve: c.approve,
			Settings: func() config.Settings { return config.Typed(c.settings) },
			Mode:     func(context.Context, string) modes.Mode { return c.mode }})
		if got := a.PermissionMode(context.Background(), "s1"); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
