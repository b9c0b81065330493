package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/review"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/store"
)

var editOn = config.Values{"editReview.enabled": true, "editReview.timeoutMs": float64(5000)}

const editTwo = `{"filePath":"a.txt","startLine":2,"endLine":2,"newContent":"TWO"}`

func TestEditReviewApprovedThenUserSeesCard(t *testing.T) {
	x := newRV(t, editOn, false, "")
	x.write("a.txt", "one\ntwo\nthree\n")
	x.mainScript(tc("r", "read_file", `{"filePath":"a.txt"}`), scripted.Reply{Text: "Capitalising line two.", ToolCalls: []scripted.ToolCall{{ID: "e1", Name: "edit", Arguments: editTwo}}})
	x.script(review.KindEdit, verdict(true))
	sid := x.send("capitalise two")
	c := x.confirm()
	if c.Kind != "edit" || c.Review == nil || !c.Review.Approved || c.Review.Kind != "edit" {
		t.Fatalf("confirmation %+v review %+v", c, c.Review)
	}
	if err := x.e.Broker.Resolve(c.ID, approval.Answer{Accept: true}); err != nil {
		t.Fatal(err)
	}
	x.finish(sid)
	if got := x.read("a.txt"); got != "one\nTWO\nthree\n" {
		t.Fatalf("file %q", got)
	}
	reqs := x.requests(string(review.KindEdit))
	if len(reqs) != 1 {
		t.Fatalf("%d reviewer requests", len(reqs))
	}
	prompt := reqs[0].Messages[1].Content
	for _, want := range []string{"capitalise two", "Capitalising line two.", "+TWO", "-two", "The file before the change"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the reviewer prompt lacks %q:\n%s", want, prompt)
		}
	}
	if cards := x.reviewCards(sid); len(cards) != 1 || !cards[0].Approved {
		t.Fatalf("cards %+v", cards)
	}
	// The review is stored in a hidden child session, not in the main context.
	kids := x.reviewerSessions(sid)
	if len(kids) != 1 || !kids[0].Hidden || !strings.Contains(kids[0].Title, "a.txt") {
		t.Fatalf("reviewer sessions %+v", kids)
	}
	track, _ := x.e.Store.LLMMessages(context.Background(), kids[0].ID)
	if len(track) != 3 || track[0].Content != review.SystemPrompt(review.KindEdit) {
		t.Fatalf("reviewer track %+v", track)
	}
	for _, m := range x.requests(mainKind)[len(x.requests(mainKind))-1].Messages {
		if strings.Contains(m.Content, "unified diff") {
			t.Fatal("the review leaked into the main context")
		}
	}
	top, _ := x.e.Store.ListSessions(context.Background(), store.ListOptions{})
	if len(top.Sessions) != 1 {
		t.Fatalf("the reviewer session is listed: %+v", top.Sessions)
	}
}

func TestEditReviewRejectionGoesBackToTheModel(t *testing.T) {
	x := newRV(t, editOn, false, "")
	x.write("a.txt", "one\ntwo\nthree\n")
	x.mainScript(tc("r", "read_file", `{"filePath":"a.txt"}`), tc("e1", "edit", editTwo),
		tc("e2", "edit", `{"filePath":"a.txt","startLine":2,"endLine":2,"newContent":"Two"}`))
	x.script(review.KindEdit, verdict(false, "all caps breaks the style guide"), verdict(true))
	sid := x.send("capitalise two")
	c := x.confirm()
	if c.Proposed != "one\nTwo\nthree\n" {
		t.Fatalf("the user saw the rejected version: %q", c.Proposed)
	}
	x.e.Broker.Resolve(c.ID, approval.Answer{Accept: true})
	x.finish(sid)
	x.noConfirm()
	res := x.toolResults()
	if len(res) != 3 || !strings.Contains(res[1], "all caps breaks the style guide") || !strings.Contains(res[1], "edit review rejected") {
		t.Fatalf("tool results %q", res)
	}
	if got := x.read("a.txt"); got != "one\nTwo\nthree\n" {
		t.Fatalf("file %q", got)
	}
	cards := x.reviewCards(sid)
	if len(cards) != 2 || cards[0].Approved || !cards[1].Approved {
		t.Fatalf("cards %+v", cards)
	}
}

