package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/llm/scripted"
	"github.com/govibe/govibe/server/internal/store"
	"github.com/govibe/govibe/server/internal/subagent"
)

// subScript answers the main agent and sub-agents separately: a request
// belongs to a sub-agent when its system prompt is that agent's.
type subScript struct {
	mu      sync.Mutex
	main    []scripted.Reply
	sub     map[string][]scripted.Reply // by a marker in the system prompt
	offered map[string][]string
	reqs    map[string][]scripted.RecordedRequest
}

func (s *subScript) handle(r *scripted.RecordedRequest) scripted.Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	who := "main"
	for marker := range s.sub {
		if strings.Contains(r.Messages[0].Content, marker) {
			who = marker
		}
	}
	var names []string
	for _, t := range r.Tools {
		names = append(names, t.Name)
	}
	s.offered[who] = names
	s.reqs[who] = append(s.reqs[who], *r)
	list := s.main
	if who != "main" {
		list = s.sub[who]
	}
	step := len(s.reqs[who]) - 1
	if step < len(list) {
		return list[step]
	}
	return scripted.Reply{Text: "unscripted " + who}
}

func newSubEnv(t *testing.T, s *subScript, settings config.Values, trusted bool) *env {
	t.Helper()
	s.offered, s.reqs = map[string][]string{}, map[string][]scripted.RecordedRequest{}
	model := scripted.Start(t)
	model.SetHandler(s.handle)
	x := &env{t: t, model: model, dir: t.TempDir(), state: t.TempDir()}
	t.Setenv("HOME", t.TempDir())
	x.openTrusted(settings, trusted)
	return x
}

func (x *env) openTrusted(settings config.Values, trusted bool) {
	x.t.Helper()
	v := config.Values{"apiBaseUrl": x.model.URL(), "model": "scripted-model"}
	for k, val := range settings {
		v[k] = val
	}
	e, err := New(Options{Roots: []string{x.dir}, StateDir: x.state, Settings: v, APIKeys: map[string]string{"": "sk-test"},
		Headless: true, Approve: "all", Trusted: trusted, HostInfo: HostInfo{OS: "linux", Shell: "bash"}})
	if err != nil {
		x.t.Fatal(err)
	}
	x.e = e
	x.unsub = e.Bus.Subscribe(func(ev Event) {
		x.mu.Lock()
		x.events = append(x.events, ev)
		x.mu.Unlock()
	})
	x.t.Cleanup(x.close)
}

const validReport = `{"SummaryOfFindings":"parse lives in p.go","ExplorationTrace":["grep parse"],"RelevantLocations":[{"FilePath":"p.go","Reasoning":"defines parse","KeySymbols":["parse"]}]}`

