package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// The plan question of a headless run (the plan reviewer rejected the
// plan maxAttempts times): asked on the terminal when stdin is one,
// decided by --approve otherwise, with a line saying which.

// planQuestionModel plans one item; its plan reviewer always rejects.
func planQuestionModel(t *testing.T) *scripted.Server {
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		if len(r.Messages) > 0 && strings.HasPrefix(r.Messages[0].Content, "You review the plan") {
			return scripted.Reply{Text: `{"approved": false, "problems": [{"severity": "error", "message": "no test checks the fix"}], "suggestion": "add a test"}`}
		}
		switch who, step := r.SchedulerAgent(); {
		case who == "free" && step == 0:
			return reply("Planning.", "p1", "create_todo_list", `{"goal":"fix the bug","items":["fix the bug"]}`)
		case who == "free":
			return reply("No plan then.", "", "", "")
		case who == "executor:1":
			return reply("Fixed.", "", "", "")
		case who == "evaluator:1" && step == 0:
			return reply("", "c1", "complete_todo_item", `{"index":1,"summary":"checked"}`)
		}
		return reply("The plan is done.", "", "", "")
	})
	return model
}

var planQuestionSets = []string{"--set", "todolistReview.enabled=true", "--set", "todolistReview.maxAttempts=1"}

// planOutcome is the create_todo_list result the model got and whether an
// executor ran (the plan was used).
func planOutcome(t *testing.T, model *scripted.Server) (p1 string, executed bool) {
	t.Helper()
	for _, r := range model.Requests() {
		if who, _ := r.SchedulerAgent(); who == "executor:1" {
			executed = true
		}
		for _, m := range r.Messages {
			if m.Role == "tool" && m.ToolCallID == "p1" {
				p1 = m.Content
			}
		}
	}
	if p1 == "" {
		t.Fatal("the model never got create_todo_list's result")
	}
	return p1, executed
}

// TestExecPlanQuestionOnTheTerminal: under a real terminal (util-linux
// script gives exec a pty as stdin) the question, its plan and its
// choices are shown with a line saying the terminal decides, and the line
// typed decides, whatever --approve says: "1" uses the plan (its executor
// runs), "2" refuses it (the model is told).
func TestExecPlanQuestionOnTheTerminal(t *testing.T) {
	scriptBin, err := exec.LookPath("script")
	if err != nil {
		t.Skip("util-linux script is not installed")
	}
	for _, c := range []struct {
		name, approve, typed string
		used                 bool
	}{
		{"use", "none", "1\n", true},
		{"reject-despite-approve-all", "all", "2\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			model := planQuestionModel(t)
			ws := gitRepo(t, map[string]string{"a.txt": "x\n"})
			quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
			args := append([]string{quote(govibeBin), "exec", "--workspace", quote(ws), "--state-dir", quote(t.TempDir()),
				"--base-url", quote(model.URL()), "--model", "m", "--approve", c.approve}, planQuestionSets...)
			args = append(args, quote("make a plan to fix the bug"))
			cmd := exec.Command(scriptBin, "-qec", strings.Join(args, " "), "/dev/null")
			cmd.Env = append(os.Environ(), "GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME="+t.TempDir(), "SHELL=/bin/sh")
			cmd.Stdin = strings.NewReader(c.typed)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for _, want := range []string{"The plan reviewer did not approve this plan, so you decide here", "Use this plan anyway?", "no test checks the fix", "fix the bug", "1) Use this plan", "2) Reject it"} {
				if !strings.Contains(string(out), want) {
					t.Fatalf("the terminal does not show %q:\n%s", want, out)
				}
			}
			if strings.Contains(string(out), "no terminal can ask you") {
				t.Fatalf("the flag's line on a terminal:\n%s", out)
			}
			p1, executed := planOutcome(t, model)
			if executed != c.used {
				t.Fatalf("plan used %v, want %v; create_todo_list gave %q\n%s", executed, c.used, p1, out)
			}
			if !c.used && !strings.Contains(p1, "The user rejected the plan.") {
				t.Fatalf("the model was not told the user refused: %q", p1)
			}
		})
	}
}

// TestExecPlanQuestionWithoutTTY: with stdin not a terminal, --approve
// decides (all uses the plan, none does not) and a note says so; the
// model learns why a refused plan was not taken.
func TestExecPlanQuestionWithoutTTY(t *testing.T) {
	for _, c := range []struct {
		approve, note string
		used          bool
	}{
		{"all", "no terminal can ask you: --approve all uses it.", true},
		{"none", "no terminal can ask you: it is not used (--approve all would use it).", false},
	} {
		t.Run(c.approve, func(t *testing.T) {
			model := planQuestionModel(t)
			ws := gitRepo(t, map[string]string{"a.txt": "x\n"})
			args := append([]string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--approve", c.approve}, planQuestionSets...)
			out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()}, append(args, "make a plan to fix the bug")...)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			if !strings.Contains(out+errOut, "The plan reviewer did not approve this plan, and "+c.note) {
				t.Fatalf("no line says how the question was decided:\n%s\nstderr:\n%s", out, errOut)
			}
			if strings.Contains(out+errOut, "Use this plan anyway?") {
				t.Fatalf("asked without a terminal:\n%s\n%s", out, errOut)
			}
			p1, executed := planOutcome(t, model)
			if executed != c.used {
				t.Fatalf("plan used %v, want %v; create_todo_list gave %q", executed, c.used, p1)
			}
			if !c.used && !strings.Contains(p1, "this headless run cannot ask the user (use --approve all)") {
				t.Fatalf("the model was not told why: %q", p1)
			}
		})
	}
}
