package agent

import (
	"fmt"
	"testing"

	"github.com/govibe/govibe/server/internal/llm"
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
	groups, end := fileWriteGroups(calls, 0, "/ws")
	if end != 4 || fmt.Sprint(groups) != "[[0 2] [1] [3]]" {
		t.Fatalf("groups %v end %d", groups, end)
	}
	if g, end := fileWriteGroups(calls, 4, "/ws"); len(g) != 0 || end != 4 {
		t.Fatalf("a shell command is not a file write: %v %d", g, end)
	}
}