// investigate returns only its validated report; an invalid report gets
// a corrective retry; the sub-agent runs in a hidden child session with
// read-only tools, and its progress is published under its tag.
func TestInvestigateReportAndCorrectiveRetry(t *testing.T) {
	s := &subScript{
		main: []scripted.Reply{
			calls(call("i1", "investigate", map[string]any{"objective": "where is parse?"})),
			calls(call("i2", "investigate", map[string]any{"objective": "and again?"})),
			text("thanks"),
		},
		sub: map[string][]scripted.Reply{"codebase investigator": {
			// first investigation: valid at once
			calls(call("g1", "grep_search", map[string]any{"pattern": "parse"})),
			calls(call("d1", "complete_task", map[string]any{"report": json.RawMessage(validReport)})),
			// second: invalid report, then a reply without the call, then valid (as a string)
			calls(call("d2", "complete_task", map[string]any{"report": map[string]any{"SummaryOfFindings": "", "ExplorationTrace": []string{}}})),
			text("I am done"),
			calls(call("d3", "complete_task", map[string]any{"report": validReport})),
		}},
	}
	x := newSubEnv(t, s, nil, false)
	x.writeFile("p.go", "package p\nfunc parse() {}\n")
	sid, _ := x.turn("", "investigate parse")
	res := x.toolResults(sid)
	var rep subagent.Report
	if err := json.Unmarshal([]byte(strings.TrimPrefix(res["i1"], "ok: ")), &rep); err != nil || rep.RelevantLocations[0].FilePath != "p.go" {
		t.Fatalf("i1 %q: %v", res["i1"], err)
	}
	if !strings.HasPrefix(res["i2"], "ok: ") {
		t.Fatalf("i2 %q", res["i2"])
	}
	subReqs := s.reqs["codebase investigator"]
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
	for _, n := range s.offered["codebase investigator"] {
		if n == "write_file" || n == "edit" || n == "run_shell_command" || n == "investigate" {
			t.Fatalf("investigator offered %s", n)
		}
	}
	if !has(s.offered["codebase investigator"], "complete_task") {
		t.Fatal("complete_task not offered")
	}
	// The main agent received only the report: no sub-agent message is in
	// the main track.
	for _, m := range x.track(sid) {
		if m.ToolCallID == "g1" || strings.Contains(m.Content, "I am done") {
			t.Fatalf("sub-agent message leaked into the main track: %+v", m)
		}
	}
	// Child sessions hold the sub-agent's own history, hidden.
	page, err := x.e.Store.ListSessions(context.Background(), store.ListOptions{Limit: 50, IncludeHidden: true, ParentID: sid})
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
	for _, ev := range x.eventsOf(sid, KindToolCall) {
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
	s := &subScript{
		main: []scripted.Reply{
			calls(call("a1", "agent_reader", map[string]any{"objective": "read notes.txt"})),
			text("ok"),
		},
		sub: map[string][]scripted.Reply{"READER-AGENT": {
			calls(call("w1", "write_file", map[string]any{"filePath": "x.txt", "content": "x"}), call("r1", "read_file", map[string]any{"filePath": "notes.txt"})),
			text("notes say hello"),
		}},
	}
	x := newSubEnv(t, s, nil, true)
	x.writeFile("notes.txt", "hello\n")
	agents := filepath.Join(x.dir, ".govibe", "agents")
	writeAgent(t, agents, "reader.md", "---\nname: reader\ndescription: reads files\ntools: [read_file, list_files]\n---\nREADER-AGENT: you read files.\n")
	bad := writeAgent(t, agents, "bad.md", "---\nname: bad\ndescription: d\ntools: [read_file\n---\nbody\n")
	unknown := writeAgent(t, agents, "unknown.md", "---\nname: unk\ndescription: d\ntools: [read_file, launch_rockets]\n---\nbody\n")
	sid, _ := x.turn("", "use the reader")
	res := x.toolResults(sid)
	if res["a1"] != "ok: notes say hello" {
		t.Fatalf("a1 %q", res["a1"])
	}
	if _, err := os.Stat(filepath.Join(x.dir, "x.txt")); err == nil {
		t.Fatal("the custom agent wrote outside its allow-list")
	}
	offered := s.offered["READER-AGENT"]
	if strings.Join(offered, ",") != "read_file,list_files" {
		t.Fatalf("offered %v", offered)
	}
	// The refused call's result, as the sub-agent saw it.
	var refused string
	for _, m := range s.reqs["READER-AGENT"][1].Messages {
		if m.ToolCallID == "w1" {
			refused = m.Content
		}
	}
	if !strings.Contains(refused, `unknown tool "write_file"`) {
		t.Fatalf("write_file result %q", refused)
	}
	var notices []string
	for _, ev := range x.eventsOf(sid, KindNotice) {
		notices = append(notices, ev.Text)
	}
	all := strings.Join(notices, "\n")
	if !strings.Contains(all, bad+":") || !strings.Contains(all, unknown+":") || !strings.Contains(all, `unknown tool "launch_rockets"`) {
		t.Fatalf("problems not reported with their paths:\n%s", all)
	}
	if !has(s.offered["main"], "agent_reader") || has(s.offered["main"], "agent_bad") || has(s.offered["main"], "agent_unk") {
		t.Fatalf("main offered %v", s.offered["main"])
	}

	// Untrusted: the project agent is not loaded.
	s2 := &subScript{main: []scripted.Reply{text("hi")}, sub: map[string][]scripted.Reply{}}
	y := newSubEnv(t, s2, nil, false)
	writeAgent(t, filepath.Join(y.dir, ".govibe", "agents"), "reader.md", "---\nname: reader\ndescription: reads\ntools: [read_file]\n---\nbody\n")
	y.turn("", "hello")
	if has(s2.offered["main"], "agent_reader") {
		t.Fatal("project agent loaded in an untrusted workspace")
	}
}
