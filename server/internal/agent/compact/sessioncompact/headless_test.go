package sessioncompact_test

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Headless, a reply typed at the terminal is one of the user's decisions
// a compaction keeps, as the editor's answers are; and the pause after an
// automatic compaction never waits for anyone.
func TestHeadlessAnswersAreKeptAndNothingPauses(t *testing.T) {
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "q1", Name: "ask_human", Arguments: `{"question":"Which database?"}`}}},
		scripted.Reply{Text: "I'll use sqlite."})
	e, err := engine.New(engine.Options{Roots: []string{t.TempDir()}, StateDir: t.TempDir(), APIKeys: map[string]string{"": "sk-test"},
		Settings: config.Values{"apiBaseUrl": model.URL(), "model": "m", "compact.askToContinue": true},
		Headless: true, HostInfo: engine.HostInfo{OS: "linux", Shell: "bash"},
		AskTerminal: func(ctx context.Context, q tools.HumanQuestion) (tools.HumanReply, error) {
			return tools.HumanReply{Reply: "sqlite, file in ./data"}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	sid, _, err := e.Send(ctx, engine.SendParams{Text: "set up storage"})
	if err != nil {
		t.Fatal(err)
	}
	if st := e.Wait(sid); st != "done" {
		t.Fatalf("turn %q", st)
	}
	h := e.SessionCompaction.Host()
	ds, omitted := h.Decisions(ctx, sid, 10)
	if len(ds) != 1 || omitted != 0 || ds[0].Kind != "question" || ds[0].Subject != "Which database?" || !ds[0].Accepted || ds[0].Answer != "sqlite, file in ./data" {
		t.Fatalf("decisions %+v (%d omitted)", ds, omitted)
	}
	if err := h.ContinueAfter(ctx, sid, "t", compaction.Info{Trigger: compaction.TriggerAuto}); err != nil {
		t.Fatalf("headless paused: %v", err)
	}
}
