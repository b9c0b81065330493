package planrun

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// The step summary learns an edit's path without the file's text being
// encoded for it; other metadata reaches it whole.
func TestActivityMetaKeepsWhatTheSummaryReads(t *testing.T) {
	big := strings.Repeat("a line of the file\n", 100000)
	got := activityMeta(tools.EditMeta{Path: "/w/big.go", Before: big, After: big + "x", Created: true})
	if string(got) != `{"path":"/w/big.go"}` {
		t.Fatalf("edit: %.200s", got)
	}
	shell := map[string]any{"command": "go test", "exitCode": 1}
	var back map[string]any
	if err := json.Unmarshal(activityMeta(shell), &back); err != nil || back["command"] != "go test" || back["exitCode"] != float64(1) {
		t.Fatalf("shell: %v %v", back, err)
	}
	if activityMeta(nil) != nil {
		t.Fatal("no metadata became some")
	}
}
