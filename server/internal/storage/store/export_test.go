package store

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// normalise strips what Import is allowed to change (ids, references to
// them) so two documents can be compared for content and order.
func normalise(t *testing.T, data []byte) Document {
	t.Helper()
	var d Document
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	pos := map[string]int{}
	for i, m := range d.Messages {
		pos[m.ID] = i
	}
	ref := func(id string) string {
		if i, ok := pos[id]; ok {
			return "#" + string(rune('0'+i))
		}
		return id
	}
	for i := range d.Messages {
		d.Messages[i].ReplyTo = ref(d.Messages[i].ReplyTo)
		d.Messages[i].ID, d.Messages[i].SessionID = "", ""
	}
	for i := range d.LLM {
		d.LLM[i].SourceMessageID = ref(d.LLM[i].SourceMessageID)
	}
	for i := range d.Confirmations {
		d.Confirmations[i].MessageID = ref(d.Confirmations[i].MessageID)
		d.Confirmations[i].ID, d.Confirmations[i].SessionID = "", ""
	}
	d.Session.ID = ""
	return d
}

func TestExportImportRoundTrip(t *testing.T) {
	src := openTest(t, Options{})
	ctx := context.Background()
	sess := mustSession(t, src, NewSession{Title: "auto", Model: "deepseek-chat", Kind: KindChat})
	src.RenameSession(ctx, sess.ID, "Refactor parser")
	ids, w, _ := src.BeginTurn(ctx, sess.ID, "refactor the parser", TurnOptions{BTWBranch: "b1", LLM: []llm.Message{{Role: llm.RoleUser, Content: "refactor the parser"}}})
	w.AppendReasoning("plan")
	w.AppendText("Reading.")
	w.AddToolCall(ctx, ToolCall{ID: "c1", Name: "read", Arguments: `{"path":"p.go"}`})
	w.AddToolResult(ctx, ToolResult{ToolCallID: "c1", OK: true, Output: "package p", Meta: json.RawMessage(`{"n":1}`)},
		llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: "package p"})
	w.AddNotice(ctx, NoticeInfo, "retrying")
	w.AppendText("Done.")
	w.Finalize(ctx, StatusDone, &llm.Usage{PromptTokens: 3, CompletionTokens: 4, CachedTokens: 1})
	src.AppendMessage(ctx, sess.ID, NewMessage{Role: RoleEvent, HiddenFromLLM: true, SubAgentTag: "reviewer", ReplyTo: ids.AssistantMessageID,
		Parts: []Part{{Kind: PartNotice, Notice: &Notice{Level: NoticeWarn, Text: "compacted"}}}})
	src.SetState(ctx, sess.ID, testKeyPlan, json.RawMessage(`{"items":["a","b"]}`))
	src.CreateConfirmation(ctx, sess.ID, NewConfirmation{MessageID: ids.AssistantMessageID, ToolCallID: "c1", Kind: "edit", Payload: json.RawMessage(`{"diff":"+x"}`)})

	data, err := src.Export(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	dst := openTest(t, Options{})
	imported, err := dst.Import(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	if imported.ID == sess.ID || imported.Title != "Refactor parser" || !imported.TitleSetByUser || imported.MessageCount != 3 {
		t.Fatalf("imported session %+v", imported)
	}
	again, err := dst.Export(ctx, imported.ID)
	if err != nil {
		t.Fatal(err)
	}
	a, b := normalise(t, data), normalise(t, again)
	if !reflect.DeepEqual(a, b) {
		ja, _ := json.MarshalIndent(a, "", " ")
		jb, _ := json.MarshalIndent(b, "", " ")
		t.Fatalf("round trip differs:\n%s\n---\n%s", ja, jb)
	}
	// The imported copy is a live session: searchable and writable.
	if hits, _ := dst.Search(ctx, "Reading", SearchOptions{}); len(hits) != 1 || hits[0].SessionID != imported.ID {
		t.Fatalf("search in import: %+v", hits)
	}
	if _, _, err := dst.BeginTurn(ctx, imported.ID, "continue", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	// Importing twice yields two independent sessions.
	if _, err := dst.Import(ctx, data); err != nil {
		t.Fatal(err)
	}
}

func TestImportRejectsBadDocumentsAndWritesNothing(t *testing.T) {
	src := openTest(t, Options{})
	ctx := context.Background()
	sess := mustSession(t, src, NewSession{})
	src.AppendMessage(ctx, sess.ID, NewMessage{Role: RoleUser, Parts: []Part{{Kind: PartText, Text: "a"}}})
	src.AppendMessage(ctx, sess.ID, NewMessage{Role: RoleUser, Parts: []Part{{Kind: PartText, Text: "b"}}})
	src.AppendLLMMessages(ctx, sess.ID, "", llm.Message{Role: llm.RoleUser, Content: "a"})
	good, _ := src.Export(ctx, sess.ID)
	mutate := func(f func(d map[string]any)) []byte {
		var d map[string]any
		json.Unmarshal(good, &d)
		f(d)
		b, _ := json.Marshal(d)
		return b
	}
	msgs := func(d map[string]any) []any { return d["messages"].([]any) }
	bad := map[string][]byte{
		"not json":      []byte("{"),
		"wrong format":  mutate(func(d map[string]any) { d["format"] = "other" }),
		"newer version": mutate(func(d map[string]any) { d["version"] = 2 }),
		"unknown field": mutate(func(d map[string]any) { d["surprise"] = 1 }),
		"bad kind":      mutate(func(d map[string]any) { d["session"].(map[string]any)["kind"] = "robot" }),
		"seq order":     mutate(func(d map[string]any) { msgs(d)[1].(map[string]any)["seq"] = 1 }),
		"dup id":        mutate(func(d map[string]any) { msgs(d)[1].(map[string]any)["id"] = msgs(d)[0].(map[string]any)["id"] }),
		"bad role":      mutate(func(d map[string]any) { msgs(d)[1].(map[string]any)["role"] = "robot" }),
		"bad part": mutate(func(d map[string]any) {
			msgs(d)[1].(map[string]any)["parts"] = []any{map[string]any{"type": "tool_call"}}
		}),
		"llm gap": mutate(func(d map[string]any) { d["llm_messages"].([]any)[0].(map[string]any)["position"] = 3 }),
		"bad llm role": mutate(func(d map[string]any) {
			d["llm_messages"].([]any)[0].(map[string]any)["message"] = map[string]any{"role": "x"}
		}),
		"missing status": mutate(func(d map[string]any) { delete(msgs(d)[1].(map[string]any), "status") }),
	}
	dst := openTest(t, Options{})
	for name, doc := range bad {
		_, err := dst.Import(ctx, doc)
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		} else if strings.TrimSpace(err.Error()) == "" {
			t.Errorf("%s: empty error", name)
		}
	}
	for _, table := range []string{"sessions", "messages", "message_parts", "llm_messages"} {
		if n := countRows(t, dst, table, "1"); n != 0 {
			t.Errorf("%s has %d rows after rejected imports", table, n)
		}
	}
	if _, err := src.Export(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("export unknown: %v", err)
	}
}
