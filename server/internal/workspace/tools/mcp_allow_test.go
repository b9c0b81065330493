package tools

import "testing"

func TestMCPAllowed(t *testing.T) {
	set := func(names ...string) map[string]bool {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	cases := []struct {
		allowed map[string]bool
		name    string
		want    bool
	}{
		{nil, "mcp__e__echo", true},
		{set("mcp__e__echo"), "mcp__e__echo", true},
		{set("mcp__e__echo"), "mcp__e__add", false},
		{set("mcp__e"), "mcp__e__add", true},
		{set("mcp__e__*"), "mcp__e__add", true},
		{set("mcp__e"), "mcp__ex__add", false},
		{set("mcp__e__*"), "mcp__ex__add", false},
		{set("mcp_call_tool"), "mcp__x__y", true},
		{set("read_file"), "mcp__e__echo", false},
	}
	for _, c := range cases {
		if got := MCPAllowed(c.allowed, c.name); got != c.want {
			t.Errorf("MCPAllowed(%v, %s) = %v, want %v", c.allowed, c.name, got, c.want)
		}
	}
	if AllowsMCP(set("read_file")) || !AllowsMCP(set("read_file", "mcp__e")) || !AllowsMCP(nil) {
		t.Error("AllowsMCP")
	}
}
