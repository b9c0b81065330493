package sessioncompact

import (
	"context"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// host is what the compaction runner asks of the session
// (compaction.Host); kept.go holds Decisions and ContinueAfter.
type host struct{ d *Deps }

// policyOf is a model's compaction policy under the settings.
func (h host) policyOf(p llm.Profile) compact.Policy {
	cs := h.d.Settings()
	return compact.Policy{
		Window: p.ContextWindow, MaxOutput: p.MaxOutputTokens,
		Threshold: cs.Compact.Threshold, KeepTokens: cs.Compact.KeepTokens,
	}.Normalized()
}

// Policy follows the model the session's next request goes to, so a
// switch to a smaller window compacts against that window.
func (h host) Policy(ctx context.Context, sid string) compact.Policy {
	return h.policyOf(h.d.Profile(ctx, sid))
}

func (h host) Prefix(ctx context.Context, sid string) (string, []llm.ToolDef) {
	system, ts, text := h.d.FreeRequest(ctx, sid)
	if text {
		return system, nil // the text tool-call protocol sends no definitions
	}
	return system, defsOf(ts)
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

// Client asks the compaction role's model for the summary, else the model
// Policy follows; the policy returned is that model's.
func (h host) Client(ctx context.Context, sid string) (llm.Client, compact.Policy, error) {
	p := h.d.Profile(ctx, sid)
	if rp, ok := h.d.Summariser(); ok {
		p = rp
	}
	c, err := h.d.Client(p)
	return c, h.policyOf(p), err
}

func (h host) ContextEstimated(sid string, tokens int64) {
	h.d.Meter.SetContext(sid, tokens, usage.SourceEstimate)
}

func (h host) BeforeCompact(ctx context.Context, sid, turnID, trigger string) {
	h.d.PreCompact(ctx, sid, turnID, trigger == compaction.TriggerCommand || trigger == compaction.TriggerButton)
}

func (h host) Tr(format string, args ...any) string { return h.d.Tr(format, args...) }

func (h host) Compacted(ctx context.Context, sid, turnID string, info compaction.Info) {
	status, text := "done", info.Summary
	if !info.Failed {
		h.d.Meter.Compacted(sid)
	}
	if info.Failed {
		status, text = "failed", info.Notice
	}
	h.d.Events.Compacted(sid, turnID, status, text, Result{Info: info, Context: h.d.ContextUse(ctx, sid)})
}
