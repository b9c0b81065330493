package sessioncompact_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

// keptRun is an editor-side engine (confirmations go to a person, here
// the test) on a scripted model: main replies come from main in order,
// compaction requests get a snapshot.
type keptRun struct {
	t        *testing.T
	e        *engine.Engine
	model    *scripted.Server
	dir      string
	confirms chan approval.Confirm

	mu   sync.Mutex
	main []scripted.Reply
	n    int
}

const keptGoal = "GOAL-7731: port the tokenizer to Go and keep the old command-line flags working."

func (k *keptRun) handle(r *scripted.RecordedRequest) scripted.Reply {
	if enginetest.IsCompactionRequest(r) {
		return scripted.Reply{Text: enginetest.SnapshotReply(40)}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.n++
	if k.n-1 < len(k.main) {
		return k.main[k.n-1]
	}
	return scripted.Reply{Text: "done"}
}

func newKeptRun(t *testing.T, window int, more config.Values) *keptRun {
	t.Helper()
	k := &keptRun{t: t, model: scripted.Start(t), dir: t.TempDir(), confirms: make(chan approval.Confirm, 16)}
	k.model.SetHandler(k.handle)
	v := config.Values{"apiBaseUrl": k.model.URL(), "model": "scripted-model", "maxOutputTokens": float64(2000),
		"snapshots.enabled": false, "compact.keepTokens": float64(400)}
	if window > 0 {
		v["contextWindow"] = float64(window)
	}
	for key, val := range more {
		v[key] = val
	}
	t.Setenv("HOME", t.TempDir())
	e, err := engine.New(engine.Options{Roots: []string{k.dir}, StateDir: t.TempDir(), Settings: v, APIKeys: map[string]string{"": "sk-test"},
		HostInfo: engine.HostInfo{OS: "linux", Shell: "bash"}, OnConfirm: func(c approval.Confirm) { k.confirms <- c }})
	if err != nil {
		t.Fatal(err)
	}
	k.e = e
	t.Cleanup(func() { _ = e.Close() })
	return k
}

// write puts a workspace file of about tokens tokens (lines of prose).
func (k *keptRun) write(name string, tokens int, seed uint64) {
	var b strings.Builder
	for est := compact.Default(); est.Text(b.String()) < tokens; seed++ {
		b.WriteString(enginetest.Prose(12, seed) + "\n")
	}
	if err := os.WriteFile(filepath.Join(k.dir, name), []byte(b.String()), 0o644); err != nil {
		k.t.Fatal(err)
	}
}

func (k *keptRun) confirm() approval.Confirm {
	k.t.Helper()
	select {
	case c := <-k.confirms:
		return c
	case <-time.After(30 * time.Second):
		k.t.Fatal("no confirmation was asked")
	}
	return approval.Confirm{}
}

// mainRequests are the recorded requests of the main agent (not the
// summary requests), with the index of each compaction request among
// them: compactions[i] main requests were sent before compaction i.
func (k *keptRun) mainRequests() (main []scripted.RecordedRequest, compactions []int) {
	for _, r := range k.model.Requests() {
		if enginetest.IsCompactionRequest(&r) {
			compactions = append(compactions, len(main))
			continue
		}
		main = append(main, r)
	}
	return main, compactions
}

// A session that compacts twice in the middle of one task: every request
// after each compaction still carries the user's request, the todo list
// as it stands and each decision the user made, word for word, after the
// summary; the system prompt and tools stay byte for byte. With
// compact.askToContinue each automatic compaction waits for the user's
// "Continue" before the next request.
func TestTwoCompactionsKeepTheTask(t *testing.T) {
	probe := newKeptRun(t, 0, nil)
	system, defs := probe.e.Compaction.Prefix(context.Background(), "")
	base := compact.Default().Request(system, defs, nil)
	window := int(float64(base+5000) / 0.7)

	k := newKeptRun(t, window, config.Values{"compact.askToContinue": true})
	k.write("big1.txt", 3000, 1)
	k.write("big2.txt", 3000, 2000)
	k.write("big3.txt", 3000, 4000)
	k.main = []scripted.Reply{
		enginetest.Calls(enginetest.Call("w1", "write_file", map[string]string{"filePath": "a.go", "content": "package a\n"})),
		enginetest.Calls(enginetest.Call("r1", "read_file", map[string]string{"filePath": "big1.txt"})),
		enginetest.Calls(enginetest.Call("q1", "ask_human", map[string]string{"question": "Which Go version should the port target?"})),
		enginetest.Calls(enginetest.Call("r2", "read_file", map[string]string{"filePath": "big2.txt"})),
		enginetest.Calls(enginetest.Call("w2", "write_file", map[string]string{"filePath": "b.go", "content": "package b\n"})),
		enginetest.Calls(enginetest.Call("r3", "read_file", map[string]string{"filePath": "big3.txt"})),
		enginetest.Text("Done: the tokenizer is ported."),
	}
	ctx := context.Background()
	sid, _, err := k.e.Send(ctx, engine.SendParams{Text: keptGoal})
	if err != nil {
		t.Fatal(err)
	}
	plan := scheduler.Plan{Goal: "Port the tokenizer", Current: -1, Phase: scheduler.PhaseFree, AgentStart: -1, Items: []scheduler.Item{
		{Title: "Read the C tokenizer", Status: scheduler.Done},
		{Title: "Write tokenizer.go", Status: scheduler.Running},
		{Title: "Keep the CLI flags", Status: scheduler.Pending},
	}}
	if err := sessionstate.Set(ctx, k.e.Store, sid, scheduler.TodoPlanKey, plan); err != nil {
		t.Fatal(err)
	}

	// Decision 1: the edit of a.go is rejected, with a reason.
	c := k.confirm()
	if c.Kind != "edit" || !strings.HasSuffix(c.Path, "a.go") {
		t.Fatalf("first confirmation %+v", c)
	}
	must(t, k.e.Broker.Resolve(c.ID, approval.Answer{Accept: false, Reason: "reuse the existing scanner package"}))
	// Decision 2: ask_human is answered.
	c = k.confirm()
	if c.Kind != "question" || c.ToolCallID != "q1" {
		t.Fatalf("second confirmation %+v", c)
	}
	must(t, k.e.Broker.Resolve(c.ID, approval.Answer{Accept: true, Answer: "Go 1.22, no generics tricks", Reason: approval.ReasonDone}))
	// The first automatic compaction asks before the next request.
	continueAfterCompaction(t, k, 1)
	// Decision 3: the edit of b.go is approved; meanwhile item 2 is done.
	c = k.confirm()
	if c.Kind != "edit" || !strings.HasSuffix(c.Path, "b.go") {
		t.Fatalf("third confirmation %+v", c)
	}
	plan.Items[1].Status, plan.Items[2].Status = scheduler.Done, scheduler.Running
	must(t, sessionstate.Set(ctx, k.e.Store, sid, scheduler.TodoPlanKey, plan))
	must(t, k.e.Broker.Resolve(c.ID, approval.Answer{Accept: true, Reason: "matches the style guide"}))
	continueAfterCompaction(t, k, 2)
	if st := k.e.Wait(sid); st != "done" {
		t.Fatalf("turn ended %q", st)
	}

	main, compactions := k.mainRequests()
	if len(compactions) != 2 {
		t.Fatalf("%d compactions (before main requests %v), want 2", len(compactions), compactions)
	}
	rejected := `Rejected the edit of a.go (reason: "reuse the existing scanner package")`
	answered := `Asked "Which Go version should the port target?", the user answered: "Go 1.22, no generics tricks"`
	approved := `Approved the edit of b.go (reason: "matches the style guide")`
	want := [][]string{
		{"<current_request>\n" + keptGoal + "\n</current_request>", "1. [done] Read the C tokenizer", "2. [running] Write tokenizer.go",
			"3. [pending] Keep the CLI flags", rejected, answered},
		{"<current_request>\n" + keptGoal + "\n</current_request>", "1. [done] Read the C tokenizer", "2. [done] Write tokenizer.go",
			"3. [running] Keep the CLI flags", rejected, answered, approved},
	}
	for i, at := range compactions {
		if at == 0 || at >= len(main) {
			t.Fatalf("compaction %d came before main request %d of %d", i+1, at, len(main))
		}
		before, after := main[at-1], main[at]
		raw := enginetest.RawMessages(t, after)
		var summary struct {
			Role, Content string
		}
		must(t, json.Unmarshal([]byte(raw[1]), &summary))
		if summary.Role != "user" || !strings.HasPrefix(summary.Content, compact.SummaryPrefix) {
			t.Fatalf("request after compaction %d does not start with the summary: %.200q", i+1, summary.Content)
		}
		snap, kept := strings.Index(summary.Content, "</state_snapshot>"), strings.Index(summary.Content, "<kept_verbatim>")
		if snap < 0 || kept < snap {
			t.Fatalf("compaction %d: the kept block must follow the summary:\n%s", i+1, summary.Content)
		}
		for _, w := range want[i] {
			if !strings.Contains(summary.Content[kept:], w) {
				t.Errorf("request after compaction %d lacks %q in:\n%s", i+1, w, summary.Content[kept:])
			}
		}
		if i == 0 && strings.Contains(summary.Content, approved) {
			t.Errorf("compaction 1 names a decision not yet made")
		}
		// The prefix stays byte for byte: system prompt and tools.
		if enginetest.RawMessages(t, before)[0] != raw[0] || enginetest.RawTools(t, before) != enginetest.RawTools(t, after) {
			t.Errorf("compaction %d changed the system prompt or the tools", i+1)
		}
	}
	// The records (and so a reloaded divider) name what was summarised
	// and kept.
	for _, r := range k.e.Compaction.Records(ctx, sid) {
		if r.Kept == nil || !r.Kept.Request || r.Kept.Todos != 3 || r.Kept.Decisions < 2 || r.Messages == 0 {
			t.Errorf("compaction record %+v", r)
		}
	}
	if v := k.model.Violations(); len(v) > 0 {
		t.Fatal(v)
	}
}

// continueAfterCompaction answers the card asked after compaction n:
// nothing was sent to the model since the compaction.
func continueAfterCompaction(t *testing.T, k *keptRun, n int) {
	t.Helper()
	c := k.confirm()
	if c.Kind != "question" || c.ToolCallID != "" || !strings.HasPrefix(c.Question, "Context was compacted — continue?") ||
		!strings.Contains(c.Question, "kept word for word: your request, the todo list") {
		t.Fatalf("after compaction %d: confirmation %+v", n, c)
	}
	main, compactions := k.mainRequests()
	if len(compactions) != n || compactions[n-1] != len(main) {
		t.Fatalf("the card for compaction %d came after a model request (compactions %v, %d main requests)", n, compactions, len(main))
	}
	must(t, k.e.Broker.Resolve(c.ID, approval.Answer{Accept: true, Answer: "Continue"}))
}

// Stop on the card ends the turn where it is: cancelled, nothing more is
// sent, and no error is shown.
func TestStopAfterCompactionEndsTheTurn(t *testing.T) {
	probe := newKeptRun(t, 0, nil)
	system, defs := probe.e.Compaction.Prefix(context.Background(), "")
	window := int(float64(compact.Default().Request(system, defs, nil)+3000) / 0.7)
	k := newKeptRun(t, window, config.Values{"compact.askToContinue": true})
	k.write("big1.txt", 2500, 1)
	k.write("big2.txt", 2500, 2000)
	k.main = []scripted.Reply{
		enginetest.Calls(enginetest.Call("r1", "read_file", map[string]string{"filePath": "big1.txt"})),
		enginetest.Calls(enginetest.Call("r2", "read_file", map[string]string{"filePath": "big2.txt"})),
		enginetest.Text("never sent"),
	}
	sid, _, err := k.e.Send(context.Background(), engine.SendParams{Text: keptGoal})
	if err != nil {
		t.Fatal(err)
	}
	c := k.confirm()
	main, compactions := k.mainRequests()
	if !strings.HasPrefix(c.Question, "Context was compacted — continue?") || len(compactions) != 1 {
		t.Fatalf("confirmation %+v after %d compactions", c, len(compactions))
	}
	must(t, k.e.Broker.Resolve(c.ID, approval.Answer{Accept: true, Answer: "Stop"}))
	if st := k.e.Wait(sid); st != "cancelled" {
		t.Fatalf("turn ended %q, want cancelled", st)
	}
	if after, _ := k.mainRequests(); len(after) != len(main) {
		t.Fatalf("%d requests were sent after Stop", len(after)-len(main))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
