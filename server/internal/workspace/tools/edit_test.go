package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// readThenEdit reads path (so edits are allowed) and runs one edit.
func readThenEdit(t *testing.T, env *Env, path string, s, e int, content string) Result {
	t.Helper()
	wantOK(t, call(t, ReadFile(), env, map[string]any{"filePath": path}))
	return call(t, Edit(), env, map[string]any{"filePath": path, "startLine": s, "endLine": e, "newContent": content})
}

func TestEditTable(t *testing.T) {
	cases := []struct {
		name     string
		initial  string
		s, e     int
		content  string
		want     string
		failWith string
	}{
		{name: "replace middle", initial: "a\nb\nc\n", s: 2, e: 2, content: "B\n", want: "a\nB\nc\n"},
		{name: "replace with more lines", initial: "a\nb\nc\n", s: 2, e: 2, content: "x\ny", want: "a\nx\ny\nc\n"},
		{name: "insert before", initial: "a\nb\n", s: 2, e: 1, content: "new", want: "a\nnew\nb\n"},
		{name: "append at end", initial: "a\nb\n", s: 3, e: 2, content: "c", want: "a\nb\nc\n"},
		{name: "delete lines", initial: "a\nb\nc\n", s: 2, e: 3, content: "", want: "a\n"},
		{name: "empty line content", initial: "a\nb\n", s: 1, e: 1, content: "\n", want: "\nb\n"},
		{name: "crlf preserved", initial: "a\r\nb\r\nc\r\n", s: 2, e: 2, content: "x\ny\n", want: "a\r\nx\r\ny\r\nc\r\n"},
		{name: "crlf content normalised", initial: "a\r\nb\r\n", s: 1, e: 1, content: "q\r\nr\r\n", want: "q\r\nr\r\nb\r\n"},
		{name: "bom preserved on line 1", initial: "\uFEFFa\nb\n", s: 1, e: 1, content: "z", want: "\uFEFFz\nb\n"},
		{name: "no final newline kept", initial: "a\nb", s: 2, e: 2, content: "B\n", want: "a\nB"},
		{name: "append without final newline", initial: "a\nb", s: 3, e: 2, content: "c", want: "a\nb\nc"},
		{name: "delete last line without final newline", initial: "a\nb\nc", s: 3, e: 3, content: "", want: "a\nb"},
		{name: "delete everything", initial: "a\nb\n", s: 1, e: 2, content: "", want: ""},
		{name: "mixed endings untouched elsewhere", initial: "a\r\nb\nc\r\nd\r\n", s: 2, e: 2, content: "B", want: "a\r\nB\r\nc\r\nd\r\n"},
		{name: "invalid utf8 elsewhere preserved", initial: "ok\n\xff\xfe\nend\n", s: 3, e: 3, content: "END", want: "ok\n\xff\xfe\nEND\n"},
		{name: "invalid utf8 region refused", initial: "ok\n\xff\xfe\nend\n", s: 2, e: 2, content: "x", failWith: "not valid UTF-8"},
		{name: "past end refused", initial: "a\nb\n", s: 2, e: 5, content: "x", failWith: "past the end of the file, which had 2 lines"},
		{name: "bad range refused", initial: "a\nb\n", s: 2, e: 0, content: "x", failWith: "invalid range"},
		{name: "binary refused", initial: "\x00\x01bin", s: 1, e: 1, content: "x", failWith: "binary file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, root := newEnv(t)
			p := filepath.Join(root, "f.txt")
			write(t, p, tc.initial)
			if tc.failWith != "" {
				// binary files cannot be read; mark them read directly.
				env.Files.RecordRead(p, []byte(tc.initial))
				r := call(t, Edit(), env, map[string]any{"filePath": "f.txt", "startLine": tc.s, "endLine": tc.e, "newContent": tc.content})
				wantFail(t, r, tc.failWith)
				if got := readBack(t, p); got != tc.initial {
					t.Fatalf("refused edit changed the file: %q", got)
				}
				return
			}
			r := readThenEdit(t, env, "f.txt", tc.s, tc.e, tc.content)
			wantOK(t, r, "Edited f.txt")
			if got := readBack(t, p); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			m, ok := r.Meta.(EditMeta)
			if !ok || m.Path != p || m.Before != tc.initial || m.After != tc.want {
				t.Fatalf("meta %+v", r.Meta)
			}
		})
	}
}

