package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// titleServer answers title requests (recognised by their system prompt)
// with title, everything else with "ok".
func titleServer(x *enginetest.Env, title scripted.Reply) {
	x.Model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		if len(r.Messages) > 0 && strings.Contains(r.Messages[0].Content, "You name coding-assistant sessions") {
			return title
		}
		return scripted.Reply{Text: "ok"}
	})
}

func sessionTitleOf(x *enginetest.Env, sid string) string {
	s, err := x.E.Store.GetSession(context.Background(), sid)
	if err != nil {
		x.T.Fatal(err)
	}
	return s.Title
}

func titleRequests(x *enginetest.Env) []scripted.RecordedRequest {
	var out []scripted.RecordedRequest
	for _, r := range x.Model.Requests() {
		if len(r.Messages) > 0 && strings.Contains(r.Messages[0].Content, "You name coding-assistant sessions") {
			out = append(out, r)
		}
	}
	return out
}

// TestTitleRoleNamesTheSession: with roles.title set, the session is named
// by that profile's model, the request carrying the first message.
func TestTitleRoleNamesTheSession(t *testing.T) {
	x := enginetest.New(t, config.Values{
		"models":      []any{map[string]any{"name": "titler", "model": "tiny-title-model"}},
		"roles.title": "titler",
	})
	titleServer(x, scripted.Reply{Text: "Title: \"Fix the parser crash on empty input\"\n"})
	sid, _ := x.Turn("", "the parser crashes when the input is empty, please fix it and add a test")
	x.Await("the model's title", func() bool { return sessionTitleOf(x, sid) == "Fix the parser crash on empty input" })
	reqs := titleRequests(x)
	if len(reqs) != 1 || reqs[0].Model != "tiny-title-model" || !strings.Contains(reqs[0].LastUserMessage(), "parser crashes") || len(reqs[0].Tools) != 0 {
		t.Fatalf("title requests = %+v", reqs)
	}
	// Only the first turn names the session.
	x.Turn(sid, "now something else entirely")
	if n := len(titleRequests(x)); n != 1 {
		t.Fatalf("%d title requests after two turns", n)
	}
}

// TestTitleFallsBackToTheMainModel: titles.model without a title role
// uses the main model.
func TestTitleFallsBackToTheMainModel(t *testing.T) {
	x := enginetest.New(t, config.Values{"titles.model": true})
	titleServer(x, scripted.Reply{Text: "Rename the config loader"})
	sid, _ := x.Turn("", "please rename loadCfg to loadConfig everywhere")
	x.Await("the model's title", func() bool { return sessionTitleOf(x, sid) == "Rename the config loader" })
	if reqs := titleRequests(x); len(reqs) != 1 || reqs[0].Model != "scripted-model" {
		t.Fatalf("title requests = %+v", reqs)
	}
}

// TestTitleKeepsTheFirstMessageWhenTheModelFails: a failing or empty
// answer leaves the first message's title.
func TestTitleKeepsTheFirstMessageWhenTheModelFails(t *testing.T) {
	for name, reply := range map[string]scripted.Reply{
		"error": {Faults: []scripted.Fault{scripted.StatusFault(400, `{"error":{"message":"bad"}}`)}},
		"empty": {Text: "  \n\"\"\n"},
	} {
		x := enginetest.New(t, config.Values{"titles.model": true})
		titleServer(x, reply)
		sid, _ := x.Turn("", "Explain the build")
		x.Await("the title request", func() bool { return len(titleRequests(x)) == 1 })
		// Closing waits for the title goroutine; reopening reads what it left.
		x.Reopen(nil)
		if got := sessionTitleOf(x, sid); got != "Explain the build" {
			t.Errorf("%s: title = %q", name, got)
		}
	}
}

// TestNoTitleRequestByDefault: without titles.model or a title role no
// request is made (the first message names the session).
func TestNoTitleRequestByDefault(t *testing.T) {
	x := enginetest.New(t, nil)
	titleServer(x, scripted.Reply{Text: "never"})
	sid, _ := x.Turn("", "Explain the build")
	if n := len(titleRequests(x)); n != 0 || sessionTitleOf(x, sid) != "Explain the build" {
		t.Fatalf("%d title requests, title %q", n, sessionTitleOf(x, sid))
	}
}

// TestModelSwitchAppliesToTheNextRequestAndIsRecorded: changing
// govibe.model between turns (what the header's picker does) sends the
// next request to the new profile and records it on the session.
func TestModelSwitchAppliesToTheNextRequestAndIsRecorded(t *testing.T) {
	models := []any{
		map[string]any{"name": "fast", "model": "fast-model"},
		map[string]any{"name": "strong", "model": "strong-model"},
	}
	x := enginetest.New(t, config.Values{"models": models, "model": "fast"})
	x.Model.Enqueue(scripted.Reply{Text: "one"}, scripted.Reply{Text: "two"})
	sid, _ := x.Turn("", "first")
	if m := x.Model.Requests()[0].Model; m != "fast-model" {
		t.Fatalf("first request went to %s", m)
	}
	v := x.E.Settings()
	v["model"] = "strong"
	x.E.UpdateSettings(v, map[string]string{"": "sk-test"})
	x.Turn(sid, "second")
	reqs := x.Model.Requests()
	if m := reqs[len(reqs)-1].Model; m != "strong-model" {
		t.Fatalf("second request went to %s", m)
	}
	s, _ := x.E.Store.GetSession(context.Background(), sid)
	if s.Model != "strong-model" {
		t.Fatalf("session records %q", s.Model)
	}
	// The system prompt is unchanged by the switch: the prefix cache of a
	// provider serving both models keeps hitting.
	if reqs[0].Messages[0].Content != reqs[len(reqs)-1].Messages[0].Content {
		t.Fatal("the system prompt changed with the model")
	}
}
