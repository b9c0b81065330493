package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/mcpclient"
)

type fakeMCP struct{ calls int }

func (f *fakeMCP) Call(_ context.Context, server, tool string, args json.RawMessage) (mcpclient.Result, error) {
	f.calls++
	if tool == "down" {
		return mcpclient.Result{}, errors.New("the MCP server s failed to start")
	}
	return mcpclient.Result{Text: server + "/" + tool + " " + string(args), IsError: tool == "bad"}, nil
}

type toolApprover struct {
	Approver
	allow bool
	seen  []ToolProposal
}

func (a *toolApprover) ConfirmTool(_ context.Context, p ToolProposal) (ToolDecision, error) {
	a.seen = append(a.seen, p)
	return ToolDecision{Allowed: a.allow, Reason: "not now"}, nil
}

func TestMCPToolConfirmsEveryCall(t *testing.T) {
	f := &fakeMCP{}
	tl := MCPTool(mcpclient.Tool{Name: "mcp__s__echo", Server: "s", Remote: "echo", ReadOnly: true}, f)
	if tl.ReadOnly() {
		t.Fatal("an MCP tool is never read-only")
	}
	// No approver: refused, not called.
	r, _ := tl.Run(context.Background(), &Env{}, json.RawMessage(`{}`))
	if r.OK || f.calls != 0 {
		t.Fatalf("ran without confirmation: %+v", r)
	}
	deny := &toolApprover{}
	r, _ = tl.Run(context.Background(), &Env{Approver: deny}, json.RawMessage(`{"a":1}`))
	if r.OK || f.calls != 0 || !strings.Contains(r.Output, "declined") || len(deny.seen) != 1 || !deny.seen[0].ReadOnlyHint {
		t.Fatalf("denied: %+v", r)
	}
	allow := &toolApprover{allow: true}
	r, _ = tl.Run(context.Background(), &Env{Approver: allow}, json.RawMessage(`{"a":1}`))
	if !r.OK || r.Output != `s/echo {"a":1}` || f.calls != 1 {
		t.Fatalf("allowed: %+v", r)
	}
	for _, remote := range []string{"bad", "down"} {
		r, _ = MCPTool(mcpclient.Tool{Name: "mcp__s__" + remote, Server: "s", Remote: remote}, f).Run(context.Background(), &Env{Approver: allow}, nil)
		if r.OK {
			t.Errorf("%s: want a model-visible failure, got %+v", remote, r)
		}
	}
}
