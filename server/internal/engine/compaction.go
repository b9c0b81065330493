package engine

import (
	"context"
	"errors"
	"fmt"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/usage"
	"time"

	"github.com/google/uuid"

	"github.com/govibe/govibe/server/internal/compact"
	"github.com/govibe/govibe/server/internal/compact/compaction"
	"github.com/govibe/govibe/server/internal/humanerr"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/tools"
)

// TagFree is the free phase's sub-agent tag: the only phase in which global
// compaction runs. Executor, evaluator and sub-agent runs use other tags.
const TagFree = "free"

// CompactionInfo is one attempt with the context use after it, as the
// compaction event carries it.
type CompactionInfo struct {
	compaction.Info
	Context usage.Context
}

func (e *Engine) compactPolicy(p Profile) compact.Policy {
	v := e.Settings()
	cs := config.Typed(v)
	return compact.Policy{
		Window: p.ContextWindow, MaxOutput: p.MaxOutputTokens,
		Threshold: cs.Compact.Threshold, KeepTokens: cs.Compact.KeepTokens,
	}.Normalized()
}

// freeTools is the free phase's tool list, compact included.
func (e *Engine) freeTools(sid, turnID string) []tools.Tool {
	return append(tools.Builtin(), e.Compaction.Tool(sid, turnID, true))
}

// defsOf renders tools exactly as the agent loop does, so a compaction
// request carries byte-identical tool definitions.
func defsOf(ts []tools.Tool) []llm.ToolDef {
	defs := make([]llm.ToolDef, 0, len(ts))
	for _, t := range ts {
		defs = append(defs, llm.ToolDef{Name: t.Name(), Description: tools.Describe(t, ts), Parameters: t.Schema()})
	}
	return defs
}

func (e *Engine) toolDefsOf(ctx context.Context, t *turn) []llm.ToolDef {
	ts, _, d := e.freeRun(ctx, t)
	return defsOf(d.Request(ts))
}

// requestToolDefs is what the free run sends: no definitions in the text
// tool-call protocol.
func (e *Engine) requestToolDefs(ctx context.Context, sid string, p Profile) []llm.ToolDef {
	if e.Profiles.ToolCalling(p) == "text" {
		return nil
	}
	return e.toolDefsOf(ctx, e.liveTurn(sid))
}

// prepareHook is a run's Prepare: free-phase runs may compact first.
func (e *Engine) prepareHook(t *turn, tag string) func(context.Context, []llm.Message) ([]llm.Message, error) {
	return e.Compaction.Prepare(t.sessionID, t.id, tag == TagFree)
}

// Compact summarises a session's earlier messages now and waits for the
// result (the compact tool). A failed summary is not an error: it is
// reported in the info (Failed) after the mechanical fallback ran.
func (e *Engine) Compact(ctx context.Context, sid, turnID, trigger string) (CompactionInfo, error) {
	info, err := e.Compaction.Compact(ctx, sid, turnID, trigger)
	if err != nil {
		return CompactionInfo{Info: info}, err
	}
	return CompactionInfo{Info: info, Context: e.ContextUse(ctx, sid)}, nil
}

// StartCompaction runs Compact in the background (the button and /compact)
// and returns at once; the outcome arrives as a compaction event. A turn
// may run meanwhile: what it appends is kept.
func (e *Engine) StartCompaction(ctx context.Context, sid, trigger string) (jobID string, err error) {
	if _, err := e.Store.GetSession(ctx, sid); err != nil {
		return "", fmt.Errorf("session %s: %w", sid, err)
	}
	release, err := e.Compaction.Reserve(ctx, sid)
	if err != nil {
		return "", err
	}
	job := uuid.NewString()
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		defer release()
		before := e.Meter.Of(e.baseCtx, sid)
		info, err := e.Compaction.CompactReserved(e.baseCtx, sid, job, trigger)
		status := "done"
		switch {
		case err != nil:
			status = "error"
			text := e.Tr("Could not summarise earlier messages: %s", humanerr.Explain(e.Tr, err, e.Profiles.Active().BaseURL).Message)
			if errors.Is(err, compaction.ErrNothingToCompact) {
				status, text = "done", e.Tr("Nothing to summarise yet: the conversation is still short.")
			}
			e.Bus.Publish(Event{SessionID: sid, TurnID: job, Kind: kinds.Notice, SubAgentTag: TagFree, Text: text, Status: "warn"})
		case info.Failed:
			status = "error"
		}
		if trigger == compaction.TriggerCommand {
			fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			// The command's own requests are its usage, as a turn's are.
			tu := e.Meter.FinishTurn(fctx, sid, 0, before)
			e.Bus.Publish(Event{SessionID: sid, TurnID: job, Kind: kinds.TurnFinished, SubAgentTag: TagFree, Status: status,
				Usage: &UsageInfo{Usage: tu.Usage}, Payload: ContextPayload(e.ContextUse(fctx, sid))})
		}
	}()
	return job, nil
}
