package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestExecWebFetchApproval: a headless run cannot ask, so web_fetch runs
// only under --approve all or a user allow rule for the host, and is
// refused (no request made, the rule to add named) otherwise.
func TestExecWebFetchApproval(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "the page")
	}))
	t.Cleanup(srv.Close)
	ws := gitRepo(t, map[string]string{"main.go": "package main\n"})
	model := scripted.Start(t)
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
	common := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--output", "text",
		"--set", `web.allowHosts=["127.0.0.1"]`}
	fetch := scripted.Reply{ToolCalls: []scripted.ToolCall{tc("f1", "web_fetch", `{"url":"`+srv.URL+`/p"}`)}}
	lastTool := func() string {
		reqs := model.Requests()
		msgs := reqs[len(reqs)-1].Messages
		return msgs[len(msgs)-1].Content
	}

	model.Enqueue(fetch, scripted.Reply{Text: "ok"})
	if out, errOut, code := runExec(t, env, append(common, "fetch it")...); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if got := lastTool(); !strings.Contains(got, "WebFetch(domain:127.0.0.1)") || hits.Load() != 0 {
		t.Fatalf("unapproved headless fetch: model got %q, %d requests", got, hits.Load())
	}

	model.Enqueue(fetch, scripted.Reply{Text: "ok"})
	if _, errOut, code := runExec(t, env, append(common, "--set", `permissions.allow=["WebFetch(domain:127.0.0.1)"]`, "fetch it")...); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if got := lastTool(); !strings.Contains(got, "the page") || hits.Load() != 1 {
		t.Fatalf("allowed by rule: model got %q, %d requests", got, hits.Load())
	}

	model.Enqueue(fetch, scripted.Reply{Text: "ok"})
	if _, errOut, code := runExec(t, env, append(common, "--approve", "all", "fetch it")...); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if got := lastTool(); !strings.Contains(got, "the page") || hits.Load() != 2 {
		t.Fatalf("--approve all: model got %q, %d requests", got, hits.Load())
	}
}

// TestExecURLMentionIsFetchedAsTyped: an @url the user typed is fetched
// before the model call without asking, even headless with --approve
// none, under web_fetch's rules: a WebFetch deny rule refuses it (no
// request made) and the SSRF policy still applies (127.0.0.1 only because
// web.allowHosts names it).
func TestExecURLMentionIsFetchedAsTyped(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "PAGE-MARKER release notes")
	}))
	t.Cleanup(srv.Close)
	ws := gitRepo(t, map[string]string{"main.go": "package main\n"})
	model := scripted.Start(t, scripted.Reply{Text: "a"}, scripted.Reply{Text: "b"}, scripted.Reply{Text: "c"})
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
	common := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--output", "text"}
	prompt := "summarise @" + srv.URL + "/notes"
	last := func() string { r := model.Requests(); return r[len(r)-1].LastUserMessage() }

	if out, errOut, code := runExec(t, env, append(common, "--set", `web.allowHosts=["127.0.0.1"]`, prompt)...); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if u := last(); !strings.Contains(u, "PAGE-MARKER") || hits.Load() != 1 {
		t.Fatalf("typed @url not fetched: %d requests, model got\n%s", hits.Load(), u)
	}
	if _, errOut, code := runExec(t, env, append(common, "--set", `web.allowHosts=["127.0.0.1"]`,
		"--set", `permissions.deny=["WebFetch(domain:127.0.0.1)"]`, prompt)...); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if u := last(); strings.Contains(u, "PAGE-MARKER") || !strings.Contains(u, "error=") || hits.Load() != 1 {
		t.Fatalf("a deny rule did not refuse the typed @url: %d requests, model got\n%s", hits.Load(), u)
	}
	if _, errOut, code := runExec(t, env, append(common, prompt)...); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if u := last(); strings.Contains(u, "PAGE-MARKER") || hits.Load() != 1 {
		t.Fatalf("a loopback @url was fetched without web.allowHosts: %d requests, model got\n%s", hits.Load(), u)
	}
}
