package engine

import (
	"encoding/json"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/host/config"
)

// toolMeta is the JSON meta of each tool result the UI received, in order.
func (x *rv) toolMeta() []map[string]any {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []map[string]any
	for _, ev := range x.events {
		if ev.Kind != kinds.ToolResult || ev.Tool == nil {
			continue
		}
		b, err := json.Marshal(ev.Tool.Meta)
		if err != nil {
			x.t.Fatal(err)
		}
		m := map[string]any{}
		_ = json.Unmarshal(b, &m)
		out = append(out, m)
	}
	return out
}

func autoOf(t *testing.T, m map[string]any) (by, detail string) {
	t.Helper()
	a, ok := m["autoApproved"].(map[string]any)
	if !ok {
		return "", ""
	}
	by, _ = a["by"].(string)
	detail, _ = a["detail"].(string)
	return by, detail
}

// Every command that ran without asking says why on its card; one the user
// allowed says nothing of the sort.
func TestShellAutoApprovalIsNamedInTheResultMeta(t *testing.T) {
	x := newRV(t, config.Values{"permissions.allow": []any{"Bash(touch ruled.txt)"}}, false, "")
	x.mainScript(shellCall("s1", "ls"), shellCall("s2", "touch ruled.txt"), shellCall("s3", "touch asked.txt"), shellCall("s4", "touch no.txt"))
	sid := x.send("go")
	c := x.confirm()
	x.e.Broker.Resolve(c.ID, approval.Answer{Accept: true})
	c = x.confirm()
	x.e.Broker.Resolve(c.ID, approval.Answer{Accept: false, Reason: "not that one"})
	x.finish(sid)
	metas := x.toolMeta()
	if len(metas) != 4 {
		t.Fatalf("tool results %d, want 4: %v", len(metas), metas)
	}
	if by, _ := autoOf(t, metas[0]); by != "read-only" {
		t.Fatalf("ls: autoApproved by %q, want read-only: %v", by, metas[0])
	}
	if by, d := autoOf(t, metas[1]); by != "rule" || d != "Bash(touch ruled.txt)" {
		t.Fatalf("ruled command: autoApproved %q %q: %v", by, d, metas[1])
	}
	if by, _ := autoOf(t, metas[2]); by != "" {
		t.Fatalf("a command the user allowed claims auto-approval %q", by)
	}
	if metas[3]["declined"] != true || metas[3]["reason"] != "not that one" {
		t.Fatalf("a denied command is not marked as the user's choice: %v", metas[3])
	}
}

func TestShellAutoApprovalHeadlessFlagAndSetting(t *testing.T) {
	x := newRV(t, nil, true, "all")
	x.mainScript(shellCall("s1", "touch a.txt"))
	x.finish(x.send("go"))
	if by, d := autoOf(t, x.toolMeta()[0]); by != "flag" || d != "--approve all" {
		t.Fatalf("headless --approve all: %q %q", by, d)
	}

	y := newRV(t, config.Values{"confirmShellCommand": false}, false, "")
	y.mainScript(shellCall("s1", "touch b.txt"))
	y.finish(y.send("go"))
	if by, d := autoOf(t, y.toolMeta()[0]); by != "setting" || d != "govibe.confirmShellCommand" {
		t.Fatalf("confirmShellCommand off: %q %q", by, d)
	}
}

func TestEditAutoApprovalIsNamedInTheResultMeta(t *testing.T) {
	x := newRV(t, config.Values{"autoApprove.edits": true, "editReview.enabled": false}, false, "")
	x.mainScript(tc("w1", "write_file", `{"filePath":"new.txt","content":"hi\n"}`))
	x.finish(x.send("go"))
	metas := x.toolMeta()
	if len(metas) == 0 {
		t.Fatal("no tool result")
	}
	if by, d := autoOf(t, metas[len(metas)-1]); by != "setting" || d != "govibe.autoApprove.edits" {
		t.Fatalf("autoApprove.edits: %q %q: %v", by, d, metas)
	}
}
