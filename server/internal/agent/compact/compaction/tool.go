package compaction

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/govibe/govibe/server/internal/gate/watchdog"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

const toolDescription = `Summarise the earlier part of this conversation into a dense state snapshot to free context; the newest messages stay verbatim and files are untouched. Use it when the conversation is long and older details are no longer needed word for word, e.g. before a new large piece of work. Main conversation only.`

var toolSchema = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)

// tool lets the model compact its own session. It is immutable and safe
// for concurrent use; allowed is false outside the free phase, where it
// refuses with a clear message.
type tool struct {
	c       *Compactor
	sid     string
	turnID  string
	allowed bool
}

// Tool builds the compact tool for a run of the session; allowed is true
// only in the free phase.
func (c *Compactor) Tool(sid, turnID string, allowed bool) tools.Tool {
	return &tool{c: c, sid: sid, turnID: turnID, allowed: allowed}
}

func (t *tool) Name() string            { return "compact" }
func (t *tool) Description() string     { return toolDescription }
func (t *tool) Schema() json.RawMessage { return toolSchema }
func (t *tool) ReadOnly() bool          { return false }

// Traits: compaction rewrites the conversation, nothing else. The model
// rarely asks for it (compaction runs by itself at the threshold): it is
// deferred.
func (t *tool) Traits() tools.Traits { return tools.Meta | tools.Deferred }

func (t *tool) Run(ctx context.Context, env *tools.Env, _ json.RawMessage) (tools.Result, error) {
	// A compaction is a model request of its own, with its own bounds.
	defer watchdog.Pause(ctx)()
	if !t.allowed {
		return tools.Withheld("compact is not available inside executor, evaluator or sub-agent runs: only the main conversation can be compacted.",
			env.Tr("Only the main conversation can be compacted.")), nil
	}
	info, err := t.c.Compact(ctx, t.sid, t.turnID, TriggerTool)
	switch {
	case errors.Is(err, ErrNothingToCompact):
		r := tools.Fail("Nothing to compact yet: the conversation still fits in the verbatim window.")
		r.Display = env.Tr("Nothing to summarise yet: the conversation is still short.")
		return r, nil
	case err != nil:
		return tools.FailShown("compact failed: "+err.Error(), env.Tr("Could not summarise earlier messages: %s", err.Error())), nil
	case info.Failed:
		return tools.FailShown(fmt.Sprintf("The summary could not be made (%s); large old tool outputs were shortened instead, saving %d tokens.", info.Reason, info.SavedTokens),
			env.Tr("The summary could not be made (%s); large old tool outputs were shortened instead, saving %d tokens.", info.Reason, info.SavedTokens)), nil
	case info.Summary == "":
		return tools.Result{OK: true, Output: fmt.Sprintf("Compacted: a large tool output was shortened to its beginning and end, saving about %d tokens; read it again if you need the middle. Continue the task.", info.SavedTokens)}, nil
	}
	return tools.Result{OK: true, Output: fmt.Sprintf("Compacted: %d earlier messages were replaced by a state snapshot, saving about %d tokens. Continue the task.", info.Messages, info.SavedTokens)}, nil
}
