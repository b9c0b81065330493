package evalsuite

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func taskNamed(t *testing.T, name string) Task {
	t.Helper()
	ts, err := Select(Tasks(), []string{name})
	if err != nil {
		t.Fatal(err)
	}
	return ts[0]
}

// agentFunc makes an Agent from a function that works on the workspace.
func agentFunc(f func(ws string) Transcript) Agent {
	return func(_ context.Context, r Run) (Transcript, error) { return f(r.Workspace), nil }
}

// An agent that does nothing fails every task that needs work, and the
// answer-only tasks fail on their answer: no checker passes by default.
func TestDoingNothingFailsEveryCheck(t *testing.T) {
	env := NewEnv()
	defer env.Close()
	rep, err := RunSuite(context.Background(), env, Tasks(), agentFunc(func(string) Transcript {
		return Transcript{Answer: "Done.", Status: "done"}
	}), Options{Repeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Pass || r.Reason == "" {
			t.Errorf("%s passed doing nothing (%q)", r.Task, r.Reason)
		}
	}
	if rep.Total.Runs != len(Tasks()) || rep.Total.Passed != 0 || rep.Total.PassRate != 0 {
		t.Fatalf("totals %+v", rep.Total)
	}
}

// Rewriting the long file with the right values still fails: the check
// wants two targeted edits, not a rewrite that reflows the file.
func TestLongFileRewriteFails(t *testing.T) {
	env := NewEnv()
	defer env.Close()
	rep, _ := RunSuite(context.Background(), env, []Task{taskNamed(t, "long-file")}, agentFunc(func(ws string) Transcript {
		src := stepsSource()
		src = strings.Replace(src, "// Step0420 returns 420.\nfunc Step0420() int { return 420 }", "// Step0420 returns 4200.\nfunc Step0420() int { return 4200 }", 1)
		src = strings.Replace(src, "// Step2290 returns 2290.\nfunc Step2290() int { return 2290 }", "// Step2290 returns 22900.\nfunc Step2290() int { return 22900 }", 1)
		// The rewrite drops every doc comment line's trailing period.
		src = strings.ReplaceAll(src, ".\nfunc", "\nfunc")
		_ = os.WriteFile(filepath.Join(ws, "steps.go"), []byte(src), 0o644)
		return Transcript{Status: "done"}
	}), Options{Repeat: 1})
	if r := rep.Results[0]; r.Pass || !strings.Contains(r.Reason, "two targeted edits") {
		t.Fatalf("a rewrite passed or failed for another reason: %+v", r)
	}
}

func TestCountsAndErrors(t *testing.T) {
	env := NewEnv()
	defer env.Close()
	agent := func(_ context.Context, r Run) (Transcript, error) {
		return Transcript{Rounds: 3, Usage: Usage{PromptTokens: 100, CachedTokens: 40, CompletionTokens: 7, Cost: 0.5},
			Calls: []ToolCall{{Name: "edit"}, {Name: "write_file", OK: true}, {Name: "run_shell_command", Refused: true}, {Name: "read_file"}}}, errors.New("provider down")
	}
	rep, err := RunSuite(context.Background(), env, []Task{taskNamed(t, "answer")}, agent, Options{Repeat: 2, Keep: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if _, err := os.Stat(filepath.Join(r.Workspace, ".git")); err != nil {
			t.Fatalf("Keep left no workspace: %+v", r)
		}
		os.RemoveAll(r.Workspace)
	}
	r := rep.Results[1]
	if r.Attempt != 2 || r.Pass || r.Reason != "run: provider down" || r.EditFailures != 1 || r.Refusals != 1 || r.ToolCalls != 4 {
		t.Fatalf("result %+v", r)
	}
	if tot := rep.Total; tot.Runs != 2 || tot.Rounds != 6 || tot.Usage.PromptTokens != 200 || tot.Usage.Cost != 1 || tot.EditFailures != 2 {
		t.Fatalf("totals %+v", tot)
	}
	var b bytes.Buffer
	if err := Table(&b, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"answer #2", "0/2", "provider down", "200"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	if _, err := RunSuite(context.Background(), env, Tasks(), agent, Options{Repeat: 0}); err == nil {
		t.Fatal("repeat 0 accepted")
	}
}

func TestSelect(t *testing.T) {
	got, err := Select(Tasks(), []string{"injection", " answer"})
	if err != nil || len(got) != 2 || got[0].Name != "answer" || got[1].Name != "injection" {
		t.Fatalf("%v %v", Names(got), err)
	}
	if _, err := Select(Tasks(), []string{"nope"}); err == nil || !strings.Contains(err.Error(), "fix-test") {
		t.Fatalf("unknown task: %v", err)
	}
	if _, err := Select(Tasks(), []string{""}); err == nil {
		t.Fatal("an empty list of names selected something")
	}
	if len(strings.Split(stepsSource(), "\n")) < 5000 {
		t.Fatal("steps.go is not 5,000 lines")
	}
}

// Untouched, each new task fails for the reason its checker names, not a
// fault of the setup: the generated file is what its generator makes,
// and the dirty tree's uncommitted work is there and intact.
func TestUntouchedTasksFailForTheirReason(t *testing.T) {
	env := NewEnv()
	defer env.Close()
	want := map[string]string{
		"generated": "Valid: teal false", "dirty-tree": "TestSlug", "plan-first": "no plan was proposed",
		"search": "want only routes/legacy_billing.go changed", "refactor": "undefined: store.ErrNotFound",
	}
	var tasks []Task
	for name := range want {
		tasks = append(tasks, taskNamed(t, name))
	}
	rep, err := RunSuite(context.Background(), env, tasks, agentFunc(func(ws string) Transcript {
		if files, _ := changedFiles(ws); strings.Contains(ws, "dirty-tree") && strings.Join(files, " ") != "NOTES-dana.md slug.go truncate.go" {
			t.Errorf("dirty-tree: git sees %v changed before the run", files)
		}
		return Transcript{Status: "done"}
	}), Options{Repeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Pass || !strings.Contains(r.Reason, want[r.Task]) {
			t.Errorf("%s: pass=%v, reason %q, want %q", r.Task, r.Pass, r.Reason, want[r.Task])
		}
	}
}

// The plan check orders the calls: an edit before the plan fails even
// when a plan follows.
func TestPlanFirstOrder(t *testing.T) {
	c := &CheckInput{Transcript: Transcript{Calls: []ToolCall{
		{Name: "read_file", OK: true}, {Name: "edit", OK: true}, {Name: toolCreatePlan, OK: true},
	}}}
	if err := planFirst.Check(c); err == nil || !strings.Contains(err.Error(), "before the plan was proposed") {
		t.Fatalf("edit before plan: %v", err)
	}
	c.Calls[1].OK = false // refused, as Plan mode refuses it: no edit happened
	c.Workspace = t.TempDir()
	if err := planFirst.Check(c); err == nil || strings.Contains(err.Error(), "before the plan") {
		t.Fatalf("a refused edit counted as an edit: %v", err)
	}
}