func TestEditSafety(t *testing.T) {
	env, root := newEnv(t)
	p := filepath.Join(root, "f.txt")
	write(t, p, "1\n2\n3\n")
	args := map[string]any{"filePath": "f.txt", "startLine": 1, "endLine": 1, "newContent": "one"}

	wantFail(t, call(t, Edit(), env, args), "read f.txt with read_file first", "nothing was written")
	wantFail(t, call(t, WriteFile(), env, map[string]any{"filePath": "f.txt", "content": "x"}), "read f.txt with read_file first")

	wantOK(t, call(t, ReadFile(), env, map[string]any{"filePath": "f.txt"}))
	write(t, p, "1\n2\n3\nchanged by someone\n")
	r := call(t, Edit(), env, map[string]any{"filePath": "f.txt", "startLine": 2, "endLine": 3, "newContent": "x"})
	wantFail(t, r, "changed since you read it; re-read lines 2–3", "nothing was written")
	if readBack(t, p) != "1\n2\n3\nchanged by someone\n" {
		t.Fatal("stale edit wrote")
	}
	wantFail(t, call(t, WriteFile(), env, map[string]any{"filePath": "f.txt", "content": "x"}), "changed since you read it; re-read lines 1–4")

	// A new user message requires a fresh read.
	wantOK(t, call(t, ReadFile(), env, map[string]any{"filePath": "f.txt"}))
	env.Files.ResetTurn()
	wantFail(t, call(t, Edit(), env, args), "read f.txt with read_file first")
}

func TestSeveralEditsUseTheReadNumbering(t *testing.T) {
	env, root := newEnv(t)
	p := filepath.Join(root, "f.txt")
	var b strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "L%d\n", i)
	}
	write(t, p, b.String())
	wantOK(t, call(t, ReadFile(), env, map[string]any{"filePath": "f.txt"}))
	ed := func(s, e int, c string) Result {
		return call(t, Edit(), env, map[string]any{"filePath": "f.txt", "startLine": s, "endLine": e, "newContent": c})
	}
	// Top-down edits in the numbering of the read: each later edit is
	// shifted by what the earlier ones added or removed.
	wantOK(t, ed(2, 2, "two-a\ntwo-b\ntwo-c")) // +2 lines
	wantOK(t, ed(4, 5, ""))                    // delete L4-L5 (-2)
	wantOK(t, ed(7, 6, "before-7"))            // insert before L7
	wantOK(t, ed(7, 7, "seven"))               // replace L7, after that insert
	wantOK(t, ed(1, 0, "head"))                // insert at the top
	wantOK(t, ed(11, 10, "tail"))              // append
	wantOK(t, ed(10, 10, "ten"))               // bottom line
	want := "head\nL1\ntwo-a\ntwo-b\ntwo-c\nL3\nL6\nbefore-7\nseven\nL8\nL9\nten\ntail\n"
	if got := readBack(t, p); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Overlaps with earlier edits of this view are refused, nothing written.
	for _, o := range [][2]int{{2, 2}, {1, 3}, {5, 5}, {3, 4}, {10, 10}, {7, 7}} {
		wantFail(t, ed(o[0], o[1], "zzz"), "overlap your earlier edit", "re-read the file", "nothing was written")
	}
	wantFail(t, ed(5, 4, "inside a deleted range"), "overlap")
	if got := readBack(t, p); got != want {
		t.Fatalf("refused overlap changed the file: %q", got)
	}
	// Untouched line 3 is still addressable by its read number.
	wantOK(t, ed(3, 3, "three"))
	// A fresh read resets the numbering to the current file.
	wantOK(t, call(t, ReadFile(), env, map[string]any{"filePath": "f.txt"}))
	wantOK(t, ed(1, 1, "HEAD"))
	want = "HEAD\nL1\ntwo-a\ntwo-b\ntwo-c\nthree\nL6\nbefore-7\nseven\nL8\nL9\nten\ntail\n"
	if got := readBack(t, p); got != want {
		t.Fatalf("after re-read got\n%s", got)
	}
}

