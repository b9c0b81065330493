package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/govibe/govibe/server/internal/tools"
)

const compactToolDescription = `Summarise the earlier part of this conversation into a dense state snapshot, freeing context. The newest messages stay verbatim; files are not touched. Use it when the conversation has grown long and older details are no longer needed word for word, e.g. before starting a new large piece of work. Only available in the main conversation, not inside executor, evaluator or other sub-agent runs.`

var compactToolSchema = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)

// compactTool lets the model compact its own session. It is immutable and
// safe for concurrent use; allowed is false outside the free phase, where
// it refuses with a clear message.
type compactTool struct {
	e       *Engine
	sid     string
	turnID  string
	allowed bool
}

// compactTool builds the tool for a run with the given sub-agent tag.
func (e *Engine) compactTool(sid, turnID, tag string) tools.Tool {
	return &compactTool{e: e, sid: sid, turnID: turnID, allowed: tag == TagFree}
}

func (c *compactTool) Name() string            { return "compact" }
func (c *compactTool) Description() string     { return compactToolDescription }
func (c *compactTool) Schema() json.RawMessage { return compactToolSchema }
func (c *compactTool) ReadOnly() bool          { return false }

func (c *compactTool) Run(ctx context.Context, _ *tools.Env, _ json.RawMessage) (tools.Result, error) {
	if !c.allowed {
		return tools.Fail("compact is not available inside executor, evaluator or sub-agent runs: only the main conversation can be compacted."), nil
	}
	info, err := c.e.Compact(ctx, c.sid, c.turnID, TriggerTool)
	switch {
	case errors.Is(err, ErrNothingToCompact):
		return tools.Fail("Nothing to compact yet: the conversation still fits in the verbatim window."), nil
	case err != nil:
		return tools.Fail("compact failed: " + err.Error()), nil
	case info.Failed:
		return tools.Fail(fmt.Sprintf("The summary could not be made (%s); large old tool outputs were shortened instead, saving %d tokens.", info.Reason, info.SavedTokens)), nil
	}
	return tools.Result{OK: true, Output: fmt.Sprintf("Compacted: %d earlier messages were replaced by a state snapshot, saving about %d tokens. Continue the task.", info.Messages, info.SavedTokens)}, nil
}
