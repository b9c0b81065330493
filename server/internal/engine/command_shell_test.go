package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/corpus"
)

const grepCode = "google-gemini/gemini-cli/packages/cli/src/commands/extensions/examples/custom-commands/commands/fs/grep-code.toml"

// Gemini CLI's own fs/grep-code.toml runs !{grep -r {{args}} .} as it
// expands: the command runs as the turn's run_shell_command (approved by
// the headless policy here, in the OS sandbox), its output takes its
// place in what the model reads, and the arguments reach the shell
// escaped. Claude's @file in a command attaches the file through
// read_file, and a path outside the workspace is refused.
func TestCommandShellOutputReachesTheModel(t *testing.T) {
	x := trustedEnv(t)
	x.WriteFile(".gemini/commands/fs/grep-code.toml", corpus.Read(t, grepCode))
	x.WriteFile(".claude/commands/look.md", "---\ndescription: look\n---\nLook at @notes.txt and @../outside.txt\n")
	x.WriteFile("notes.txt", "the needle; here\n")
	if err := os.WriteFile(filepath.Join(filepath.Dir(x.Dir), "outside.txt"), []byte("OUTSIDE-SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x.OpenTrusted(nil, true)
	x.Model.Enqueue(scripted.Reply{Text: "found"}, scripted.Reply{Text: "looked"})
	sid, _ := x.Turn("", "/fs:grep-code needle; here")
	u := x.Model.Requests()[0].LastUserMessage()
	if !strings.Contains(u, "the pattern `needle; here`") || !strings.Contains(u, "./notes.txt:the needle; here") || strings.Contains(u, "[[govibe-shell") {
		t.Fatalf("the model read:\n%s", u)
	}
	// The track keeps the expanded message, so later requests repeat it.
	track := x.Track(sid)
	if !strings.Contains(track[0].Content, "./notes.txt:the needle; here") {
		t.Fatalf("track: %+v", track[0])
	}

	x.Turn(sid, "/look")
	u = x.Model.Requests()[1].LastUserMessage()
	if !strings.Contains(u, "the needle; here") || strings.Contains(u, "OUTSIDE-SECRET") {
		t.Fatalf("the model read:\n%s", u)
	}
}

// A command refused by the user's rules is not run and the command is not
// sent: the turn ends with the reason and the model is never asked.
func TestCommandShellRefusedIsNotSent(t *testing.T) {
	x := trustedEnv(t)
	x.WriteFile(".gemini/commands/fs/grep-code.toml", corpus.Read(t, grepCode))
	x.OpenTrusted(config.Values{"permissions.deny": []any{"Bash(grep:*)"}}, true)
	sid, _, err := x.E.Send(context.Background(), engine.SendParams{Text: "/fs:grep-code needle"})
	if err != nil {
		t.Fatal(err)
	}
	if st := x.E.Wait(sid); st != "error" {
		t.Fatalf("the turn ended %q", st)
	}
	if n := len(x.Model.Requests()); n != 0 {
		t.Fatalf("the model was asked %d times", n)
	}
	var errs []string
	x.Await("error event", func() bool { return len(x.EventsOf(sid, kinds.Error)) > 0 })
	for _, ev := range x.EventsOf(sid, kinds.Error) {
		errs = append(errs, ev.Err.Message)
	}
	if all := strings.Join(errs, "\n"); !strings.Contains(all, "grep -r needle .") || !strings.Contains(all, "was not sent") {
		t.Fatalf("errors: %s", all)
	}
	for _, m := range x.Track(sid) {
		if strings.Contains(m.Content, "[[govibe-shell") {
			t.Fatalf("an unexpanded message stayed on the track: %q", m.Content)
		}
	}
}

// In a folder that is not trusted a user command that runs shell commands
// is refused before anything runs, saying why.
func TestCommandShellNeedsTrust(t *testing.T) {
	x := trustedEnv(t)
	home := os.Getenv("HOME")
	p := filepath.Join(home, ".gemini", "commands", "fs", "grep-code.toml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(corpus.Read(t, grepCode)), 0o644); err != nil {
		t.Fatal(err)
	}
	x.OpenTrusted(nil, false)
	_, _, err := x.E.Send(context.Background(), engine.SendParams{Text: "/fs:grep-code needle"})
	if err == nil || !strings.Contains(err.Error(), "only a trusted workspace allows") {
		t.Fatalf("err = %v", err)
	}
	if n := len(x.Model.Requests()); n != 0 {
		t.Fatalf("the model was asked %d times", n)
	}
}
