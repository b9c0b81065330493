package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/evalsuite"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

var releasesURL = regexp.MustCompile(`http://[^\s]+/releases`)

// evalHandler answers each request with the next step of its task's
// script. A plan's agents have scripts of their own, keyed "TASK TAG"
// (TAG from the step prompt, "[executor:1] …", or "scheduler" for the
// closing "[scheduler] …"); their steps count from that prompt on.
func evalHandler(t *testing.T, solutions func(url string) map[string][]evalStep) func(*scripted.RecordedRequest) scripted.Reply {
	var mu sync.Mutex
	ids := 0
	return func(r *scripted.RecordedRequest) scripted.Reply {
		mu.Lock()
		defer mu.Unlock()
		var user, phase string
		step := 0
		for _, m := range r.Messages {
			switch m.Role {
			case "user":
				if user == "" {
					user = m.Content
				} else if tag, ok := stepTag(m.Content); ok {
					phase, step = tag, 0
				}
			case "assistant":
				step++
			}
		}
		for task, marker := range taskPrompts {
			if !strings.Contains(user, marker) {
				continue
			}
			key := task
			if phase != "" {
				key += " " + phase
			}
			steps := solutions(releasesURL.FindString(user))[key]
			if step >= len(steps) {
				return scripted.Reply{Text: "(no more script)"}
			}
			s := steps[step]
			rep := scripted.Reply{Text: s.text}
			for _, c := range s.calls {
				ids++
				rep.ToolCalls = append(rep.ToolCalls, scripted.ToolCall{ID: fmt.Sprintf("c%d", ids), Name: c[0], Arguments: c[1]})
			}
			return rep
		}
		t.Errorf("request for no known task: %.200q", user)
		return scripted.Reply{Text: "?"}
	}
}

// stepTag is the agent tag a plan's step prompt opens with ("[executor:1]
// You are…"); a summary of a finished agent ("[executor:1 finished…]")
// is not a prompt.
func stepTag(content string) (string, bool) {
	rest, ok := strings.CutPrefix(content, "[")
	if !ok {
		return "", false
	}
	tag, _, ok := strings.Cut(rest, "]")
	if !ok || tag == "" || strings.ContainsAny(tag, " \n") {
		return "", false
	}
	return tag, true
}

func runEval(t *testing.T, model *scripted.Server, args ...string) (evalsuite.Report, string, int) {
	t.Helper()
	cmd := exec.Command(govibeBin, append([]string{"eval", "--base-url", model.URL(), "--model", "scripted", "--json"}, args...)...)
	cmd.Env = append(os.Environ(), append([]string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(),
		"XDG_CONFIG_HOME=" + t.TempDir(), "GOFLAGS=-mod=mod"}, goCaches(t)...)...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var rep evalsuite.Report
	if err := json.Unmarshal(o.Bytes(), &rep); err != nil {
		t.Fatalf("stdout is not a JSON report (%v):\n%s\nstderr:\n%s", err, o.String(), e.String())
	}
	return rep, e.String(), code
}

// TestEvalScriptedSolutionsPass: every task's right solution passes its
// checker, and the report counts rounds and tokens.
func TestEvalScriptedSolutionsPass(t *testing.T) {
	model := scripted.Start(t)
	model.SetHandler(evalHandler(t, func(url string) map[string][]evalStep { r, _ := evalSolutions(url); return r }))
	rep, errOut, code := runEval(t, model)
	if code != 0 || rep.Total.Passed != len(evalsuite.Tasks()) || rep.Total.Runs != rep.Total.Passed {
		t.Fatalf("exit %d, %+v\nstderr:\n%s", code, rep.Results, errOut)
	}
	rounds := map[string]int{"fix-test": 2, "rename": 2, "add-flag": 2, "answer": 1, "long-file": 4, "precondition": 2, "injection": 1,
		"plan-first": 6, "refactor": 2, "search": 3, "dirty-tree": 2, "generated": 3}
	// Each task makes the calls its script makes: the deferred web_fetch,
	// run through more_tools, no more often than a direct call.
	right, _ := evalSolutions("")
	scriptedCalls := map[string]int{}
	for key, steps := range right {
		task, _, _ := strings.Cut(key, " ")
		for _, s := range steps {
			scriptedCalls[task] += len(s.calls)
		}
	}
	for _, r := range rep.Results {
		if r.Rounds != rounds[r.Task] || r.ToolCalls != scriptedCalls[r.Task] {
			t.Errorf("%s: %d tool rounds and %d calls, want %d and %d", r.Task, r.Rounds, r.ToolCalls, rounds[r.Task], scriptedCalls[r.Task])
		}
		if r.Usage.PromptTokens == 0 || r.Usage.CompletionTokens == 0 {
			t.Errorf("%s: no tokens counted: %+v", r.Task, r.Usage)
		}
	}
	if v := model.Violations(); len(v) > 0 {
		t.Fatalf("tool-call invariant violated: %v", v)
	}

	// Without --json: the table, one row per task and the total.
	cmd := exec.Command(govibeBin, "eval", "--base-url", model.URL(), "--model", "scripted", "--tasks", "answer", "--repeat", "2")
	cmd.Env = append(os.Environ(), "GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"model scripted, govibe ", "answer #2", "completion"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`(?m)^\s*total\s+2/2\s+2\s+0\s+0\s+[1-9]`).Match(out) {
		t.Errorf("no total row with 2/2 passed, 2 rounds and tokens:\n%s", out)
	}
}

// TestEvalWrongSolutionsFail: a wrong solution fails its checker, for the
// reason that checker exists, and the exit code says so.
func TestEvalWrongSolutionsFail(t *testing.T) {
	model := scripted.Start(t)
	model.SetHandler(evalHandler(t, func(url string) map[string][]evalStep { _, w := evalSolutions(url); return w }))
	_, wrong := evalSolutions("")
	var names []string
	for _, task := range evalsuite.Names(evalsuite.Tasks()) {
		if wrong[task] != nil {
			names = append(names, task)
		}
	}
	rep, errOut, code := runEval(t, model, "--tasks", strings.Join(names, ","))
	if code != 1 || rep.Total.Passed != 0 || rep.Total.Runs != len(names) || len(names) < 10 {
		t.Fatalf("exit %d, %+v\nstderr:\n%s", code, rep.Results, errOut)
	}
	want := map[string]string{
		"fix-test": "calc_test.go was changed", "add-flag": "no test was added", "answer": "does not name port 8743",
		"precondition": "files changed: config/db.yaml", "injection": "PWNED.txt exists",
		"plan-first": "no plan was proposed", "refactor": "go vet fails", "search": "serves any format",
		"dirty-tree": "Initials function was removed", "generated": "edited by hand",
	}
	for _, r := range rep.Results {
		if r.Pass || !strings.Contains(r.Reason, want[r.Task]) {
			t.Errorf("%s: pass=%v reason %q, want %q", r.Task, r.Pass, r.Reason, want[r.Task])
		}
		if refusals := map[string]int{"precondition": 1}[r.Task]; r.Refusals != refusals {
			t.Errorf("%s: %d refusals, want %d", r.Task, r.Refusals, refusals)
		}
	}
}

func TestEvalUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--tasks", "nope"}, `unknown task "nope"`},
		{[]string{"--repeat", "0"}, "must be positive"},
		{[]string{"extra"}, "unexpected argument"},
	} {
		cmd := exec.Command(govibeBin, append([]string{"eval"}, tt.args...)...)
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), tt.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tt.args, cmd.ProcessState.ExitCode(), out, tt.want)
		}
	}
}
