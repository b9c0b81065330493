package rollback

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/host/i18n"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// fakeHost records what the capability asked of the engine.
type fakeHost struct {
	mu        sync.Mutex
	settings  config.Settings
	lang      i18n.Lang
	cancelled int
	notices   []published
	turnSnaps []publishedRefs
	// rolledBack are "session/turn" of PublishTurnRolledBack.
	rolledBack []string
	forgot     []string
}

type published struct {
	sid, msgID, text string
}

type publishedRefs struct {
	sid, turnID string
	refs        []TurnSnapshot
}

func newFakeHost() *fakeHost {
	return &fakeHost{settings: config.Typed(config.Values{}), lang: i18n.English}
}

func (h *fakeHost) Settings() config.Settings {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.settings
}

func (h *fakeHost) CancelAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cancelled++
}

func (h *fakeHost) PublishNotice(sid string, m store.Message, text string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.notices = append(h.notices, published{sid: sid, msgID: m.ID, text: text})
}

func (h *fakeHost) PublishTurnSnapshots(sid, turnID string, refs []TurnSnapshot) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.turnSnaps = append(h.turnSnaps, publishedRefs{sid: sid, turnID: turnID, refs: append([]TurnSnapshot(nil), refs...)})
}

func (h *fakeHost) PublishTurnRolledBack(sid, turnID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rolledBack = append(h.rolledBack, sid+"/"+turnID)
}

func (h *fakeHost) ForgetReads(sid string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.forgot = append(h.forgot, sid)
}

func (h *fakeHost) Tr(msg string, args ...any) string {
	h.mu.Lock()
	lang := h.lang
	h.mu.Unlock()
	return i18n.T(lang, msg, args...)
}

// fixture is a manager over two roots, a git repository and a plain
// folder, with a real store and real shadow stores in temp dirs.
type fixture struct {
	m        *Manager
	h        *fakeHost
	st       *store.Store
	repo     string // a git repository with a commit
	plain    string // a folder that is no repository
	stateDir string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	repo, plain := t.TempDir(), t.TempDir()
	write(t, repo, "a.txt", "a1\n")
	write(t, repo, ".gitignore", "build/\n")
	git(t, repo, "init", "-q")
	git(t, repo, "add", ".")
	git(t, repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init")
	write(t, plain, "b.txt", "b1\n")
	st, err := store.Open(filepath.Join(t.TempDir(), "govibe.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{h: newFakeHost(), st: st, repo: repo, plain: plain, stateDir: t.TempDir()}
	f.m = New(f.h, st, Options{StateDir: f.stateDir, Roots: []string{repo, plain}})
	t.Cleanup(f.m.Close)
	return f
}

// session creates a session and its user message, whose id is the turn's.
func (f *fixture) session(t *testing.T, text string) (sid, turnID string) {
	t.Helper()
	ctx := context.Background()
	s, err := f.st.CreateSession(ctx, store.NewSession{Title: "t"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.st.AppendMessage(ctx, s.ID, store.NewMessage{Role: store.RoleUser, Parts: []store.Part{{Kind: store.PartText, Text: text}}})
	if err != nil {
		t.Fatal(err)
	}
	return s.ID, m.ID
}

// modelNotes is the session's model track.
func (f *fixture) modelNotes(t *testing.T, sid string) []string {
	t.Helper()
	msgs, err := f.st.LLMMessages(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		out = append(out, m.Content)
	}
	return out
}

// chatNotices are the notices stored in the session's transcript.
func (f *fixture) chatNotices(t *testing.T, sid string) []store.Message {
	t.Helper()
	page, err := f.st.LoadMessages(context.Background(), sid, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Message
	for _, m := range page.Messages {
		if m.Role == store.RoleEvent && len(m.Parts) == 1 && m.Parts[0].Kind == store.PartNotice {
			out = append(out, m)
		}
	}
	return out
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if os.IsNotExist(err) {
		return "<missing>"
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
