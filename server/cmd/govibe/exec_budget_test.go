package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// --max-tokens stops a headless run at the session budget with exit code
// 3 and a message naming the budget and how to go on; stream-json says
// each request's cache hit and, when it missed, why.
func TestExecBudgetExitsThreeAndStreamsCacheFigures(t *testing.T) {
	ws := gitRepo(t, map[string]string{"a.txt": "x\n"})
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		return scripted.Reply{Text: "answer", Usage: &scripted.Usage{PromptTokens: 2000, CompletionTokens: 10, CachedTokens: 1500, CacheFields: scripted.CacheFieldsDeepSeek}}
	})
	state, home := t.TempDir(), t.TempDir()
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + home}
	base := []string{"--workspace", ws, "--state-dir", state, "--base-url", model.URL(), "--model", "m", "--output", "stream-json", "--max-tokens", "3000"}

	out, errOut, code := runExec(t, env, append(base, "first")...)
	if code != 0 {
		t.Fatalf("first run exit %d\n%s\n%s", code, out, errOut)
	}
	var init map[string]any
	_ = json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &init)
	sid, _ := init["session_id"].(string)
	var usageLine map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["type"] == "usage" {
			usageLine = m
		}
	}
	if usageLine == nil {
		t.Fatalf("no usage line in\n%s", out)
	}
	u := usageLine["usage"].(map[string]any)
	if u["cached_tokens"] != float64(1500) || u["uncached_tokens"] != float64(500) || u["cache_hit"] != 0.75 || u["cost"] != nil {
		t.Fatalf("usage line %v: want 1500 cached, 500 uncached, 0.75 hit, no cost without prices", u)
	}
	res := lastResult(t, out)
	if su := res["session_usage"].(map[string]any); su["prompt_tokens"] != float64(2000) || su["cache_hit"] != 0.75 {
		t.Fatalf("session usage %v", su)
	}

	// 2,010 spent: the second run's request is still under 3,000.
	if _, _, code := runExec(t, env, append(base, "--session", sid, "second")...); code != 0 {
		t.Fatalf("second run exit %d", code)
	}
	// 4,020 spent: the third stops before sending anything.
	sent := len(model.Requests())
	out, errOut, code = runExec(t, env, append(base, "--session", sid, "third")...)
	if code != 3 {
		t.Fatalf("over budget: exit %d, want 3\n%s\n%s", code, out, errOut)
	}
	if len(model.Requests()) != sent {
		t.Fatal("a request was sent over the budget")
	}
	res = lastResult(t, out)
	if res["status"] != "budget" || !strings.Contains(out, "token budget of 3000 tokens") || !strings.Contains(out, "--max-tokens") {
		t.Fatalf("result %v\n%s", res, out)
	}
	if _, errOut, code := runExec(t, env, append(base, "--max-cost", "-1", "x")...); code != 2 || !strings.Contains(errOut, "must not be negative") {
		t.Fatalf("negative --max-cost: exit %d %s", code, errOut)
	}
}
