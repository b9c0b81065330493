package engine_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/browser"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// The main agent calls browser_sub_agent; its own run (a hidden child
// session on the same model) reads a local page and reports.
func TestBrowserSubAgentTool(t *testing.T) {
	drv, missing := browser.DevDriver()
	if drv == "" {
		t.Skip(missing)
	}
	t.Setenv(browser.EnvDriverDir, drv)
	page := serveHTML(t, `<!doctype html><title>Status</title><p id="s">all good</p>`)
	x := enginetest.New(t, config.Values{"browser.allowLocalhost": true})
	x.Model.Enqueue(
		scripted.Reply{ToolCalls: []scripted.ToolCall{{Name: "browser_sub_agent", Arguments: `{"task":"Read the status","url":"` + page + `"}`}}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{{Name: "getText", Arguments: `{"selector":"#s"}`}}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{{Name: "done", Arguments: `{"status":"success","summary":"Read it.","extracted":"all good"}`}}},
		scripted.Reply{Text: "The page says all good."},
	)
	sid, _ := x.Turn("", "check the status page")
	var result string
	for _, m := range x.Track(sid) {
		if m.Role == "tool" {
			result = m.Content
		}
	}
	if !strings.Contains(result, `"status": "success"`) || !strings.Contains(result, `"extracted": "all good"`) ||
		!strings.Contains(result, `"title": "Status"`) || !strings.Contains(result, "untrusted") {
		t.Fatalf("tool result:\n%s", result)
	}
	// The browser agent ran on the model in a child session, with its own
	// tools only.
	reqs := x.Model.Requests()
	if len(reqs) != 4 || len(reqs[1].Tools) != 11 || !strings.Contains(reqs[2].Messages[len(reqs[2].Messages)-1].Content, "all good") {
		t.Fatalf("%d requests; browser agent tools %d", len(reqs), len(reqs[1].Tools))
	}
}

func serveHTML(t *testing.T, html string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(html))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// govibe.web.allowHosts reaches the browser sub-agent: an internal host
// (here "localhost", loopback) is refused by default, without a single
// request reaching it, and opens when the user lists it. allowLocalhost
// stays off in both runs, so only the allow list can make the difference.
func TestBrowserSubAgentObeysWebAllowHosts(t *testing.T) {
	drv, missing := browser.DevDriver()
	if drv == "" {
		t.Skip(missing)
	}
	t.Setenv(browser.EnvDriverDir, drv)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!doctype html><title>Intranet</title><p id="s">internal status</p>`))
	}))
	t.Cleanup(srv.Close)
	page := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/"
	call := scripted.Reply{ToolCalls: []scripted.ToolCall{{Name: "browser_sub_agent", Arguments: `{"task":"Read the status","url":"` + page + `"}`}}}
	result := func(x *enginetest.Env, sid string) string {
		for _, m := range x.Track(sid) {
			if m.Role == "tool" {
				return m.Content
			}
		}
		return ""
	}

	refused := enginetest.New(t, nil)
	refused.Model.Enqueue(call,
		scripted.Reply{ToolCalls: []scripted.ToolCall{{Name: "done", Arguments: `{"status":"failure","summary":"The page was refused."}`}}},
		scripted.Reply{Text: "The intranet is not reachable."})
	sid, _ := refused.Turn("", "check the intranet status page")
	got := result(refused, sid)
	if hits.Load() != 0 {
		t.Fatalf("the internal server was reached %d times without an allow-list entry", hits.Load())
	}
	if !strings.Contains(got, `"action": "navigate"`) || !strings.Contains(got, `"ok": false`) || !strings.Contains(got, "loopback") {
		t.Fatalf("the refused navigation is not in the result:\n%s", got)
	}

	allowed := enginetest.New(t, config.Values{"web.allowHosts": []any{"localhost"}})
	allowed.Model.Enqueue(call,
		scripted.Reply{ToolCalls: []scripted.ToolCall{{Name: "getText", Arguments: `{"selector":"#s"}`}}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{{Name: "done", Arguments: `{"status":"success","summary":"Read it.","extracted":"internal status"}`}}},
		scripted.Reply{Text: "The intranet says internal status."})
	sid, _ = allowed.Turn("", "check the intranet status page")
	got = result(allowed, sid)
	if hits.Load() == 0 || !strings.Contains(got, `"status": "success"`) || !strings.Contains(got, `"title": "Intranet"`) {
		t.Fatalf("with localhost allowed (%d hits):\n%s", hits.Load(), got)
	}
}
