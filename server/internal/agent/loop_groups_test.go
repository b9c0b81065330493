package agent

import (
	"fmt"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

func TestFileWriteGroups(t *testing.T) {
	calls := []llm.ToolCall{
		{Name: "edit", Arguments: `{"filePath":"a.go"}`},
		{Name: "write_file", Arguments: `{"filePath":"b.go"}`},
		{Name: "edit", Arguments: `{"filePath":"/ws/a.go"}`},
		{Name: "delete_file", Arguments: `{"filePath":"./c.go"}`},
		{Name: "run_shell_command", Arguments: `{"command":"go test"}`},
		{Name: "edit", Arguments: `{"filePath":"d.go"}`},
	}
	// Which calls write one file follows from the tools' traits and
	// schemas (tools.WritesOneFile), not from their names.
	reg := tools.NewRegistry(tools.Builtin()...)
	writes := func(n string) bool { t, ok := reg.Get(n); return ok && tools.WritesOneFile(t) }
	groups, end := fileWriteGroups(calls, 0, "/ws", writes)
	if end != 4 || fmt.Sprint(groups) != "[[0 2] [1] [3]]" {
		t.Fatalf("groups %v end %d", groups, end)
	}
	if g, end := fileWriteGroups(calls, 4, "/ws", writes); len(g) != 0 || end != 4 {
		t.Fatalf("a shell command is not a file write: %v %d", g, end)
	}
}
