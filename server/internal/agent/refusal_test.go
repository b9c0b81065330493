package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// TestRefusalsCarryTheReason: a withheld tool called anyway is refused
// with toolpolicy's one-sentence reason, to the model in English and to
// the person in their language; a refused (offered) one likewise.
func TestRefusalsCarryTheReason(t *testing.T) {
	ts := tools.Builtin()
	d := toolpolicy.Decide(toolpolicy.Situation{Role: toolpolicy.Main, Mode: "plan"}, ts)
	r := &Run{Tools: ts, Blocked: d.Blocked,
		Refused:   map[string]toolpolicy.Reason{"read_file": {Format: "a side conversation (btw) never starts a todo plan"}},
		Translate: func(f string, a ...any) string { return "[zh]" + fmt.Sprintf(f, a...) }}
	res, _ := r.runOne(context.Background(), llm.ToolCall{ID: "1", Name: "edit", Arguments: `{}`})
	if res.OK || !strings.Contains(res.Output, "Plan mode does not allow edit: nothing changes until the proposed plan is run") {
		t.Errorf("model reads %q", res.Output)
	}
	if !strings.Contains(res.Display, "[zh]Plan mode does not allow edit") || !strings.HasPrefix(res.Display, "[zh]Not run: edit is not available here") {
		t.Errorf("person reads %q", res.Display)
	}
	res, _ = r.runOne(context.Background(), llm.ToolCall{ID: "2", Name: "read_file", Arguments: `{}`})
	if res.OK || !strings.Contains(res.Output, "cannot be used now: a side conversation (btw)") || !strings.Contains(res.Display, "btw") {
		t.Errorf("refused: %q / %q", res.Output, res.Display)
	}
	res, _ = r.runOne(context.Background(), llm.ToolCall{ID: "3", Name: "no_such_tool", Arguments: `{}`})
	if res.OK || !strings.Contains(res.Display, "not available to the model here") {
		t.Errorf("unknown: %q", res.Display)
	}
}