func TestEditReviewPlaceholderRejectedWithoutAModel(t *testing.T) {
	x := newRV(t, editOn, true, "edits")
	src := "package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Sub(a, b int) int { return a - b }\n"
	x.write("calc.go", src)
	x.mainScript(tc("r", "read_file", `{"filePath":"calc.go"}`),
		tc("w", "write_file", `{"filePath":"calc.go","content":"package calc\n\nfunc Add(a, b int) int { return a + b + 0 }\n\n// ... rest of code unchanged\n"}`))
	sid := x.send("tweak Add")
	x.finish(sid)
	if got := x.read("calc.go"); got != src {
		t.Fatalf("the placeholder edit was written: %q", got)
	}
	res := x.toolResults()
	if len(res) != 2 || !strings.Contains(res[1], "placeholder") || !strings.Contains(res[1], "calc.go:5") {
		t.Fatalf("tool results %q", res)
	}
	if n := len(x.requests(string(review.KindEdit))); n != 0 {
		t.Fatalf("the model reviewer was asked %d times for a statically rejected edit", n)
	}
	if cards := x.reviewCards(sid); len(cards) != 1 || cards[0].Approved {
		t.Fatalf("cards %+v", cards)
	}
}

func TestEditReviewSyntaxErrorRejected(t *testing.T) {
	x := newRV(t, editOn, true, "edits")
	x.write("cfg.json", "{\"a\": 1}\n")
	x.write("main.go", "package main\n\nfunc main() {}\n")
	x.mainScript(tc("r", "read_file", `{"filePath":"cfg.json"}`),
		tc("w1", "write_file", `{"filePath":"cfg.json","content":"{\"a\": 1,}\n"}`),
		tc("r2", "read_file", `{"filePath":"main.go"}`),
		tc("w2", "write_file", `{"filePath":"main.go","content":"package main\n\nfunc main() {\n"}`),
		tc("w3", "write_file", `{"filePath":"main.go","content":"package main\n\nfunc main() { println(1) }\n"}`))
	sid := x.send("edit things")
	x.finish(sid)
	res := x.toolResults()
	if len(res) != 5 || !strings.Contains(res[1], "does not parse") || !strings.Contains(res[3], "does not parse") {
		t.Fatalf("tool results %q", res)
	}
	if x.read("cfg.json") != "{\"a\": 1}\n" {
		t.Fatal("broken JSON written")
	}
	if x.read("main.go") != "package main\n\nfunc main() { println(1) }\n" {
		t.Fatalf("main.go %q", x.read("main.go"))
	}
	if n := len(x.requests(string(review.KindEdit))); n != 1 {
		t.Fatalf("reviewer asked %d times, want once (for the valid edit)", n)
	}
}

func TestEditReviewMalformedVerdictIsRetried(t *testing.T) {
	x := newRV(t, editOn, false, "")
	x.write("a.txt", "one\ntwo\nthree\n")
	x.mainScript(tc("r", "read_file", `{"filePath":"a.txt"}`), tc("e1", "edit", editTwo))
	x.script(review.KindEdit, scripted.Reply{Text: "Looks good to me!"}, verdict(true))
	sid := x.send("capitalise two")
	c := x.confirm()
	if c.Review == nil || !c.Review.Approved || c.Review.Unavailable != "" {
		t.Fatalf("review %+v", c.Review)
	}
	x.e.Broker.Resolve(c.ID, approval.Answer{Accept: true})
	x.finish(sid)
	reqs := x.requests(string(review.KindEdit))
	if len(reqs) != 2 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "could not be used") {
		t.Fatalf("%d reviewer requests", len(reqs))
	}
}

func TestEditReviewTimeoutFallsBackToTheUser(t *testing.T) {
	settings := config.Values{"editReview.enabled": true, "editReview.timeoutMs": float64(300), "autoApprove.edits": true}
	x := newRV(t, settings, false, "")
	x.write("a.txt", "one\ntwo\nthree\n")
	x.mainScript(tc("r", "read_file", `{"filePath":"a.txt"}`), tc("e1", "edit", editTwo))
	x.script(review.KindEdit, scripted.Reply{Text: `{"approved": true}`, Faults: []scripted.Fault{scripted.HangAfter(0), scripted.HangAfter(0), scripted.HangAfter(0), scripted.HangAfter(0), scripted.HangAfter(0)}})
	sid := x.send("capitalise two")
	// auto-approve is on, yet an unreviewed edit is never applied silently.
	c := x.confirm()
	if c.Review == nil || !strings.Contains(c.Review.Unavailable, "timed out") || c.Review.Approved || c.AutoAcceptMs != 0 {
		t.Fatalf("review %+v", c.Review)
	}
	if x.read("a.txt") != "one\ntwo\nthree\n" {
		t.Fatal("written before the user decided")
	}
	x.e.Broker.Resolve(c.ID, approval.Answer{Accept: true})
	x.finish(sid)
	if x.read("a.txt") != "one\nTWO\nthree\n" {
		t.Fatal("the user's acceptance was not applied")
	}
}

