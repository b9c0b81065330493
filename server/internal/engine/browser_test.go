package engine_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/browser"
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/llm/scripted"
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
