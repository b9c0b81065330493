package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

func plainTr(s string, a ...any) string { return fmt.Sprintf(s, a...) }

func TestTerminalAskerReplies(t *testing.T) {
	q := tools.HumanQuestion{Question: "Which database?", Options: []string{"sqlite", "postgres"}}
	cases := []struct {
		in   string
		want tools.HumanReply
	}{
		{"use mysql\n", tools.HumanReply{Reply: "use mysql"}},
		{"2\n", tools.HumanReply{Reply: "postgres"}},
		{"9\n", tools.HumanReply{Reply: "9"}}, // not a choice: taken as text
		{"/done 1\n", tools.HumanReply{Reply: "sqlite", Done: true}},
		{"\n", tools.HumanReply{Cancelled: true}},
		{"", tools.HumanReply{Cancelled: true}}, // EOF
	}
	for _, c := range cases {
		var out strings.Builder
		got, err := newTerminalAsker(strings.NewReader(c.in), &out, plainTr).ask(context.Background(), q)
		if err != nil || got != c.want {
			t.Errorf("input %q: got %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if !strings.Contains(out.String(), "Which database?") || !strings.Contains(out.String(), "2) postgres") {
			t.Errorf("question not shown: %q", out.String())
		}
	}
}

// TestExecAskHumanWithoutTTY: the test's stdin is not a terminal, so the
// model is told nobody can answer and the run still finishes.
func TestExecAskHumanWithoutTTY(t *testing.T) {
	ws := gitRepo(t, map[string]string{"a.txt": "x\n"})
	model := scripted.Start(t, scripted.Reply{ToolCalls: []scripted.ToolCall{tc("q1", "ask_human", `{"question":"Which database?"}`)}},
		scripted.Reply{Text: "Picked sqlite."})
	out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()},
		"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "set up storage")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	reqs := model.Requests()
	got := ""
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" && m.ToolCallID == "q1" {
			got = m.Content
		}
	}
	if got != "Error: "+tools.NoHumanText {
		t.Fatalf("the model got %q, want %q", got, tools.NoHumanText)
	}
}

// TestExecPrintsNotifications: show_notification in a headless run is a
// line on stderr in text mode (stdout keeps the run's output), a
// "notification" line in stream-json and an entry of the json result.
func TestExecPrintsNotifications(t *testing.T) {
	ws := gitRepo(t, map[string]string{"a.txt": "x\n"})
	for _, mode := range []string{"text", "stream-json", "json"} {
		t.Run(mode, func(t *testing.T) {
			model := scripted.Start(t,
				scripted.Reply{ToolCalls: []scripted.ToolCall{tc("n1", "show_notification", `{"message":"Deploy finished.","severity":"warning"}`)}},
				scripted.Reply{Text: "All set."})
			out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()},
				"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--output", mode, "deploy")
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			want := map[string]string{
				"text":        "notification (warning): Deploy finished.",
				"stream-json": `{"message":"Deploy finished.","severity":"warning","type":"notification"}`,
				"json":        `"notifications":[{"message":"Deploy finished.","severity":"warning"}]`,
			}[mode]
			where := out
			if mode == "text" {
				where = errOut
				if strings.Contains(out, "Deploy finished.") {
					t.Fatalf("the notification went to stdout:\n%s", out)
				}
			}
			if !strings.Contains(where, want) {
				t.Fatalf("want %q in\n%s\nstderr:\n%s", want, where, errOut)
			}
		})
	}
}

// TestExecAskHumanWithTTY: run under a real terminal (util-linux script
// gives exec a pty as stdin), the question is printed and the line typed
// (a choice's number) reaches the model as the reply.
func TestExecAskHumanWithTTY(t *testing.T) {
	scriptBin, err := exec.LookPath("script")
	if err != nil {
		t.Skip("util-linux script is not installed")
	}
	ws := gitRepo(t, map[string]string{"a.txt": "x\n"})
	model := scripted.Start(t, scripted.Reply{ToolCalls: []scripted.ToolCall{tc("q1", "ask_human", `{"question":"Which database?","options":["sqlite","postgres"]}`)}},
		scripted.Reply{Text: "Postgres it is."})
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	line := strings.Join([]string{quote(govibeBin), "exec", "--workspace", quote(ws), "--state-dir", quote(t.TempDir()),
		"--base-url", quote(model.URL()), "--model", "m", quote("set up storage")}, " ")
	cmd := exec.Command(scriptBin, "-qec", line, "/dev/null")
	cmd.Env = append(os.Environ(), "GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME="+t.TempDir(), "SHELL=/bin/sh")
	cmd.Stdin = strings.NewReader("2\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "Which database?") || !strings.Contains(string(out), "2) postgres") {
		t.Fatalf("the question was not shown on the terminal:\n%s", out)
	}
	reqs := model.Requests()
	got := ""
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" && m.ToolCallID == "q1" {
			got = m.Content
		}
	}
	if got != "The user replied: postgres" {
		t.Fatalf("the model got %q\n%s", got, out)
	}
}

// A question that times out leaves no second reader behind: the next
// question gets the next line, and a line typed while no question was
// shown answers nothing.
func TestTerminalAskerAfterATimeout(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	var out syncBuilder
	a := newTerminalAsker(pr, &out, plainTr)
	q := tools.HumanQuestion{Question: "Which database?"}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := a.ask(ctx, q); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the deadline, got %v", err)
	}
	if !strings.Contains(out.String(), "No answer in time") {
		t.Fatalf("the timeout is not said: %q", out.String())
	}
	// Typed between questions: read (by the one reader), then ignored.
	if _, err := io.WriteString(pw, "stale\n"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // the late line must be older than the next question
	got := make(chan tools.HumanReply, 1)
	go func() {
		r, err := a.ask(context.Background(), q)
		if err != nil {
			t.Error(err)
		}
		got <- r
	}()
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(out.String(), "Which database?") < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := io.WriteString(pw, "postgres\n"); err != nil {
		t.Fatal(err)
	}
	if r := <-got; r != (tools.HumanReply{Reply: "postgres"}) {
		t.Fatalf("second question got %+v", r)
	}
}

// syncBuilder is a strings.Builder safe for the asker and the test.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
