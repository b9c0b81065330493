package engine

import (
	"context"
	"encoding/json"
	"strings"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/hooks"
	"github.com/govibe/govibe/server/internal/tools"
)

// Lifecycle hooks (Claude Code's format): user ones from the hooks setting
// and ~/.govibe/hooks.json, project ones only in a trusted workspace. The
// configuration is loaded on first use and again after a trust change.
// Every run is logged and shown in the chat as a "hook" event.

// hookRunner returns the loaded runner, loading it on first use.
func (e *Engine) hookRunner() *hooks.Runner {
	e.mu.Lock()
	r, trusted, v := e.hooks, e.trusted, e.settings
	e.mu.Unlock()
	if r != nil {
		return r
	}
	user := userHooks(v)
	cfg, problems, _ := hooks.Load(user, hooks.Sources(e.home(), e.opts.Roots), trusted)
	for _, p := range problems {
		e.log.Warn("hook configuration", zap.String("source", p.Source), zap.String("problem", p.Message))
		e.notice("warning", e.tr("Hooks not loaded: %s", p.Error()))
	}
	// Hooks run in the shell runner's default shell: no setting chooses
	// another (an undeclared "shell.path" was read here, always empty).
	r = &hooks.Runner{Config: cfg, Cwd: e.opts.Roots[0]}
	e.mu.Lock()
	if e.hooks == nil {
		e.hooks = r
	}
	r = e.hooks
	e.mu.Unlock()
	return r
}

// resetHooks drops the loaded hooks; the next use loads them again.
func (e *Engine) resetHooks() {
	e.mu.Lock()
	e.hooks = nil
	e.mu.Unlock()
}

// fireHook runs the hooks of in.HookEventName and shows their runs in the
// session's chat (turnID may be "").
func (e *Engine) fireHook(ctx context.Context, turnID string, in hooks.Input) hooks.Outcome {
	r := e.hookRunner()
	if r.Config == nil || r.Config.Len() == 0 {
		return hooks.Outcome{}
	}
	if in.Cwd == "" {
		in.Cwd = e.opts.Roots[0]
	}
	out := r.Fire(ctx, in)
	for _, run := range out.Runs {
		e.log.Info("hook ran", zap.String("event", string(run.Event)), zap.String("command", run.Command), zap.String("source", run.Source),
			zap.String("result", run.Result), zap.Int("exit", run.ExitCode), zap.Int64("ms", run.DurationMs), zap.String("note", run.Note))
		if in.SessionID != "" {
			e.Bus.Publish(Event{SessionID: in.SessionID, TurnID: turnID, Kind: KindHook, Text: run.Command, Status: run.Result, Payload: run})
		}
	}
	return out
}

// hookedTool runs PreToolUse and PostToolUse hooks around a tool. A block
// becomes the tool's failure result with the hook's reason; an updated
// input replaces the arguments; context a hook adds is appended to the
// result the model reads. Name, description and schema are the tool's
// own, so the offered definitions do not change.
type hookedTool struct {
	tools.Tool
	e *Engine
}

func (h hookedTool) Run(ctx context.Context, env *tools.Env, raw json.RawMessage) (tools.Result, error) {
	pre := h.e.fireHook(ctx, env.TurnID, hooks.Input{SessionID: env.SessionID, HookEventName: hooks.PreToolUse, ToolName: h.Name(), ToolInput: raw})
	if pre.Blocked {
		return tools.Fail("Blocked by a PreToolUse hook: " + pre.Reason), nil
	}
	if len(pre.UpdatedInput) > 0 {
		raw = pre.UpdatedInput
	}
	res, err := h.Tool.Run(ctx, env, raw)
	if err != nil {
		return res, err
	}
	resp, _ := json.Marshal(map[string]any{"ok": res.OK, "output": res.Output})
	post := h.e.fireHook(ctx, env.TurnID, hooks.Input{SessionID: env.SessionID, HookEventName: hooks.PostToolUse, ToolName: h.Name(), ToolInput: raw, ToolResponse: resp})
	var extra []string
	for _, s := range []string{pre.AdditionalContext, post.AdditionalContext} {
		if s = strings.TrimSpace(s); s != "" {
			extra = append(extra, s)
		}
	}
	if post.Blocked {
		extra = append(extra, "A PostToolUse hook objected: "+post.Reason)
	}
	if len(extra) > 0 {
		res.Output += "\n\n<hook_context>\n" + strings.Join(extra, "\n") + "\n</hook_context>"
	}
	return res, nil
}

// withHooks wraps every tool when any hook is configured. mcp_call_tool
// is left bare: the MCP tool it runs is wrapped instead (hookWrap), so
// hooks see that tool's own name, once.
func (e *Engine) withHooks(ts []tools.Tool) []tools.Tool {
	wrap := e.hookWrap()
	if wrap == nil {
		return ts
	}
	out := make([]tools.Tool, len(ts))
	for i, t := range ts {
		if t.Name() == tools.MCPCallName {
			out[i] = t
			continue
		}
		out[i] = wrap(t)
	}
	return out
}

// hookWrap wraps one tool in the hooks, or is nil when none is configured.
func (e *Engine) hookWrap() func(tools.Tool) tools.Tool {
	if r := e.hookRunner(); r.Config == nil || r.Config.Len() == 0 {
		return nil
	}
	return func(t tools.Tool) tools.Tool { return hookedTool{Tool: t, e: e} }
}

// firePreCompact tells PreCompact hooks (manual for the user's /compact
// and button, auto otherwise); they cannot stop a compaction.
func (e *Engine) firePreCompact(ctx context.Context, sid, turnID, trigger string) {
	kind := "auto"
	if trigger == TriggerCommand || trigger == TriggerButton {
		kind = "manual"
	}
	e.fireHook(ctx, turnID, hooks.Input{SessionID: sid, HookEventName: hooks.PreCompact, Trigger: kind})
}

// userHooks reads the govibe.hooks setting (an object of the settings
// schema, user scope only, so workspace values never reach here). Older
// clients sent it flattened ("hooks.PreToolUse": [...]); both are read.
func userHooks(v config.Values) json.RawMessage {
	m := map[string]any{}
	for k, val := range config.Typed(v).Hooks {
		m[k] = val
	}
	for k, val := range v {
		if ev, ok := strings.CutPrefix(k, "hooks."); ok {
			m[ev] = val
		}
	}
	if len(m) == 0 {
		return nil
	}
	b, _ := json.Marshal(m)
	return b
}
