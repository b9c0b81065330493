package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// Project memory is created by /init or on first use once the user
// confirms (issue #18). These run the real sidecar (in-process and the
// binary) under the fake editor, with edits auto-approved: the setting
// must not let the first memory write through unasked.

const (
	memL1      = "# Purpose\ndemo is a tiny CLI.\n"
	memL2      = "# Inventory\n- `README.md` - intro\n"
	memL1Write = `{"filePath":".govibe/memory/L1-purpose.md","content":"# Purpose\ndemo is a tiny CLI.\n"}`
	memL2Write = `{"filePath":".govibe/memory/L2-inventory.md","content":"# Inventory\n- ` + "`README.md`" + ` - intro\n"}`
)

// memorySession starts a session on a workspace without memory, whose
// model answers "hello" with text and "remember" with two memory writes
// (L1, then L2 once L1's result came back).
func memorySession(t *testing.T, bin string) (*fakeeditor.Editor, *scripted.Server, string) {
	t.Helper()
	return memorySessionWith(t, bin, nil)
}

// memorySessionWith is memorySession with more settings.
func memorySessionWith(t *testing.T, bin string, more map[string]any) (*fakeeditor.Editor, *scripted.Server, string) {
	t.Helper()
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{"README.md": "# demo\n"})
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		if !strings.Contains(r.LastUserMessage(), "remember") {
			return scripted.Reply{Text: "hi"}
		}
		switch {
		case lastToolOf(r, "m1") == "":
			return tc("m1", "write_file", memL1Write)
		case lastToolOf(r, "m2") == "" && !strings.Contains(lastToolOf(r, "m1"), "declined"):
			return tc("m2", "write_file", memL2Write)
		}
		return scripted.Reply{Text: "done"}
	})
	settings := map[string]any{"apiBaseUrl": model.URL(), "model": "m", "autoApprove.edits": true, "autoApprove.editsDelayMs": 1500}
	for k, v := range more {
		settings[k] = v
	}
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws, APIKey: "sk-test-key-0123456789", Settings: settings})
	return ed, model, ws
}

func noMemory(t *testing.T, ws, when string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(ws, ".govibe")); !os.IsNotExist(err) {
		t.Fatalf("%s: .govibe exists (err %v)", when, err)
	}
}

// TestMemoryCreatedOnFirstUseAfterConfirm: a session and a turn create no
// memory; the first memory write asks (no auto-approval, no countdown, no
// always-allow rule) and writes nothing until accepted; once accepted the
// level is in <root>/.govibe/memory/ with the model's content, the next
// level is an ordinary (auto-approved) edit, and the next message tells
// the model the memory exists.
func TestMemoryCreatedOnFirstUseAfterConfirm(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ed, model, ws := memorySession(t, bin)
		r := send(t, ed, "", "hello")
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		noMemory(t, ws, "after a session's first turn")
		if u := model.Requests()[0].LastUserMessage(); strings.Contains(u, "Project memory is in") {
			t.Fatalf("a memory pointer without memory:\n%s", u)
		}

		r2 := send(t, ed, r.SessionID, "remember the project")
		c := awaitConfirm(t, ed, 1)
		if c.Kind != "edit" || c.RelPath != ".govibe/memory/L1-purpose.md" || !c.IsNew || c.Proposed != memL1 {
			t.Fatalf("the first memory write's confirmation: %+v", c)
		}
		if c.AutoAcceptMs != 0 || len(c.AllowRules) != 0 {
			t.Fatalf("creating memory offered a countdown (%d ms) or allow rules %v", c.AutoAcceptMs, c.AllowRules)
		}
		// The card says it creates the project memory, and where.
		mem := filepath.Join(ws, ".govibe", "memory") + string(filepath.Separator)
		if want := "This creates the project memory in " + mem + ": GoVibe's notes about this project (purpose, file inventory, roles), which it reads on demand in later sessions."; c.Notice != want {
			t.Fatalf("the card's notice:\n%q\nwant\n%q", c.Notice, want)
		}
		noMemory(t, ws, "while the confirmation waits")
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"})
		if fin := ed.AwaitTurnFinished(r.SessionID, r2.TurnID, 20*time.Second); fin.Status != "done" {
			t.Fatalf("turn: %s", fin.Status)
		}
		for rel, want := range map[string]string{"L1-purpose.md": memL1, "L2-inventory.md": memL2} {
			if b, err := os.ReadFile(filepath.Join(ws, ".govibe", "memory", rel)); err != nil || string(b) != want {
				t.Fatalf("%s: %q, %v", rel, b, err)
			}
		}
		if n := len(ed.Notifications("confirm/requested")); n != 1 {
			t.Fatalf("%d confirmations: once memory exists its edits are ordinary ones (auto-approved here)", n)
		}

		r3 := send(t, ed, r.SessionID, "next")
		ed.AwaitTurnFinished(r.SessionID, r3.TurnID, 20*time.Second)
		reqs := model.Requests()
		if u := reqs[len(reqs)-1].LastUserMessage(); !strings.Contains(u, "Project memory is in .govibe/memory/ (L1-purpose.md, L2-inventory.md)") {
			t.Fatalf("the next message does not point at the new memory:\n%s", u)
		}
	})
}

// TestMemoryFirstUseDeclined: declining the write that would create the
// memory leaves no trace (not even the folder), and the model is told
// plainly that the user declined and not to try again unasked, with the
// user's reason when there is one.
func TestMemoryFirstUseDeclined(t *testing.T) {
	for _, reason := range []string{"", "not in this repo"} {
		t.Run("reason="+reason, func(t *testing.T) {
			modes(t, func(t *testing.T, bin string) {
				ed, model, ws := memorySession(t, bin)
				r := send(t, ed, "", "remember the project")
				c := awaitConfirm(t, ed, 1)
				resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "reject", Reason: reason})
				if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
					t.Fatalf("turn: %s", fin.Status)
				}
				noMemory(t, ws, "after the user declined")
				got := lastToolResult(t, model)
				for _, want := range []string{"nothing was written", "The user declined to create the project memory (.govibe/memory/)", "Do not create memory files again unless the user asks"} {
					if !strings.Contains(got, want) {
						t.Fatalf("the model's result lacks %q:\n%s", want, got)
					}
				}
				if reason != "" && !strings.Contains(got, "The user's reason: "+reason) {
					t.Fatalf("the reason did not reach the model:\n%s", got)
				}
				if n := len(ed.Notifications("confirm/requested")); n != 1 {
					t.Fatalf("%d confirmations after a decline", n)
				}
			})
		})
	}
}

// TestMemoryFirstUseNoticeInChinese: the card's line about creating the
// project memory follows the language setting.
func TestMemoryFirstUseNoticeInChinese(t *testing.T) {
	ed, _, ws := memorySessionWith(t, "", map[string]any{"language": "zh-CN"})
	send(t, ed, "", "remember the project")
	c := awaitConfirm(t, ed, 1)
	mem := filepath.Join(ws, ".govibe", "memory") + string(filepath.Separator)
	if want := "这会在 " + mem + " 创建项目记忆：GoVibe 关于本项目的笔记（用途、文件清单、角色），以后的会话会按需读取。"; c.Notice != want {
		t.Fatalf("the card's notice:\n%q\nwant\n%q", c.Notice, want)
	}
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "reject"})
}