func TestEditNewFileAndMode(t *testing.T) {
	env, root := newEnv(t)
	r := call(t, Edit(), env, map[string]any{"filePath": "pkg/sub/new.go", "startLine": 1, "endLine": 0, "newContent": "package sub\n"})
	wantOK(t, r, "Created pkg/sub/new.go")
	if got := readBack(t, filepath.Join(root, "pkg/sub/new.go")); got != "package sub\n" {
		t.Fatalf("got %q", got)
	}
	if m := r.Meta.(EditMeta); !m.Created || m.Before != "" {
		t.Fatalf("meta %+v", m)
	}
	// Editing the file just created needs no read.
	wantOK(t, call(t, Edit(), env, map[string]any{"filePath": "pkg/sub/new.go", "startLine": 2, "endLine": 1, "newContent": "// more"}))
	wantFail(t, call(t, Edit(), env, map[string]any{"filePath": "pkg/sub/nope.go", "startLine": 3, "endLine": 3, "newContent": "x"}), "file not found", "startLine=1, endLine=0")

	script := filepath.Join(root, "run.sh")
	write(t, script, "#!/bin/sh\necho hi\n")
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	wantOK(t, readThenEdit(t, env, "run.sh", 2, 2, "echo bye"))
	if fi, _ := os.Stat(script); fi.Mode().Perm() != 0o755 {
		t.Fatalf("mode lost: %v", fi.Mode())
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".govibe-") {
			t.Fatalf("temp file left behind: %s", e.Name())
		}
	}
}

func TestEditThroughSymlinkKeepsLink(t *testing.T) {
	env, root := newEnv(t)
	target := filepath.Join(root, "real.txt")
	write(t, target, "a\n")
	link := filepath.Join(root, "link.txt")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	wantOK(t, readThenEdit(t, env, "link.txt", 1, 1, "b"))
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("symlink replaced by a file")
	}
	if readBack(t, target) != "b\n" {
		t.Fatal("target not written")
	}
}

func TestWriteGuards(t *testing.T) {
	env, root := newEnv(t)
	write(t, filepath.Join(root, ".git", "config"), "[core]\n")
	write(t, filepath.Join(root, "a.txt"), "a\n")
	wantFail(t, call(t, WriteFile(), env, map[string]any{"filePath": ".git/config", "content": "x"}), ".git")
	wantFail(t, call(t, Edit(), env, map[string]any{"filePath": "../x.txt", "startLine": 1, "endLine": 0, "newContent": "x"}), "outside the workspace")

	env.Settings.EditEnabled = false
	for _, c := range []struct {
		tool Tool
		args map[string]any
	}{
		{Edit(), map[string]any{"filePath": "a.txt", "startLine": 1, "endLine": 1, "newContent": "x"}},
		{WriteFile(), map[string]any{"filePath": "a.txt", "content": "x"}},
		{DeleteFile(), map[string]any{"filePath": "a.txt"}},
		{CreateDirectory(), map[string]any{"dirPath": "d"}},
		{RunShellCommand(), map[string]any{"command": "touch z"}},
	} {
		wantFail(t, call(t, c.tool, env, c.args), "edits are disabled by the user")
	}
	if readBack(t, filepath.Join(root, "a.txt")) != "a\n" {
		t.Fatal("disabled write changed the file")
	}
	for _, n := range []string{"d", "z"} {
		if _, err := os.Stat(filepath.Join(root, n)); err == nil {
			t.Fatalf("%s created while edits were disabled", n)
		}
	}
}

