package integration

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// TestCompactionInACommandTurnKeepsItsTools: a compaction made while a
// custom command's turn runs repeats that turn's request prefix: the same
// system prompt and only the command's allowedTools, not the session's
// full list.
func TestCompactionInACommandTurnKeepsItsTools(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ws := t.TempDir()
		writeTree(t, ws, map[string]string{".govibe/commands/tight.md": "---\ndescription: Tight\nallowedTools: [read_file, compact]\n---\nTight: $ARGUMENTS\n"})
		model := scripted.Start(t)
		model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
			switch {
			case compact.IsInstruction(r.LastUserMessage()):
				return scripted.Reply{Text: snapshotText}
			case strings.Contains(r.LastUserMessage(), "Tight:") && lastToolOf(r, "k1") == "":
				return tc("k1", "compact", `{}`)
			}
			return scripted.Reply{Text: strings.Repeat(fmt.Sprintf("answer %d about the parser and its many failure modes. ", len(r.Messages)), 40)}
		})
		settings := map[string]any{"apiBaseUrl": model.URL(), "model": "scripted-model", "compact": map[string]any{"keepTokens": 100}}
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws, APIKey: "sk-test-key-0123456789", Settings: settings})
		sid := fillChat(t, ed, 5)
		r := sendIdle(t, ed, sid, "/tight look again")
		if fin := ed.AwaitTurnFinished(sid, r.TurnID, 20*time.Second); fin.Status != "done" {
			t.Fatalf("command turn: %q", fin.Status)
		}
		var turnReq, compactReq *scripted.RecordedRequest
		reqs := model.Requests()
		for i := range reqs {
			switch {
			case compact.IsInstruction(reqs[i].LastUserMessage()):
				compactReq = &reqs[i]
			case turnReq == nil && strings.Contains(reqs[i].LastUserMessage(), "Tight:"):
				turnReq = &reqs[i]
			}
		}
		if turnReq == nil || compactReq == nil {
			t.Fatalf("requests: command turn %v, compaction %v; compact said %q", turnReq != nil, compactReq != nil, lastToolOf(&reqs[len(reqs)-1], "k1"))
		}
		want := []string{"compact", "read_file"}
		if got := slices.Sorted(slices.Values(toolNames(*turnReq))); !slices.Equal(got, want) {
			t.Fatalf("the command turn offered %v", got)
		}
		if got := toolNames(*compactReq); !slices.Equal(got, toolNames(*turnReq)) {
			t.Fatalf("the compaction offered %v, the command turn %v", got, toolNames(*turnReq))
		}
		if compactReq.Messages[0].Content != turnReq.Messages[0].Content {
			t.Fatal("the compaction's system prompt differs from the command turn's")
		}
	})
}
