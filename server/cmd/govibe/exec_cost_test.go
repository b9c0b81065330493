package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// priced is a profile with prices per million tokens: input 2, output 4.
const priced = `models=[{"name":"m","model":"m","priceInput":2,"priceOutput":4}]`

func costOf(u map[string]any) float64 {
	p, c := u["prompt_tokens"].(float64), u["completion_tokens"].(float64)
	return (p*2 + c*4) / 1e6
}

func lastResult(t *testing.T, out string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var res map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil || res["type"] != "result" {
		t.Fatalf("last line is not a result: %q (%v)", lines[len(lines)-1], err)
	}
	return res
}

// TestExecCostSurvivesTheTurn: the cost of every request is fixed at the
// profile's prices when it is made and kept with the usage: in exec's
// results (stream-json and json), in the stored messages and in the
// session list, and /compact reports the request it made.
func TestExecCostSurvivesTheTurn(t *testing.T) {
	ws := gitRepo(t, map[string]string{"a.txt": "x\n"})
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		if compact.IsInstruction(r.LastUserMessage()) {
			return scripted.Reply{Text: "<state_snapshot>\n<overall_goal>parser</overall_goal>\n</state_snapshot>", ChunkSize: 64,
				Usage: &scripted.Usage{PromptTokens: 3000, CompletionTokens: 100}}
		}
		return scripted.Reply{Text: strings.Repeat(fmt.Sprintf("answer %d with some detail about the parser and its failure. ", len(r.Messages)), 40), ChunkSize: 200,
			Usage: &scripted.Usage{PromptTokens: 1000, CompletionTokens: 500}}
	})
	state, home := t.TempDir(), t.TempDir()
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + home}
	base := []string{"--workspace", ws, "--state-dir", state, "--base-url", model.URL(), "--model", "m", "--set", priced, "--set", "compact.keepTokens=100"}
	run := func(output, session, prompt string) string {
		t.Helper()
		args := append(append([]string{}, base...), "--output", output)
		if session != "" {
			args = append(args, "--session", session)
		}
		out, errOut, code := runExec(t, env, append(args, prompt)...)
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		return out
	}
	out := run("stream-json", "", "step 0: look at the parser, it fails on a long and detailed input")

	var init map[string]any
	json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &init)
	sid := init["session_id"].(string)
	res := lastResult(t, out)
	u := res["usage"].(map[string]any)
	if want := (1000*2 + 500*4) / 1e6; math.Abs(u["cost"].(float64)-want) > 1e-12 {
		t.Fatalf("stream-json result cost %v, want %v: %v", u["cost"], want, u)
	}
	for i := 1; i < 5; i++ {
		jout := run("json", sid, fmt.Sprintf("step %d: more work on the parser with another long explanation", i))
		var r map[string]any
		if err := json.Unmarshal([]byte(jout), &r); err != nil {
			t.Fatal(err)
		}
		if u := r["usage"].(map[string]any); u["cost"].(float64) <= 0 || math.Abs(u["cost"].(float64)-costOf(u)) > 1e-12 {
			t.Fatalf("json result usage %v", u)
		}
	}

	// /compact made a request: its usage and cost are reported.
	cout := run("stream-json", sid, "/compact")
	res = lastResult(t, cout)
	if u := res["usage"].(map[string]any); u["prompt_tokens"].(float64) != 3000 || math.Abs(u["cost"].(float64)-costOf(u)) > 1e-12 {
		t.Fatalf("/compact result %v\n%s", res, cout)
	}

	// The stored messages keep their cost (what session/load returns).
	show := exec.Command(govibeBin, "session", "show", sid, "--workspace", ws, "--state-dir", state, "--json")
	show.Env = append(show.Environ(), env...)
	b, err := show.Output()
	if err != nil {
		t.Fatalf("session show: %v", err)
	}
	var shown struct {
		Messages []struct {
			Role  string         `json:"role"`
			Usage map[string]any `json:"usage"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(b, &shown); err != nil {
		t.Fatalf("session show: %v\n%s", err, b)
	}
	priced := 0
	for _, m := range shown.Messages {
		if m.Role == "assistant" && m.Usage != nil {
			if c, _ := m.Usage["cost"].(float64); c <= 0 {
				t.Fatalf("assistant message without cost: %v", m.Usage)
			}
			priced++
		}
	}
	if priced != 5 {
		t.Fatalf("%d priced assistant messages, want 5", priced)
	}

	// The history list carries the session's total.
	list := exec.Command(govibeBin, "session", "list", "--workspace", ws, "--state-dir", state, "--json")
	list.Env = append(list.Environ(), env...)
	if b, err = list.Output(); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(b, &rows); err != nil || len(rows) != 1 {
		t.Fatalf("session list: %s (%v)", b, err)
	}
	want := 5*(1000*2+500*4)/1e6 + (3000*2+100*4)/1e6
	if c, _ := rows[0]["cost"].(float64); math.Abs(c-want) > 1e-9 {
		t.Fatalf("session list cost %v, want %v", rows[0]["cost"], want)
	}
}
