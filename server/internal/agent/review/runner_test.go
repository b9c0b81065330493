package review

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

func runner(t *testing.T, s *scripted.Server, timeout time.Duration) *Runner {
	t.Helper()
	c, err := llm.New(llm.Profile{BaseURL: s.URL(), Model: "reviewer-model", APIKey: "sk-test"}, llm.Options{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	return &Runner{Client: c, Timeout: timeout, SessionID: "parent"}
}

func TestReviewApproves(t *testing.T) {
	s := scripted.Start(t, scripted.Reply{Text: `{"approved": true, "problems": [], "suggestion": ""}`})
	out := runner(t, s, 5*time.Second).Review(context.Background(), KindPlan, PlanInput{Request: "add a flag", Plan: `[{"title":"add --x"}]`, Attempt: 1}.Prompt())
	if out.Unavailable != "" || !out.Verdict.Approved {
		t.Fatalf("%+v", out)
	}
	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].Messages[0].Role != "system" || reqs[0].Messages[0].Content != SystemPrompt(KindPlan) {
		t.Fatalf("the reviewer's own system prompt was not sent: %+v", reqs)
	}
	if !strings.Contains(reqs[0].Messages[1].Content, "add a flag") || reqs[0].Session != "parent" {
		t.Fatalf("prompt %q session %q", reqs[0].Messages[1].Content, reqs[0].Session)
	}
	if len(out.Transcript) != 3 || out.Duration <= 0 {
		t.Fatalf("transcript %d duration %v", len(out.Transcript), out.Duration)
	}
}

func TestReviewMalformedThenCorrected(t *testing.T) {
	s := scripted.Start(t,
		scripted.Reply{Text: `Looks mostly fine but {"approved": false}`},
		scripted.Reply{Text: `{"approved": false, "problems": [{"severity": "error", "message": "item 2 is not verifiable", "location": "2"}]}`})
	out := runner(t, s, 5*time.Second).Review(context.Background(), KindPlan, "plan")
	if out.Unavailable != "" || out.Verdict.Approved || out.Verdict.Problems[0].Message != "item 2 is not verifiable" {
		t.Fatalf("%+v", out)
	}
	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want one corrective retry", len(reqs))
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last.Role != "user" || !strings.Contains(last.Content, "at least one problem") {
		t.Fatalf("the retry does not quote the validation error: %q", last.Content)
	}
}

func TestReviewMalformedTwiceIsUnavailable(t *testing.T) {
	s := scripted.Start(t, scripted.Reply{Text: "LGTM"}, scripted.Reply{Text: "LGTM!"}, scripted.Reply{Text: `{"approved": true}`})
	out := runner(t, s, 5*time.Second).Review(context.Background(), KindEdit, "diff")
	if out.Unavailable == "" || out.Verdict.Approved || !strings.Contains(out.Unavailable, "malformed twice") {
		t.Fatalf("%+v", out)
	}
	if n := len(s.Requests()); n != 2 {
		t.Fatalf("%d requests; exactly one retry is allowed", n)
	}
}

func TestReviewTimeoutIsUnavailable(t *testing.T) {
	s := scripted.Start(t, scripted.Reply{Text: `{"approved": true}`, Faults: []scripted.Fault{scripted.HangAfter(0)}})
	start := time.Now()
	out := runner(t, s, 300*time.Millisecond).Review(context.Background(), KindShell, "cmd")
	if out.Unavailable == "" || out.Verdict.Approved || !strings.Contains(out.Unavailable, "timed out") {
		t.Fatalf("%+v", out)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the timeout was not honoured: %v", d)
	}
}

func TestReviewServerErrorIsUnavailable(t *testing.T) {
	s := scripted.Start(t, scripted.Reply{Faults: []scripted.Fault{scripted.StatusFault(400, `{"error":{"message":"bad model"}}`)}})
	out := runner(t, s, 5*time.Second).Review(context.Background(), KindPlan, "p")
	if out.Unavailable == "" || out.Verdict.Approved {
		t.Fatalf("%+v", out)
	}
}

func TestReviewWithoutClient(t *testing.T) {
	out := (&Runner{}).Review(context.Background(), KindPlan, "p")
	if !strings.Contains(out.Unavailable, "no model") {
		t.Fatalf("%+v", out)
	}
	if out := (&Runner{}).Review(context.Background(), Kind("nope"), "p"); out.Unavailable == "" {
		t.Fatal("unknown kind accepted")
	}
}

func TestRewriteShell(t *testing.T) {
	s := scripted.Start(t, scripted.Reply{Text: `{"command": "git --no-pager log -n 30", "reason": "no pager, bounded"}`})
	out := runner(t, s, 5*time.Second).RewriteShell(context.Background(), ShellInput{Command: "git log", Cwd: "/w", OS: "linux", Shell: "bash"})
	if out.Unavailable != "" || out.Rewrite.Command != "git --no-pager log -n 30" {
		t.Fatalf("%+v", out)
	}
	if got := s.Requests()[0].Messages[0].Content; got != SystemPrompt(KindShellEditor) {
		t.Fatal("shell editor system prompt not used")
	}
}
