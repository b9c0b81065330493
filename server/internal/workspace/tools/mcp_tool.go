package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/govibe/govibe/server/internal/workspace/mcpclient"
)

// ToolProposal is a call that needs the user's confirmation although it is
// neither an edit nor a shell command: an MCP server's tool.
type ToolProposal struct {
	Tool       string // the model-visible name, mcp__server__tool
	Server     string
	Remote     string
	Arguments  json.RawMessage
	ToolCallID string
	// ReadOnlyHint is what the server claims; it is shown, not trusted.
	ReadOnlyHint bool
}

// ToolDecision is the user's answer.
type ToolDecision struct {
	Allowed bool
	Reason  string
	// Rule names the allow rule or setting that approved it without
	// asking, for the card ("auto-approved: allow rule mcp__gh__*").
	Rule string
}

// ToolApprover confirms generic tool calls. An Approver that does not
// implement it refuses every MCP call, which is the safe default.
type ToolApprover interface {
	ConfirmTool(ctx context.Context, p ToolProposal) (ToolDecision, error)
}

// MCPCaller is what an MCP tool needs of the manager.
type MCPCaller interface {
	Call(ctx context.Context, server, tool string, args json.RawMessage) (mcpclient.Result, error)
}

// MCPToolMeta is Result.Meta of an MCP tool call.
type MCPToolMeta struct {
	Server   string            `json:"server"`
	Tool     string            `json:"tool"`
	Images   []mcpclient.Image `json:"images,omitempty"`
	IsError  bool              `json:"isError,omitempty"`
	Approved string            `json:"approved,omitempty"`
}

type mcpTool struct {
	t mcpclient.Tool
	m MCPCaller
}

// MCPTool offers one MCP server tool to the model. Every call is confirmed
// unless an allow rule covers it. It is not read-only whatever the server
// claims: a remote tool's hint is not a guarantee.
func MCPTool(t mcpclient.Tool, m MCPCaller) Tool { return &mcpTool{t: t, m: m} }

func (x *mcpTool) Name() string            { return x.t.Name }
func (x *mcpTool) Description() string     { return x.t.Description }
func (x *mcpTool) Schema() json.RawMessage { return x.t.Schema }
func (x *mcpTool) ReadOnly() bool          { return false }

// Traits come from the server's annotations: a tool it marks read-only
// reads; any other may change anything. A tool the server does not mark
// closed-world reaches the network. The hint decides where the tool is
// offered; its calls are confirmed all the same, and never run in
// parallel (ReadOnly).
func (x *mcpTool) Traits() Traits {
	t := Reads
	if !x.t.ReadOnly {
		t = WritesWorkspace
	}
	if x.t.OpenWorld {
		t |= ReachesNetwork
	}
	return t
}

func (x *mcpTool) Run(ctx context.Context, env *Env, args json.RawMessage) (Result, error) {
	meta := MCPToolMeta{Server: x.t.Server, Tool: x.t.Remote}
	ta, ok := env.Approver.(ToolApprover)
	if !ok || env.Approver == nil {
		return Result{OK: false, Output: fmt.Sprintf("%s needs the user's confirmation, which is not available here.", x.t.Name),
			Display: env.Tr("Not run: the call of %s needs approval and no one is available to approve it.", x.t.Name), Meta: meta}, nil
	}
	d, err := ta.ConfirmTool(ctx, ToolProposal{Tool: x.t.Name, Server: x.t.Server, Remote: x.t.Remote, Arguments: args,
		ToolCallID: CallID(ctx), ReadOnlyHint: x.t.ReadOnly})
	if err != nil {
		return Result{}, err
	}
	if !d.Allowed {
		msg := fmt.Sprintf("The user declined the call of %s.", x.t.Name)
		if d.Reason != "" {
			msg += " Reason: " + d.Reason
		}
		return Result{OK: false, Output: msg, Display: env.Tr("Not run: the call of %s was declined.", x.t.Name), Meta: meta}, nil
	}
	meta.Approved = d.Rule
	r, err := x.m.Call(ctx, x.t.Server, x.t.Remote, args)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return Result{OK: false, Output: err.Error(), Display: env.Tr("The MCP server %s could not run %s: %v", x.t.Server, x.t.Remote, err), Meta: meta}, nil
	}
	meta.Images, meta.IsError = r.Images, r.IsError
	return Result{OK: !r.IsError, Output: r.Text, Meta: meta}, nil
}
