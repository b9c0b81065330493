package tools

import "context"

// HookDecision is what a PreToolUse hook decided about one tool call, as
// Claude Code's hooks decide it (hookSpecificOutput.permissionDecision):
// HookAllow skips the confirmation the call would otherwise need, and
// HookAsk asks even where an allow rule or setting would let it through.
// (A deny never reaches the tool: the hook blocks the call.) Neither
// overrides a permission rule's deny or ask, the dangerous-command
// refusal, or the sandbox: the approver applies the decision after those.
type HookDecision struct {
	// Decision is HookAllow or HookAsk.
	Decision string
	// Reason is the hook's permissionDecisionReason (shown, not sent to
	// the model); Source is the hook's command, for the approval card.
	Reason, Source string
}

// The decisions a PreToolUse hook may hand the approver.
const (
	HookAllow = "allow"
	HookAsk   = "ask"
)

// AutoByHook marks a call a PreToolUse hook allowed (AutoApproval.By).
const AutoByHook = "hook"

type hookDecisionKey struct{}

// WithHookDecision carries a PreToolUse hook's decision to the approver of
// the call run with the returned context.
func WithHookDecision(ctx context.Context, d HookDecision) context.Context {
	return context.WithValue(ctx, hookDecisionKey{}, d)
}

// HookDecisionOf is the hook decision for the call ctx runs, if any.
func HookDecisionOf(ctx context.Context) (HookDecision, bool) {
	d, ok := ctx.Value(hookDecisionKey{}).(HookDecision)
	return d, ok && (d.Decision == HookAllow || d.Decision == HookAsk)
}
