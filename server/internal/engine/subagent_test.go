package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/subagent"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/store"
)

const validReport = `{"SummaryOfFindings":"parse lives in p.go","ExplorationTrace":["grep parse"],"RelevantLocations":[{"FilePath":"p.go","Reasoning":"defines parse","KeySymbols":["parse"]}]}`

// investigate returns only its validated report; an invalid report gets
// a corrective retry; the sub-agent runs in a hidden child session with
// read-only tools, and its progress is published under its tag.
func TestInvestigateReportAndCorrectiveRetry(t *testing.T) {
	s := &enginetest.Script{
		Main: []scripted.Reply{
			calls(call("i1", "investigate", map[string]any{"objective": "where is parse?"})),
			calls(call("i2", "investigate", map[string]any{"objective": "and again?"})),
			text("thanks"),
		},
		Sub: map[string][]scripted.Reply{"codebase investigator": {
			// first investigation: valid at once
			calls(call("g1", "grep_search", map[string]any{"pattern": "parse"})),
			calls(call("d1", "complete_task", map[string]any{"report": json.RawMessage(validReport)})),
			// second: invalid report, then a reply without the call, then valid (as a string)
			calls(call("d2", "complete_task", map[string]any{"report": map[string]any{"SummaryOfFindings": "", "ExplorationTrace": []string{}}})),
			text("I am done"),
			calls(call("d3", "complete_task", map[string]any{"report": validReport})),
		}},
	}
	x := enginetest.NewScripted(t, s, nil, false)
	x.WriteFile("p.go", "package p\nfunc parse() {}\n")
	sid, _ := x.Turn("", "investigate parse")
	res := x.ToolResults(sid)
	var rep subagent.Report
	if err := json.Unmarshal([]byte(strings.TrimPrefix(res["i1"], "ok: ")), &rep); err != nil || rep.RelevantLocations[0].FilePath != "p.go" {
		t.Fatalf("i1 %q: %v", res["i1"], err)
	}
	if !strings.HasPrefix(res["i2"], "ok: ") {
		t.Fatalf("i2 %q", res["i2"])
	}
	subReqs := s.Reqs["codebase investigator"]
	if len(subReqs) != 5 {
		t.Fatalf("%d sub-agent requests", len(subReqs))
	}
	// The invalid report's error reached the sub-agent as its tool result.
	third := subReqs[3].Messages
	var sawErr bool
	for _, m := range third {
		sawErr = sawErr || (m.ToolCallID == "d2" && strings.Contains(m.Content, "SummaryOfFindings must be a non-empty string") &&
			strings.Contains(m.Content, "RelevantLocations must be an array"))
	}
	if !sawErr {
		t.Fatalf("corrective tool result missing: %+v", third)
	}
	if last := subReqs[4].LastUserMessage(); !strings.Contains(last, "You must finish by calling complete_task") {
		t.Fatalf("reminder missing: %q", last)
	}
	// Read-only tools only, plus complete_task.
	for _, n := range s.Offered["codebase investigator"] {
		if n == "write_file" || n == "edit" || n == "run_shell_command" || n == "investigate" {
			t.Fatalf("investigator offered %s", n)
		}
	}
	if !has(s.Offered["codebase investigator"], "complete_task") {
		t.Fatal("complete_task not offered")
	}
	// The main agent received only the report: no sub-agent message is in
	// the main track.
	for _, m := range x.Track(sid) {
		if m.ToolCallID == "g1" || strings.Contains(m.Content, "I am done") {
			t.Fatalf("sub-agent message leaked into the main track: %+v", m)
		}
	}
	// Child sessions hold the sub-agent's own history, hidden.
	page, err := x.E.Store.ListSessions(context.Background(), store.ListOptions{Limit: 50, IncludeHidden: true, ParentID: sid})
	if err != nil {
		t.Fatal(err)
	}
	children := 0
	for _, c := range page.Sessions {
		if c.ParentID == sid && c.Kind == store.KindSubagent && c.Hidden {
			children++
		}
	}
	if children != 2 {
		t.Fatalf("%d child sessions", children)
	}
	tagged := 0
	for _, ev := range x.EventsOf(sid, kinds.ToolCall) {
		if ev.SubAgentTag == "investigate" {
			tagged++
		}
	}
	if tagged == 0 {
		t.Fatal("no sub-agent progress published under the investigate tag")
	}
}