func TestConfirmation(t *testing.T) {
	setup := func(t *testing.T) (*Env, string, *fakeApprover) {
		env, root := newEnv(t)
		env.Settings.ConfirmChanges = true
		write(t, filepath.Join(root, "f.txt"), "a\nb\n")
		wantOK(t, call(t, ReadFile(), env, map[string]any{"filePath": "f.txt"}))
		ap := &fakeApprover{}
		env.Approver = ap
		return env, filepath.Join(root, "f.txt"), ap
	}
	edit := map[string]any{"filePath": "f.txt", "startLine": 1, "endLine": 1, "newContent": "A"}

	t.Run("no approver", func(t *testing.T) {
		env, p, _ := setup(t)
		env.Approver = nil
		wantFail(t, call(t, Edit(), env, edit), "needs confirmation; not approved")
		if readBack(t, p) != "a\nb\n" {
			t.Fatal("written without approval")
		}
	})
	t.Run("rejected with note", func(t *testing.T) {
		env, p, ap := setup(t)
		ap.edit = func(EditProposal) EditDecision { return EditDecision{Note: "use uppercase B instead"} }
		wantFail(t, call(t, Edit(), env, edit), "rejected", "use uppercase B instead")
		if readBack(t, p) != "a\nb\n" {
			t.Fatal("written after rejection")
		}
	})
	t.Run("accepted content is written with note", func(t *testing.T) {
		env, p, ap := setup(t)
		var calls atomic.Int32
		ap.edit = func(pr EditProposal) EditDecision {
			if pr.Original != "a\nb\n" || pr.Proposed != "A\nb\n" || pr.Path != p || pr.RelPath != "f.txt" || pr.Tool != "edit" {
				t.Errorf("proposal %+v", pr)
			}
			calls.Add(1)
			return EditDecision{Accepted: true, Content: "A\nb\n", Note: "looks good"}
		}
		r := call(t, Edit(), env, edit)
		wantOK(t, r, "looks good")
		if readBack(t, p) != "A\nb\n" || calls.Load() != 1 {
			t.Fatal("accepted edit not written")
		}
	})
	t.Run("user-modified content wins and forces a re-read", func(t *testing.T) {
		env, p, ap := setup(t)
		ap.edit = func(EditProposal) EditDecision { return EditDecision{Accepted: true, Content: "mine\nb\n"} }
		wantOK(t, call(t, Edit(), env, edit), "modified your change")
		if readBack(t, p) != "mine\nb\n" {
			t.Fatal("user's content not written")
		}
		wantFail(t, call(t, Edit(), env, map[string]any{"filePath": "f.txt", "startLine": 2, "endLine": 2, "newContent": "x"}), "read f.txt with read_file first")
	})
	t.Run("applied by the editor is not written again", func(t *testing.T) {
		env, p, ap := setup(t)
		ap.edit = func(EditProposal) EditDecision {
			write(t, p, "A\nb\n") // the editor saved it
			return EditDecision{Accepted: true, Applied: true, Content: "A\nb\n"}
		}
		r := call(t, Edit(), env, edit)
		wantOK(t, r)
		if readBack(t, p) != "A\nb\n" || r.Meta.(EditMeta).After != "A\nb\n" {
			t.Fatal("applied content wrong")
		}
	})
	t.Run("file changed while waiting", func(t *testing.T) {
		env, p, ap := setup(t)
		ap.edit = func(EditProposal) EditDecision {
			write(t, p, "someone else\n")
			return EditDecision{Accepted: true, Content: "A\nb\n"}
		}
		wantFail(t, call(t, Edit(), env, edit), "changed while waiting", "nothing was written")
		if readBack(t, p) != "someone else\n" {
			t.Fatal("stale proposal written")
		}
	})
	t.Run("delete needs confirmation", func(t *testing.T) {
		env, p, ap := setup(t)
		ap.edit = func(pr EditProposal) EditDecision { return EditDecision{Accepted: pr.Delete} }
		r := call(t, DeleteFile(), env, map[string]any{"filePath": "f.txt"})
		wantOK(t, r, "Deleted f.txt")
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatal("file still there")
		}
		if m := r.Meta.(EditMeta); !m.Deleted || m.Before != "a\nb\n" {
			t.Fatalf("meta %+v", m)
		}
	})
}

func TestBeforeMutationOncePerTurn(t *testing.T) {
	env, root := newEnv(t)
	var n atomic.Int32
	env.BeforeMutation = func(context.Context) { n.Add(1) }
	write(t, filepath.Join(root, "f.txt"), "a\n")
	wantOK(t, readThenEdit(t, env, "f.txt", 1, 1, "b"))
	wantOK(t, call(t, WriteFile(), env, map[string]any{"filePath": "g.txt", "content": "g"}))
	wantOK(t, call(t, CreateDirectory(), env, map[string]any{"dirPath": "d/e"}))
	if n.Load() != 1 {
		t.Fatalf("BeforeMutation called %d times in one turn", n.Load())
	}
	env.TurnID = "t2"
	wantOK(t, call(t, DeleteFile(), env, map[string]any{"filePath": "g.txt"}))
	if n.Load() != 2 {
		t.Fatalf("BeforeMutation not called for the new turn (%d)", n.Load())
	}
}
