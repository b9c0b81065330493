package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

func reply(text, id, name, args string) scripted.Reply {
	r := scripted.Reply{Text: text}
	if name != "" {
		r.ToolCalls = []scripted.ToolCall{tc(id, name, args)}
	}
	return r
}

// agentsModel drives one run through every kind of sub-agent: the free
// run calls investigate, then the custom agent "helper", then plans one
// item, which an executor and an evaluator carry out.
func agentsModel(r *scripted.RecordedRequest) scripted.Reply {
	system := ""
	if len(r.Messages) > 0 {
		system = r.Messages[0].Content
	}
	switch {
	case strings.Contains(system, "codebase investigator"):
		return reply("", "ct", "complete_task", `{"report":{"SummaryOfFindings":"one file","ExplorationTrace":[],"RelevantLocations":[]}}`)
	case strings.Contains(system, "HELPER-AGENT"):
		return reply("helper says hi", "", "", "")
	}
	switch who, step := r.SchedulerAgent(); {
	case who == "free" && step == 0:
		return reply("Reading.", "i1", "investigate", `{"objective":"what is here"}`)
	case who == "free" && step == 1:
		return reply("Asking.", "h1", "agent_helper", `{"objective":"say hi"}`)
	case who == "free":
		return reply("Planning.", "p1", "create_todo_list", `{"goal":"one item","items":["A"]}`)
	case who == "executor:1":
		return reply("Did A.", "", "", "")
	case who == "evaluator:1" && step == 0:
		return reply("", "c1", "complete_todo_item", `{"index":1,"summary":"A checked"}`)
	}
	return reply("All good.", "", "", "")
}

func agentsRun(t *testing.T, output string) string {
	t.Helper()
	ws := gitRepo(t, map[string]string{"a.txt": "alpha\n"})
	home := t.TempDir()
	agents := filepath.Join(home, ".govibe", "agents")
	if err := os.MkdirAll(agents, 0o755); err != nil {
		t.Fatal(err)
	}
	def := "---\nname: helper\ndescription: says hi\ntools: [read_file]\n---\nYou are HELPER-AGENT.\n"
	if err := os.WriteFile(filepath.Join(agents, "helper.md"), []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	model := scripted.Start(t)
	model.SetHandler(agentsModel)
	out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + home},
		"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m",
		"--approve", "all", "--output", output, "look around")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	return out
}

// TestExecStreamJSONNamesToolsAndAgents: init.tools is the list the model
// is offered (compact, create_todo_list, investigate, agent_* included),
// and every sub-agent's events carry its agent tag.
func TestExecStreamJSONNamesToolsAndAgents(t *testing.T) {
	out := agentsRun(t, "stream-json")
	agents := map[string]bool{}
	var tools []string
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("line %d is not JSON: %q", i+1, line)
		}
		if obj["type"] == "init" {
			for _, n := range obj["tools"].([]any) {
				tools = append(tools, n.(string))
			}
		}
		if a, ok := obj["agent"].(string); ok {
			agents[a] = true
		}
	}
	for _, want := range []string{"compact", "create_todo_list", "investigate", "agent_helper", "read_file", "run_shell_command"} {
		if !slices.Contains(tools, want) {
			t.Errorf("init.tools lacks %s: %v", want, tools)
		}
	}
	for _, want := range []string{"investigate", "agent:helper", "executor:1", "evaluator:1"} {
		if !agents[want] {
			t.Errorf("no event tagged %q (tags seen: %v)\n%s", want, agents, out)
		}
	}
}

// TestExecJSONSeparatesRounds: the text of consecutive rounds is joined
// with a blank line, not glued together.
func TestExecJSONSeparatesRounds(t *testing.T) {
	out := agentsRun(t, "json")
	var res struct {
		Text  string         `json:"text"`
		Usage map[string]any `json:"usage"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("json output %q: %v", out, err)
	}
	if !strings.Contains(res.Text, "Reading.\n\nAsking.") || strings.Contains(res.Text, "Reading.Asking") {
		t.Fatalf("text %q", res.Text)
	}
	if !strings.HasSuffix(res.Text, "\n\nAll good.") {
		t.Fatalf("text %q", res.Text)
	}
}
