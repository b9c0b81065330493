package store

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

func TestOpenCreatesSchemaAndReopens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nested", "dir", "ws.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sess := mustSession(t, s, NewSession{Title: "hello"})
	var mode, sync string
	var fk, version int
	s.w.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	s.w.QueryRow(`PRAGMA synchronous`).Scan(&sync)
	s.w.QueryRow(`PRAGMA foreign_keys`).Scan(&fk)
	s.w.QueryRow(`PRAGMA user_version`).Scan(&version)
	if mode != "wal" || sync != "2" || fk != 1 || version != SchemaVersion() || version < 1 {
		t.Fatalf("journal_mode=%s synchronous=%s foreign_keys=%d user_version=%d", mode, sync, fk, version)
	}
	s.Close()

	s2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if s2.Recovered() != nil {
		t.Fatalf("healthy reopen reported recovery: %v", s2.Recovered())
	}
	got, err := s2.GetSession(ctx, sess.ID)
	if err != nil || got.Title != "hello" {
		t.Fatalf("session after reopen: %+v, %v", got, err)
	}
}

func TestOpenRejectsBadPath(t *testing.T) {
	for _, p := range []string{"", filepath.Join(t.TempDir(), "a?b.db")} {
		if _, err := Open(p, Options{}); !errors.Is(err, ErrInvalid) {
			t.Errorf("Open(%q) = %v, want ErrInvalid", p, err)
		}
	}
}

// corruptions produce a damaged database file in different ways.
var corruptions = map[string]func(t *testing.T, path string){
	"not a database": func(t *testing.T, path string) {
		os.WriteFile(path, []byte(strings.Repeat("this is not sqlite ", 500)), 0o644)
	},
	"garbage pages": func(t *testing.T, path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 8192 {
			t.Fatalf("database too small to damage: %d bytes", len(b))
		}
		// Keep the header page, scribble over every page after it.
		for i := 4096; i < len(b); i++ {
			b[i] = byte(i*7 + 13)
		}
		os.WriteFile(path, b, 0o644)
	},
	"truncated": func(t *testing.T, path string) {
		b, _ := os.ReadFile(path)
		os.WriteFile(path, b[:len(b)/2+100], 0o644)
	},
}

func TestCorruptDatabaseMovedAsideAndReplaced(t *testing.T) {
	for name, damage := range corruptions {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "ws.db")
			s, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			sess := mustSession(t, s, NewSession{Title: "precious"})
			for i := 0; i < 200; i++ {
				if _, err := s.AppendMessage(context.Background(), sess.ID, NewMessage{Role: RoleUser,
					Parts: []Part{{Kind: PartText, Text: strings.Repeat("history ", 50)}}}); err != nil {
					t.Fatal(err)
				}
			}
			// Checkpoint so the content is in the main file, then close.
			if _, err := s.w.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
				t.Fatal(err)
			}
			s.Close()
			damage(t, path)
			damaged, _ := os.ReadFile(path)
			os.WriteFile(path+"-wal", []byte("stale wal"), 0o644)

			s2, err := Open(path, Options{})
			if err != nil {
				t.Fatalf("Open after corruption: %v", err)
			}
			defer s2.Close()
			ce := s2.Recovered()
			if ce == nil {
				t.Fatal("corruption not reported")
			}
			if ce.Path != path || !strings.Contains(ce.Error(), path) || !strings.Contains(ce.Error(), ce.MovedTo) {
				t.Fatalf("error does not name the paths: %v", ce)
			}
			if !strings.HasPrefix(filepath.Base(ce.MovedTo), "ws.db.corrupt-") {
				t.Fatalf("moved to %q", ce.MovedTo)
			}
			moved, err := os.ReadFile(ce.MovedTo)
			if err != nil || string(moved) != string(damaged) {
				t.Fatalf("damaged file not preserved byte for byte at %s: %v", ce.MovedTo, err)
			}
			// SQLite itself discards a WAL it cannot use once it has opened
			// the file, so only a damaged header keeps it for us to move.
			if name == "not a database" {
				if w, err := os.ReadFile(ce.MovedTo + "-wal"); err != nil || string(w) != "stale wal" {
					t.Fatalf("wal not moved along: %q %v", w, err)
				}
			}
			page, err := s2.ListSessions(context.Background(), ListOptions{})
			if err != nil || len(page.Sessions) != 0 {
				t.Fatalf("fresh database: %+v %v", page, err)
			}
			if _, err := s2.CreateSession(context.Background(), NewSession{}); err != nil {
				t.Fatalf("fresh database unusable: %v", err)
			}
		})
	}
}

func TestNewerSchemaIsRefusedAndLeftAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.w.Exec(`PRAGMA user_version = 999`)
	s.Close()
	_, err = Open(path, Options{})
	var ve *VersionError
	if !errors.As(err, &ve) || ve.FileVersion != 999 || !strings.Contains(err.Error(), path) {
		t.Fatalf("got %v, want VersionError naming %s", err, path)
	}
	if matches, _ := filepath.Glob(path + ".corrupt-*"); len(matches) != 0 {
		t.Fatalf("newer database was moved aside: %v", matches)
	}
}

func TestDirectoryInPlaceOfDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.db")
	os.Mkdir(path, 0o755)
	_, err := Open(path, Options{})
	var ue *UnreadableError
	if !errors.As(err, &ue) || ue.Path != path {
		t.Fatalf("got %v, want UnreadableError for %s", err, path)
	}
}

// openResult is what openChild reports to its parent.
type openResult struct {
	Unreadable bool   `json:"unreadable"`
	Corrupt    bool   `json:"corrupt"`
	Error      string `json:"error"`
}

// openChild opens the database named by GOVIBE_STORE_TEST_PATH and prints
// how that went as JSON.
func openChild() {
	var r openResult
	s, err := Open(os.Getenv("GOVIBE_STORE_TEST_PATH"), Options{})
	if err == nil {
		s.Close()
	} else {
		var ue *UnreadableError
		var ce *CorruptError
		r.Unreadable, r.Corrupt, r.Error = errors.As(err, &ue), errors.As(err, &ce), err.Error()
	}
	json.NewEncoder(os.Stdout).Encode(r)
}

func TestUnreadableDatabaseReportedAndUntouched(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ws.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess := mustSession(t, s, NewSession{Title: "mine"})
	if _, err := s.AppendLLMMessages(context.Background(), sess.ID, "", llm.Message{Role: llm.RoleUser, Content: "hi"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	before, _ := os.ReadFile(path)

	var r openResult
	if os.Geteuid() != 0 {
		os.Chmod(path, 0)
		defer os.Chmod(path, 0o644)
		_, err := Open(path, Options{})
		var ue *UnreadableError
		r.Unreadable, r.Error = errors.As(err, &ue), err.Error()
	} else {
		// Root ignores file modes, so open as an unprivileged user in a
		// child process running a copy of this test binary it may execute.
		os.Chmod(path, 0o600)
		for _, d := range []string{dir, filepath.Dir(dir)} {
			os.Chmod(d, 0o755)
		}
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(dir, "store.test")
		data, err := os.ReadFile(exe)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, data, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=open", "GOVIBE_STORE_TEST_PATH="+path, "HOME=/")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("child: %v: %s", err, out)
		}
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("child output %q: %v", out, err)
		}
	}
	if !r.Unreadable || r.Corrupt || !strings.Contains(r.Error, path) || !strings.Contains(r.Error, "permission denied") {
		t.Fatalf("got %+v, want an UnreadableError naming %s and the permission problem", r, path)
	}
	after, _ := os.ReadFile(path)
	if string(after) != string(before) {
		t.Fatal("unreadable database was modified")
	}
	if matches, _ := filepath.Glob(path + ".corrupt-*"); len(matches) != 0 {
		t.Fatalf("unreadable database was moved aside: %v", matches)
	}
}