func TestEditReviewUnavailableHeadlessIsRefused(t *testing.T) {
	x := newRV(t, config.Values{"editReview.enabled": true, "editReview.timeoutMs": float64(5000)}, true, "all")
	x.write("a.txt", "one\ntwo\nthree\n")
	x.mainScript(tc("r", "read_file", `{"filePath":"a.txt"}`), tc("e1", "edit", editTwo))
	x.script(review.KindEdit, scripted.Reply{Faults: []scripted.Fault{scripted.StatusFault(400, `{"error":{"message":"no such model"}}`)}})
	sid := x.send("capitalise two")
	x.finish(sid)
	if x.read("a.txt") != "one\ntwo\nthree\n" {
		t.Fatal("an unreviewed edit was applied headless")
	}
	if res := x.toolResults(); len(res) != 2 || !strings.Contains(res[1], "review unavailable") {
		t.Fatalf("tool results %q", res)
	}
}

func TestEditReviewModelSetting(t *testing.T) {
	x := newRV(t, config.Values{"editReview.enabled": true, "editReview.model": "reviewer-model"}, true, "edits")
	x.write("a.txt", "one\ntwo\nthree\n")
	x.mainScript(tc("r", "read_file", `{"filePath":"a.txt"}`), tc("e1", "edit", editTwo))
	sid := x.send("capitalise two")
	x.finish(sid)
	reqs := x.requests(string(review.KindEdit))
	if len(reqs) != 1 || reqs[0].Model != "reviewer-model" {
		t.Fatalf("reviewer requests %+v", reqs)
	}
	if m := x.requests(mainKind); m[0].Model != "main-model" {
		t.Fatalf("main model %q", m[0].Model)
	}
}

// TestReviewerRoleRouting: with roles.reviewer set and no per-review
// model, edit reviews go to the reviewer profile and the work stays on
// main, as the recorded requests show.
func TestReviewerRoleRouting(t *testing.T) {
	x := newRV(t, config.Values{"editReview.enabled": true, "roles.reviewer": "small-fast",
		"models": []any{map[string]any{"name": "small-fast", "model": "reviewer-small", "reasoningEffort": "low"}}}, true, "edits")
	x.write("a.txt", "one\ntwo\nthree\n")
	x.mainScript(tc("r", "read_file", `{"filePath":"a.txt"}`), tc("e1", "edit", editTwo))
	sid := x.send("capitalise two")
	x.finish(sid)
	reqs := x.requests(string(review.KindEdit))
	if len(reqs) != 1 || reqs[0].Model != "reviewer-small" || !strings.Contains(string(reqs[0].Body), `"reasoning_effort":"low"`) {
		t.Fatalf("reviewer requests %+v", reqs)
	}
	for _, m := range x.requests(mainKind) {
		if m.Model != "main-model" || strings.Contains(string(m.Body), "reasoning_effort") {
			t.Fatalf("main request went to %q: %s", m.Model, m.Body)
		}
	}
}

// TestReviewerWithoutARoleFollowsTheSessionsModel: with no reviewer
// role and no per-review model, a session switched to another model
// (picker, /model) has its edits reviewed by that model too, not by
// govibe.model.
func TestReviewerWithoutARoleFollowsTheSessionsModel(t *testing.T) {
	x := newRV(t, config.Values{"editReview.enabled": true,
		"models": []any{map[string]any{"name": "strong", "model": "strong-model"}}}, true, "edits")
	x.write("a.txt", "one\ntwo\nthree\n")
	x.mainScript(tc("r", "read_file", `{"filePath":"a.txt"}`), tc("e1", "edit", editTwo))
	s, err := x.e.Sessions.Create(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := x.e.Sessions.SetModel(context.Background(), s.ID, "strong"); err != nil {
		t.Fatal(err)
	}
	sid, _, err := x.e.Send(context.Background(), SendParams{SessionID: s.ID, Text: "capitalise two"})
	if err != nil {
		t.Fatal(err)
	}
	x.finish(sid)
	reqs := x.requests(string(review.KindEdit))
	if len(reqs) != 1 || reqs[0].Model != "strong-model" {
		t.Fatalf("reviewer requests went to %+v", reqs)
	}
	for _, m := range x.requests(mainKind) {
		if m.Model != "strong-model" {
			t.Fatalf("a main request went to %q", m.Model)
		}
	}
}
