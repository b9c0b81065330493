package engine

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/govibe/govibe/server/internal/llm/scripted"
)

func call(id, name string, args any) scripted.ToolCall {
	b, _ := json.Marshal(args)
	return scripted.ToolCall{ID: id, Name: name, Arguments: string(b)}
}

func calls(cs ...scripted.ToolCall) scripted.Reply { return scripted.Reply{ToolCalls: cs} }

func text(s string) scripted.Reply { return scripted.Reply{Text: s} }

func has(xs []string, s string) bool { return slices.Contains(xs, s) }

// toolResults maps tool-call ids to their results in the stored UI track.
func (x *env) toolResults(sid string) map[string]string {
	x.t.Helper()
	page, err := x.e.Store.LoadMessages(context.Background(), sid, 0, 10000)
	if err != nil {
		x.t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range page.Messages {
		for _, p := range m.Parts {
			if p.ToolResult != nil {
				ok := "ok"
				if !p.ToolResult.OK {
					ok = "error"
				}
				out[p.ToolResult.ToolCallID] = ok + ": " + p.ToolResult.Output
			}
		}
	}
	return out
}
