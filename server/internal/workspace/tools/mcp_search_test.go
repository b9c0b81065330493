package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/mcpclient"
)

// Over the schema budget two tools stand in for the MCP tools: the search
// ranks name matches first, honours its limit and shows schemas; the call
// refuses unknown tools and non-object arguments, and goes through the
// MCP confirmation like a directly offered tool.
func TestMCPSearchAndCall(t *testing.T) {
	var ts []mcpclient.Tool
	for i := 0; i < 30; i++ {
		ts = append(ts, mcpclient.Tool{Name: fmt.Sprintf("mcp__s__t%02d", i), Server: "s", Remote: fmt.Sprintf("t%02d", i), Description: "does nothing", Schema: json.RawMessage(`{"type":"object"}`)})
	}
	ts = append(ts, mcpclient.Tool{Name: "mcp__gh__create_issue", Server: "gh", Remote: "create_issue", Description: "Open a GitHub issue", Schema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}}}`)},
		mcpclient.Tool{Name: "mcp__gh__list", Server: "gh", Remote: "list", Description: "List every issue", Schema: json.RawMessage(`{}`)})
	f := &fakeMCP{}
	var wrapped []string
	pair := MCPSearch(ts, f, func(tl Tool) Tool { wrapped = append(wrapped, tl.Name()); return tl })
	search, callT := pair[0], pair[1]
	if search.Name() != "mcp_search_tools" || !search.ReadOnly() || callT.Name() != "mcp_call_tool" || callT.ReadOnly() {
		t.Fatalf("tools: %s %v, %s %v", search.Name(), search.ReadOnly(), callT.Name(), callT.ReadOnly())
	}
	run := func(tl Tool, env *Env, args string) Result {
		t.Helper()
		r, err := tl.Run(context.Background(), env, json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := run(search, &Env{}, `{"query":"issue create"}`)
	if !r.OK || strings.Index(r.Output, "mcp__gh__create_issue") > strings.Index(r.Output, "mcp__gh__list") || !strings.Contains(r.Output, `"title"`) {
		t.Fatalf("ranking and schema: %s", r.Output)
	}
	if r := run(search, &Env{}, `{"query":"nothing","limit":50}`); strings.Count(r.Output, "## ") != 20 {
		t.Fatalf("limit capped at 20: %d hits", strings.Count(r.Output, "## "))
	}
	if r := run(search, &Env{}, `{"query":"zebra"}`); !r.OK || !strings.Contains(r.Output, "No MCP tool matches") {
		t.Fatalf("no match: %+v", r)
	}
	if r := run(search, &Env{}, `{"query":"  "}`); r.OK {
		t.Fatalf("an empty query: %+v", r)
	}

	ap := &toolApprover{allow: true}
	env := &Env{Approver: ap}
	if r := run(callT, env, `{"tool":"mcp__gh__nope"}`); r.OK || !strings.Contains(r.Output, "mcp_search_tools") || f.calls != 0 {
		t.Fatalf("unknown tool: %+v", r)
	}
	if r := run(callT, env, `{"tool":"mcp__gh__create_issue","arguments":[1]}`); r.OK || !strings.Contains(r.Output, "JSON object") || f.calls != 0 {
		t.Fatalf("bad arguments: %+v", r)
	}
	r = run(callT, env, `{"tool":"mcp__gh__create_issue","arguments":{"title":"x"}}`)
	if !r.OK || f.calls != 1 || len(ap.seen) != 1 || ap.seen[0].Server != "gh" || ap.seen[0].Remote != "create_issue" || !strings.Contains(r.Output, `gh/create_issue {"title":"x"}`) {
		t.Fatalf("call: %+v (asked %+v)", r, ap.seen)
	}
	if strings.Join(wrapped, ",") != "mcp__gh__create_issue" {
		t.Fatalf("the called tool was not wrapped (hooks would not see it): %v", wrapped)
	}
	ap.allow = false
	if r := run(callT, env, `{"tool":"mcp__gh__list"}`); r.OK || f.calls != 1 {
		t.Fatalf("a declined call ran: %+v", r)
	}
}
