package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

func toolProfileSettings(tp string) config.Values {
	return config.Values{"model": "small", "models": []any{
		map[string]any{"name": "small", "model": "small-model", "toolProfile": tp},
	}}
}

// TestReadonlyToolProfile: a readonly profile is offered only tools that
// read, a left-out tool called anyway is refused, and the system prompt
// (guidance without the shell or edits) is byte-identical across turns.
func TestReadonlyToolProfile(t *testing.T) {
	x := enginetest.New(t, toolProfileSettings("readonly"))
	x.Model.Enqueue(
		scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "s1", Name: "run_shell_command", Arguments: `{"command":"rm -rf x"}`}}},
		scripted.Reply{Text: "I can only read."},
		scripted.Reply{Text: "still reading"})
	sid, _ := x.Turn("", "delete x")
	x.Turn(sid, "again")
	reqs := x.Model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, r := range reqs {
		for _, tl := range r.Tools {
			switch tl.Name {
			case "edit", "write_file", "run_shell_command", "delete_file", "create_todo_list":
				t.Errorf("request %d offers %s under a readonly profile", i, tl.Name)
			}
		}
		if len(r.Tools) == 0 {
			t.Errorf("request %d offers no tools", i)
		}
	}
	sys := reqs[0].Messages[0].Content
	if strings.Contains(sys, "run_shell_command") || strings.Contains(sys, "`edit`") || !strings.Contains(sys, "tell the user what to change") {
		t.Errorf("readonly system prompt:\n%s", sys)
	}
	if reqs[1].Messages[0].Content != sys || reqs[2].Messages[0].Content != sys {
		t.Error("the system prompt changed between requests of one profile")
	}
	if kind, text := reqs[1].LatestInput(); kind != "tool" || !strings.Contains(text, "readonly") {
		t.Errorf("the refused shell call was answered %s %q", kind, text)
	}
	_, offered := x.E.TurnTools.Offered(context.Background(), sid)
	for _, n := range offered {
		if n == "edit" || n == "run_shell_command" {
			t.Errorf("Offered lists %s", n)
		}
	}
}

// TestToolProfileOfUnknownNamesOffersEverything: a list naming no real
// tool is ignored (the model keeps its tools), not an empty tool list.
func TestToolProfileOfUnknownNamesOffersEverything(t *testing.T) {
	for _, tp := range []string{"red_file, grep", "not a list!"} {
		x := enginetest.New(t, toolProfileSettings(tp))
		x.Model.Enqueue(scripted.Reply{Text: "ok"})
		x.Turn("", "hi")
		r := x.Model.Requests()[0]
		has := map[string]bool{}
		for _, tl := range r.Tools {
			has[tl.Name] = true
		}
		if !has["edit"] || !has["run_shell_command"] || !strings.Contains(r.Messages[0].Content, "run_shell_command") {
			t.Errorf("%q: tools %v", tp, has)
		}
	}
}

// TestExplicitToolList offers exactly the named tools that exist.
func TestExplicitToolList(t *testing.T) {
	x := enginetest.New(t, toolProfileSettings("read_file, edit, nonexistent"))
	x.Model.Enqueue(scripted.Reply{Text: "ok"})
	x.Turn("", "hi")
	r := x.Model.Requests()[0]
	var names []string
	for _, tl := range r.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "read_file,edit" && strings.Join(names, ",") != "edit,read_file" {
		t.Errorf("offered %v", names)
	}
}