func writeAgent(t *testing.T, dir, name, content string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A custom agent is offered as agent_<name> and its allow-list is
// enforced: tools outside it are neither offered nor run. Project agents
// load only in trusted workspaces; malformed files are reported with path
// and line and skipped.
func TestCustomAgentAllowList(t *testing.T) {
	s := &enginetest.Script{
		Main: []scripted.Reply{
			calls(call("a1", "agent_reader", map[string]any{"objective": "read notes.txt"})),
			text("ok"),
		},
		Sub: map[string][]scripted.Reply{"READER-AGENT": {
			calls(call("w1", "write_file", map[string]any{"filePath": "x.txt", "content": "x"}), call("r1", "read_file", map[string]any{"filePath": "notes.txt"})),
			text("notes say hello"),
		}},
	}
	x := enginetest.NewScripted(t, s, nil, true)
	x.WriteFile("notes.txt", "hello\n")
	agents := filepath.Join(x.Dir, ".govibe", "agents")
	writeAgent(t, agents, "reader.md", "---\nname: reader\ndescription: reads files\ntools: [read_file, list_files]\n---\nREADER-AGENT: you read files.\n")
	bad := writeAgent(t, agents, "bad.md", "---\nname: bad\ndescription: d\ntools: [read_file\n---\nbody\n")
	unknown := writeAgent(t, agents, "unknown.md", "---\nname: unk\ndescription: d\ntools: [read_file, launch_rockets]\n---\nbody\n")
	sid, _ := x.Turn("", "use the reader")
	res := x.ToolResults(sid)
	if res["a1"] != "ok: notes say hello" {
		t.Fatalf("a1 %q", res["a1"])
	}
	if _, err := os.Stat(filepath.Join(x.Dir, "x.txt")); err == nil {
		t.Fatal("the custom agent wrote outside its allow-list")
	}
	offered := s.Offered["READER-AGENT"]
	if strings.Join(offered, ",") != "read_file,list_files" {
		t.Fatalf("offered %v", offered)
	}
	// The refused call's result, as the sub-agent saw it.
	var refused string
	for _, m := range s.Reqs["READER-AGENT"][1].Messages {
		if m.ToolCallID == "w1" {
			refused = m.Content
		}
	}
	if !strings.Contains(refused, `unknown tool "write_file"`) {
		t.Fatalf("write_file result %q", refused)
	}
	var notices []string
	for _, ev := range x.EventsOf(sid, kinds.Notice) {
		notices = append(notices, ev.Text)
	}
	all := strings.Join(notices, "\n")
	if !strings.Contains(all, bad+":") || !strings.Contains(all, unknown+":") || !strings.Contains(all, `unknown tool "launch_rockets"`) {
		t.Fatalf("problems not reported with their paths:\n%s", all)
	}
	if !has(s.Offered["main"], "agent_reader") || has(s.Offered["main"], "agent_bad") || has(s.Offered["main"], "agent_unk") {
		t.Fatalf("main offered %v", s.Offered["main"])
	}

	// Untrusted: the project agent is not loaded.
	s2 := &enginetest.Script{Main: []scripted.Reply{text("hi")}, Sub: map[string][]scripted.Reply{}}
	y := enginetest.NewScripted(t, s2, nil, false)
	writeAgent(t, filepath.Join(y.Dir, ".govibe", "agents"), "reader.md", "---\nname: reader\ndescription: reads\ntools: [read_file]\n---\nbody\n")
	y.Turn("", "hello")
	if has(s2.Offered["main"], "agent_reader") {
		t.Fatal("project agent loaded in an untrusted workspace")
	}
}
