package agent

import "testing"

// TestCallHiderHidesBlocksSplitAnywhere: the text protocol's blocks never
// reach the person, however the stream cuts them, and the text around
// them (including a lone "<") arrives whole and in order.
func TestCallHiderHidesBlocksSplitAnywhere(t *testing.T) {
	const in = "Let me look <b> at a<c.\n<tool_call>{\"tool\": \"read_file\", \"arguments\": {\"filePath\": \"a.txt\"}}</tool_call>\nThen <tool_call>{\"tool\":\"ls\"}</tool_call>done <tool"
	const want = "Let me look <b> at a<c.\n\nThen done <tool"
	for size := 1; size <= len(in); size++ {
		var h callHider
		got := ""
		for i := 0; i < len(in); i += size {
			got += h.push(in[i:min(i+size, len(in))])
		}
		got += h.flush()
		if got != want {
			t.Fatalf("pieces of %d: %q, want %q", size, got, want)
		}
	}
	if got := withoutTextCalls("<tool_call>{\"tool\":\"x\"}</tool_call>\nIt says alpha."); got != "It says alpha." {
		t.Fatalf("final text %q", got)
	}
	var h callHider
	if got := h.push("a<tool_call>{\"tool\":") + h.flush(); got != "a" {
		t.Fatalf("an unclosed block leaked: %q", got)
	}
}
