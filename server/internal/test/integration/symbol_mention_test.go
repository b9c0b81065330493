package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// TestSymbolMention: @#Type.Member attaches that declaration before the
// model call (not the same-named member of another type), an unknown
// symbol is an attachment error the model and the UI both see, and
// session/load keeps both as symbol attachments.
func TestSymbolMention(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ws := t.TempDir()
		writeTree(t, ws, map[string]string{
			"store.go": "package store\n\ntype Store struct{}\n\n// Save writes.\nfunc (s *Store) Save(k string) error {\n\treturn SAVE_BODY(k)\n}\n",
			"cache.go": "package store\n\ntype Cache struct{}\n\nfunc (c *Cache) Save() {}\n",
		})
		model := scripted.Start(t, scripted.Reply{Text: "seen"})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws, APIKey: "sk-test-key-0123456789",
			Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "scripted-model"}})
		r := send(t, ed, "", "why does @#Store.Save fail? see @#Nowhere")
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		u := model.Requests()[0].LastUserMessage()
		if !strings.Contains(u, `<attachment mention="@#Store.Save" kind="symbol">`) || !strings.Contains(u, "return SAVE_BODY(k)") ||
			strings.Contains(u, "(c *Cache)") || !strings.Contains(u, `mention="@#Nowhere" error="no declaration of Nowhere found in the workspace"`) {
			t.Fatalf("the model's message:\n%s", u)
		}
		var load protocol.SessionLoadResult
		if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: r.SessionID}, &load); err != nil {
			t.Fatal(err)
		}
		var atts []protocol.Attachment
		for _, m := range load.Messages {
			if m.Role == "user" {
				atts = m.Attachments
			}
		}
		if len(atts) != 2 || atts[0].Kind != "symbol" || atts[0].Chars == 0 || atts[1].Kind != "symbol" || atts[1].Error == "" {
			t.Fatalf("session/load attachments: %+v", atts)
		}
	})
}
