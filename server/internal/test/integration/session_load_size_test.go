package integration

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// firstPage is the page the editor opens a session with
// (extension/src/host/chatView.ts, FIRST_PAGE).
const firstPage = 40

// Opening a session costs the same whatever its length (issue 33 §6): the
// first session/load of a 5,000-message session sends as many bytes as
// that of a 50-message one, and takes about as long. Older pages come on
// scroll (beforeSeq). The server's default page stays bounded too.
func TestSessionLoadDoesNotGrowWithHistory(t *testing.T) {
	model := scripted.Start(t)
	ed := connect(t, "", model, nil)
	type figures struct {
		bytes, messages int
		took            time.Duration
	}
	load := func(n int, limit int) figures {
		var info protocol.SessionInfo
		if err := ed.Call("session/import", protocol.SessionImportParams{Document: sizedDoc(t, n)}, &info); err != nil {
			t.Fatalf("import %d messages: %v", n, err)
		}
		var times []time.Duration
		var raw json.RawMessage
		for i := 0; i < 5; i++ {
			start := time.Now()
			if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: info.ID, Limit: limit}, &raw); err != nil {
				t.Fatalf("load %d messages: %v", n, err)
			}
			times = append(times, time.Since(start))
		}
		var res protocol.SessionLoadResult
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		if !res.HasMore {
			t.Fatalf("the first page of %d messages says there is nothing older", n)
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		return figures{bytes: len(raw), messages: len(res.Messages), took: times[len(times)/2]}
	}
	small, large := load(50, firstPage), load(5000, firstPage)
	t.Logf("first page: 50 messages %d bytes in %v, 5,000 messages %d bytes in %v", small.bytes, small.took, large.bytes, large.took)
	if small.messages != firstPage || large.messages != firstPage {
		t.Fatalf("first page holds %d and %d messages, want %d", small.messages, large.messages, firstPage)
	}
	if float64(large.bytes) > 1.05*float64(small.bytes) {
		t.Errorf("the first page of 5,000 messages is %d bytes, of 50 messages %d: it grows with history", large.bytes, small.bytes)
	}
	// 100x the history: a load that read it all would take far longer. The
	// margin absorbs a busy machine.
	if large.took > 5*small.took+100*time.Millisecond {
		t.Errorf("the first page of 5,000 messages took %v, of 50 messages %v: it grows with history", large.took, small.took)
	}
	def := load(1000, 0)
	if def.messages != 200 {
		t.Errorf("session/load's default page holds %d messages, want 200", def.messages)
	}
}

// sizedDoc is an export document of n messages, all of one size (a
// question, then an answer with a tool call and a 2 KB result), so pages
// of different sessions compare byte for byte.
func sizedDoc(t *testing.T, n int) string {
	t.Helper()
	now := time.Now()
	doc := store.Document{Format: store.ExportFormat, Version: store.ExportVersion,
		Session: store.Session{Title: fmt.Sprintf("sized %d", n), Model: "scripted-model", Kind: store.KindChat, Status: store.SessionActive, Created: now, Updated: now}}
	for i := 0; i < n; i++ {
		m := store.Message{ID: fmt.Sprintf("m%05d", i), Seq: int64(i + 1), Status: store.StatusDone, Created: now, Updated: now}
		if i%2 == 0 {
			m.Role = store.RoleUser
			m.Parts = []store.Part{{Kind: store.PartText, Text: fmt.Sprintf("Question %05d: what does this step change?", i)}}
		} else {
			call := fmt.Sprintf("call-%05d", i)
			m.Role = store.RoleAssistant
			m.Parts = []store.Part{
				{Kind: store.PartText, Text: fmt.Sprintf("Step %05d changes the parser.", i)},
				{Kind: store.PartToolCall, ToolCall: &store.ToolCall{ID: call, Name: "read_file", Arguments: `{"path":"main.go"}`, Status: store.ToolDone}},
				{Kind: store.PartToolResult, ToolResult: &store.ToolResult{ToolCallID: call, OK: true, Output: strings.Repeat("line of output\n", 140)}},
			}
		}
		doc.Messages = append(doc.Messages, m)
		doc.LLM = append(doc.LLM, store.LLMEntry{Position: len(doc.LLM), Message: llm.Message{Role: llm.RoleUser, Content: "step"}})
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
