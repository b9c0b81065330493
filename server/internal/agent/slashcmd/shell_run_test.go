package slashcmd

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/slashcmd/customcmd"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// A command's message that is not the last user message on the model
// track is never rewritten, and no command runs.
func TestRunShellNeedsTheUserMessage(t *testing.T) {
	calls := []customcmd.ShellCall{{Command: "echo hi", Token: "TOKEN"}}
	for _, history := range [][]llm.Message{nil, {{Role: llm.RoleAssistant, Content: "TOKEN"}}} {
		replaced := false
		err := RunShell(context.Background(), &tools.Env{}, "t1", calls, history, func(int, llm.Message) error { replaced = true; return nil }, fmt.Sprintf)
		if err == nil || !strings.Contains(err.Error(), "not on the model track") {
			t.Errorf("history %v: err = %v, want the model-track error", history, err)
		}
		if replaced {
			t.Errorf("history %v: the message was replaced", history)
		}
	}
}
