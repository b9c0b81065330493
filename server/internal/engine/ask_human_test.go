package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Headless, askHuman.timeoutMs holds for the terminal as well: a TTY
// nobody answers does not keep the run waiting, and the model is told.
func TestHeadlessAskHumanTimesOut(t *testing.T) {
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "q1", Name: "ask_human", Arguments: `{"question":"Which database?"}`}}},
		scripted.Reply{Text: "I'll pick sqlite."})
	asked := make(chan struct{}, 1)
	e, err := New(Options{Roots: []string{t.TempDir()}, StateDir: t.TempDir(), APIKeys: map[string]string{"": "sk-test"},
		Settings: config.Values{"apiBaseUrl": model.URL(), "model": "m", "askHuman.timeoutMs": float64(100)},
		Headless: true, HostInfo: HostInfo{OS: "linux", Shell: "bash"},
		AskTerminal: func(ctx context.Context, q tools.HumanQuestion) (tools.HumanReply, error) {
			asked <- struct{}{}
			<-ctx.Done() // nobody at the terminal
			return tools.HumanReply{}, ctx.Err()
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	sid, _, err := e.Send(context.Background(), SendParams{Text: "set up storage"})
	if err != nil {
		t.Fatal(err)
	}
	e.Wait(sid)
	select {
	case <-asked:
	default:
		t.Fatal("the terminal was not asked")
	}
	reqs := model.Requests()
	got := ""
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" && m.ToolCallID == "q1" {
			got = m.Content
		}
	}
	if !strings.HasPrefix(got, "No answer within 100ms") {
		t.Fatalf("the model got %q", got)
	}
}
