package compact

import (
	"fmt"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

func fileLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d: func handler%d(w http.ResponseWriter, r *http.Request) { serve(w, r, %d) }\n", i, i, i*7)
	}
	return b.String()
}

func TestShortenLargeKeepsHeadTailAndSaysHowToReread(t *testing.T) {
	e := Default()
	big := fileLines(400)
	msgs := []llm.Message{
		{Role: llm.RoleUser, Content: "read big.go"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"filePath":"big.go"}`}}},
		{Role: llm.RoleTool, ToolCallID: "c1", Content: big},
		{Role: llm.RoleAssistant, Content: "It defines 400 handlers."},
	}
	out, saved := ShortenLarge(msgs, 0, 200, e)
	if len(out) != len(msgs) || saved <= 0 {
		t.Fatalf("len %d saved %d", len(out), saved)
	}
	got := out[2].Content
	if !strings.HasPrefix(got, big[:1000]) || !strings.HasSuffix(got, big[len(big)-500:]) {
		t.Fatal("head or tail not kept")
	}
	if !strings.Contains(got, TruncatedMarker) || !strings.Contains(got, `call read_file on "big.go" with startLine/endLine`) {
		t.Fatalf("note: %q", got[1100:1500])
	}
	if e.Text(msgs[2].Content)-e.Text(got) != saved {
		t.Fatalf("saved %d does not match the estimate", saved)
	}
	for i := range msgs {
		if out[i].Role != msgs[i].Role || out[i].ToolCallID != msgs[i].ToolCallID {
			t.Fatalf("message %d changed shape", i)
		}
		if i != 2 && out[i].Content != msgs[i].Content {
			t.Fatalf("message %d changed", i)
		}
	}
	if msgs[2].Content != big {
		t.Fatal("the input was modified")
	}
	// Already shortened, below the limit, or before from: left alone.
	again, more := ShortenLarge(out, 0, 200, e)
	if more != 0 || again[2].Content != got {
		t.Fatal("a shortened result was shortened again")
	}
	if _, s := ShortenLarge(msgs, 3, 200, e); s != 0 {
		t.Fatal("a result before from was shortened")
	}
	if _, s := ShortenLarge(msgs, 0, e.Text(big)+1, e); s != 0 {
		t.Fatal("a result within the limit was shortened")
	}
}

func TestShortenLargeNamesOtherTools(t *testing.T) {
	e := Default()
	msgs := []llm.Message{
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "g", Name: "grep_search", Arguments: `{}`}}},
		{Role: llm.RoleTool, ToolCallID: "g", Content: fileLines(300)},
		{Role: llm.RoleUser, Content: `<tool_result name="x">` + fileLines(300) + `</tool_result>`},
	}
	out, _ := ShortenLarge(msgs, 0, 100, e)
	if !strings.Contains(out[1].Content, "call grep_search again") {
		t.Fatalf("native note: %q", out[1].Content[1100:1400])
	}
	if !strings.Contains(out[2].Content, "call the tool again") || !strings.HasSuffix(out[2].Content, "</tool_result>") {
		t.Fatal("text-protocol result not shortened with its closing tag kept")
	}
}
