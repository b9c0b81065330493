package scheduler

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/gate/shellcheck"
)

func mustCreate(t *testing.T, raw string) CreateArgs {
	t.Helper()
	a, err := ParseCreate(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestParseCreate(t *testing.T) {
	a := mustCreate(t, `{"goal":" g ","items":["A",{"title":"B","description":"d","acceptance":"go test"}],"expandIndex":2}`)
	if a.Goal != "g" || len(a.Items) != 2 || a.Items[0].Title != "A" || a.Items[1].Acceptance != "go test" || a.ExpandIndex != 2 {
		t.Fatalf("%+v", a)
	}
	for raw, want := range map[string]string{
		`{"items":["A"]}`:                                   "goal is required",
		`{"goal":"g"}`:                                      "items is required",
		`{"goal":"g","items":[]}`:                           "items is required",
		`{"goal":"g","items":[""]}`:                         "items[0]: an item's title must not be empty",
		`{"goal":"g","items":[{"description":"x"}]}`:        "items[0]: title is required",
		`{"goal":"g","items":[{"title":"x","owner":"me"}]}`: `unknown field "owner"`,
		`{"goal":"g","items":[3]}`:                          "items[0]",
		`{"goal":"g","items":["A"],"expandIndex":0}`:        "expandIndex 0",
		`{"goal":"g","items":["A"],"extra":1}`:              `unknown field "extra"`,
		`not json`:                                          "invalid arguments",
	} {
		if _, err := ParseCreate(json.RawMessage(raw)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
	many := `{"goal":"g","items":[` + strings.Repeat(`"x",`, MaxItems) + `"x"]}`
	if _, err := ParseCreate(json.RawMessage(many)); err == nil || !strings.Contains(err.Error(), "too many items") {
		t.Fatalf("too many: %v", err)
	}
	if _, err := ParseComplete(json.RawMessage(`{"summary":"s"}`)); err == nil {
		t.Fatal("complete without index or title accepted")
	}
}

func newPlan(t *testing.T, titles ...string) *Plan {
	t.Helper()
	var items []Item
	for _, s := range titles {
		items = append(items, Item{Title: s})
	}
	p, _, err := (*Plan)(nil).Create(RoleFree, CreateArgs{Goal: "g", Items: items})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The state machine: executor, evaluator, send back, fail, done, final.
func TestPlanMachine(t *testing.T) {
	lim := Limits{MaxRetries: 1}.Normalized()
	p := newPlan(t, "A", "B")
	s := p.Advance()
	if s.Kind != StepAgent || s.Role != RoleExecutor || s.Index != 0 || s.Tag() != "executor:1" {
		t.Fatalf("first step %+v", s)
	}
	p.BeginAgent(s, 5, "prompt")
	if p.Items[0].Attempts != 1 || p.Items[0].Status != Running || p.AgentStart != 5 {
		t.Fatalf("%+v", p)
	}
	// Executors cannot complete.
	if _, err := p.Complete(RoleExecutor, CompleteArgs{Index: 1}); err == nil {
		t.Fatal("executor completed an item")
	}
	p.ExecutorFinished()
	s = p.Advance()
	if s.Role != RoleEvaluator || s.Index != 0 || s.Resume {
		t.Fatalf("evaluator step %+v", s)
	}
	p.BeginAgent(s, 6, "eval")
	// Not the current item: refused.
	if _, err := p.Complete(RoleEvaluator, CompleteArgs{Index: 2}); err == nil || !strings.Contains(err.Error(), "not the item in progress") {
		t.Fatalf("completing another item: %v", err)
	}
	if _, err := p.Complete(RoleEvaluator, CompleteArgs{Title: "Zed"}); err == nil {
		t.Fatal("unknown title accepted")
	}
	if v := p.EvaluatorFinished("broken", lim); v.Outcome != "retry" || p.Items[0].Findings != "broken" || p.Items[0].Status != Pending {
		t.Fatalf("send back %+v %+v", v, p.Items[0])
	}
	s = p.Advance()
	if s.Role != RoleExecutor || s.Index != 0 {
		t.Fatalf("retry %+v", s)
	}
	p.BeginAgent(s, 7, "again")
	if !strings.Contains(ExecutorPrompt(p, 0), "") || p.Items[0].Attempts != 2 {
		t.Fatalf("attempts %d", p.Items[0].Attempts)
	}
	p.ExecutorFinished()
	p.BeginAgent(p.Advance(), 8, "eval2")
	if v := p.EvaluatorFinished("", lim); v.Outcome != "failed" || p.Items[0].Status != Failed {
		t.Fatalf("exhausted %+v %+v", v, p.Items[0])
	}
	s = p.Advance()
	if s.Index != 1 || s.Role != RoleExecutor {
		t.Fatalf("next item %+v", s)
	}
	p.BeginAgent(s, 9, "b")
	p.ExecutorFinished()
	p.BeginAgent(p.Advance(), 10, "eb")
	if _, err := p.Complete(RoleEvaluator, CompleteArgs{Index: 2, Summary: "fine"}); err != nil {
		t.Fatal(err)
	}
	if v := p.EvaluatorFinished("done", lim); v.Outcome != "done" || v.Findings != "fine" {
		t.Fatalf("%+v", v)
	}
	if s := p.Advance(); s.Kind != StepFinal {
		t.Fatalf("final %+v", s)
	}
	p.FinalDone()
	if s := p.Advance(); s.Kind != StepNone || p.Phase != PhaseFree || p.Remaining() != 0 {
		t.Fatalf("after final %+v %+v", s, p)
	}
}

// Interrupt keeps the agent, so Advance resumes it.
func TestPlanInterruptResumes(t *testing.T) {
	p := newPlan(t, "A")
	s := p.Advance()
	p.BeginAgent(s, 3, "x")
	p.Interrupt()
	if !p.Interrupted() {
		t.Fatal("not interrupted")
	}
	r := p.Advance()
	if !r.Resume || r.Role != RoleExecutor || r.Index != 0 {
		t.Fatalf("%+v", r)
	}
	p.BeginAgent(r, 3, "x")
	if p.Items[0].Attempts != 1 {
		t.Fatalf("a resume counted as a new attempt: %d", p.Items[0].Attempts)
	}
}

// Evaluator plan changes: expand the current item, replace the tail
// (insert, drop), never touch finished items.
func TestPlanChanges(t *testing.T) {
	p := newPlan(t, "A", "B", "C")
	p.BeginAgent(p.Advance(), 1, "a")
	p.ExecutorFinished()
	p.BeginAgent(p.Advance(), 2, "e")
	q, msg, err := p.Create(RoleEvaluator, CreateArgs{Goal: "g", Items: []Item{{Title: "B"}, {Title: "D"}}})
	if err != nil || msg != `Plan changed: inserted "D"; dropped "C".` {
		t.Fatalf("%q %v", msg, err)
	}
	if titles(q) != "A B D" {
		t.Fatalf("items %s", titles(q))
	}
	q2, _, err := q.Create(RoleEvaluator, CreateArgs{Items: []Item{{Title: "A1"}, {Title: "A2"}}, ExpandIndex: 1})
	if err != nil || titles(q2) != "A1 A2 B D" || !q2.Replaced {
		t.Fatalf("expand %s %v", titles(q2), err)
	}
	if _, err := q2.Complete(RoleEvaluator, CompleteArgs{Index: 1}); err == nil {
		t.Fatal("completed an item after expanding the current one")
	}
	if v := q2.EvaluatorFinished("split", Limits{}); v.Outcome != "replanned" {
		t.Fatalf("%+v", v)
	}
	if s := q2.Advance(); s.Index != 0 || q2.Items[0].Title != "A1" {
		t.Fatalf("after expand %+v", s)
	}
	// Finished items cannot be expanded; the executor cannot change plans.
	q2.Items[0].Status = Done
	if _, _, err := q2.Create(RoleEvaluator, CreateArgs{Items: []Item{{Title: "x"}}, ExpandIndex: 1}); err == nil {
		t.Fatal("expanded a done item")
	}
	if _, _, err := q2.Create(RoleExecutor, CreateArgs{Goal: "g", Items: []Item{{Title: "x"}}}); err == nil {
		t.Fatal("executor changed the plan")
	}
	if _, _, err := q2.Create(RoleEvaluator, CreateArgs{Items: []Item{{Title: "x"}}, ExpandIndex: 99}); err == nil {
		t.Fatal("out-of-range expand accepted")
	}
}

func titles(p *Plan) string {
	var out []string
	for _, it := range p.Items {
		out = append(out, it.Title)
	}
	return strings.Join(out, " ")
}

// Which role may use which tool is toolpolicy's (TestRoles there); an
// evaluator's commands are checked here.
func TestPolicy(t *testing.T) {
	ws := shellcheck.Workspace{Roots: []string{t.TempDir()}}
	for cmd, ok := range map[string]bool{"go test ./...": true, "git status": true, "cat a.txt": true, "rm -rf x": false, "touch a": false, "echo x > f": false} {
		if got, why := EvaluatorMayRun(cmd, ws); got != ok || (!ok && why == "") {
			t.Errorf("%q: %v %q", cmd, got, why)
		}
	}
}

func TestSummaries(t *testing.T) {
	p := newPlan(t, "A")
	p.BeginAgent(p.Advance(), 0, "x")
	act := NewActivity(func(n string) bool { return n == "write_file" || n == "edit" || n == "delete_file" })
	act.Record("write_file", `{"filePath":"a.txt"}`, true, []byte(`{"path":"/w/a.txt"}`))
	act.Record("edit", `{"filePath":"b.txt"}`, false, nil) // refused: not a change
	act.Record("delete_file", `{"filePath":"c.txt"}`, true, nil)
	act.Record("run_shell_command", `{"command":"go test"}`, false, []byte(`{"command":"go test","exitCode":1}`))
	act.Record("run_shell_command", `{"command":"rm x"}`, false, nil)
	act.Record("read_file", `{}`, true, nil)
	m := ExecutorSummary(p, 0, "did it", act, "")
	want := "[executor:1 finished item 1/1 \"A\", attempt 1]\nFinal reply:\ndid it\nFiles changed: /w/a.txt, c.txt\nCommands run:\n- go test (exit 1)\n- rm x (not run)\nTool calls: 6"
	if m.Content != want {
		t.Fatalf("got\n%s\nwant\n%s", m.Content, want)
	}
	e := EvaluatorSummary(p, 0, "A", Verdict{Outcome: "retry", Findings: "tests fail", Changes: []string{`inserted "B"`}}, "")
	if e.Content != "[evaluator:1 evaluated item 1 \"A\"]\nVerdict: not done, sent back to the executor. Findings: tests fail\nPlan changed: inserted \"B\"" {
		t.Fatalf("%s", e.Content)
	}
}
