//go:build unix

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Issue 31: a FIFO or a device inside the workspace must never block a
// file tool or be read without bound. Every call below would hang (the
// FIFO: open waits for a writer) or read gigabytes (the device: /dev/zero
// never ends) before the fix; each must now answer at once with an error
// naming the kind.

// promptly runs fn and fails the test when it does not return within a
// few seconds: the hang the fix removes.
func promptly(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not return within 10 s: it blocked on a special file", what)
	}
}

// specialTree makes a workspace holding a FIFO ("pipe"), a character
// device ("zero", the kernel's /dev/zero) when the test may make device
// nodes, a regular file and a FIFO named like a .gitignore further down.
// It returns the names of the special files it could make.
func specialTree(t *testing.T) (*Env, string, []string) {
	t.Helper()
	env, root := newEnv(t)
	write(t, filepath.Join(root, "ok.txt"), "hello fifo\n")
	write(t, filepath.Join(root, "sub", "inner.txt"), "hello again\n")
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "sub", ".gitignore"), 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	names := []string{"pipe"}
	// /dev/zero is major 1, minor 5 on Linux. Only root (with CAP_MKNOD)
	// may make it; a bind mount would need the same privilege, and a
	// symbolic link to /dev/zero is refused by the sandbox already
	// (it resolves outside the workspace), so without the privilege only
	// this sub-case is skipped.
	if err := unix.Mknod(filepath.Join(root, "zero"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 5))); err == nil {
		names = append(names, "zero")
	} else {
		t.Logf("character device sub-case skipped: mknod needs root with CAP_MKNOD (%v)", err)
	}
	return env, root, names
}

func kindWord(name string) string {
	if name == "zero" {
		return "a character device"
	}
	return "a named pipe (FIFO)"
}

func runRaw(t *testing.T, tool Tool, env *Env, args map[string]any) Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	var r Result
	var err error
	promptly(t, tool.Name()+string(raw), func() { r, err = tool.Run(context.Background(), env, raw) })
	if err != nil {
		t.Fatalf("%s(%s): Go error %v", tool.Name(), raw, err)
	}
	return r
}

func TestFileToolsRefuseSpecialFiles(t *testing.T) {
	env, root, names := specialTree(t)
	env.Translator = func(f string, a ...any) string { return "shown: " + fmt.Sprintf(f, a...) }
	for _, name := range names {
		kind := kindWord(name)
		t.Run(name, func(t *testing.T) {
			for _, c := range []struct {
				tool Tool
				args map[string]any
			}{
				{ReadFile(), map[string]any{"filePath": name}},
				{FindInFile(), map[string]any{"filePath": name, "searchString": "x"}},
				{WriteFile(), map[string]any{"filePath": name, "content": "new\n"}},
				{Edit(), map[string]any{"filePath": name, "startLine": 1, "endLine": 0, "newContent": "x"}},
				{GrepSearch(), map[string]any{"pattern": "x", "path": name}},
				{ListFiles(), map[string]any{"path": name}},
			} {
				r := runRaw(t, c.tool, env, c.args)
				wantFail(t, r, name+" is "+kind, "not a regular file")
				if !strings.HasPrefix(r.Display, "shown: ") || !strings.Contains(r.Display, "left alone") {
					t.Errorf("%s: Display %q is not the translated kind message", c.tool.Name(), r.Display)
				}
			}
			r := runRaw(t, GetFileInfo(), env, map[string]any{"filePath": name})
			wantOK(t, r, "kind: other", "type: "+kind)
			// The node is still there, untouched by the refused writes.
			fi, err := os.Lstat(filepath.Join(root, name))
			if err != nil || fi.Mode().IsRegular() {
				t.Fatalf("%s was replaced: %v, %v", name, fi, err)
			}
		})
	}
}

// TestWalkersSkipSpecialFiles: list_files, glob, grep's Go engine and the
// @-autocomplete walker list and search the tree without opening the FIFO
// (or the FIFO standing in for sub/.gitignore).
func TestWalkersSkipSpecialFiles(t *testing.T) {
	env, root, names := specialTree(t)
	env.Settings.RipgrepPath = "/nonexistent/rg" // the Go engine
	r := runRaw(t, ListFiles(), env, map[string]any{"recursive": true})
	wantOK(t, r, "ok.txt", "sub/inner.txt")
	r = runRaw(t, Glob(), env, map[string]any{"pattern": "**"})
	wantOK(t, r, "ok.txt")
	r = runRaw(t, GrepSearch(), env, map[string]any{"pattern": "hello"})
	wantOK(t, r, "ok.txt", "inner.txt")
	if rg := findRipgrep(""); rg != "" {
		// ripgrep skips special files as it walks, but opens every
		// .gitignore it meets, and so blocks on a FIFO one: only the tool
		// call's watchdog bounds that (TestWatchdogStopsAWedgedCall).
		if err := os.Remove(filepath.Join(root, "sub", ".gitignore")); err != nil {
			t.Fatal(err)
		}
		env.Settings.RipgrepPath = rg
		r = runRaw(t, GrepSearch(), env, map[string]any{"pattern": "hello"})
		wantOK(t, r, "ok.txt", "inner.txt")
	}
	for _, name := range names {
		for _, out := range []string{runRaw(t, ListFiles(), env, map[string]any{"recursive": true}).Output, runRaw(t, Glob(), env, map[string]any{"pattern": "*"}).Output} {
			for _, line := range strings.Split(out, "\n") {
				if line == name {
					t.Errorf("%s is listed:\n%s", name, out)
				}
			}
		}
	}
	var seen []string
	promptly(t, "WalkFiles", func() {
		WalkFiles(root, func(rel string) bool { seen = append(seen, rel); return true })
	})
	for _, rel := range seen {
		if fi, err := os.Lstat(filepath.Join(root, rel)); err != nil || fi.Mode().Type()&fs.ModeType != 0 {
			t.Errorf("WalkFiles reported %s, which is not a regular file", rel)
		}
	}
}

// TestValidateSpecRefusesAFIFO: validate_spec reads the change's files by
// name; a FIFO proposal.md is a problem naming its kind, not a hang.
func TestValidateSpecRefusesAFIFO(t *testing.T) {
	env, root := newEnv(t)
	dir := filepath.Join(root, "changes", "c1")
	write(t, filepath.Join(dir, "tasks.md"), "- [ ] 1.1 do it\n")
	if err := syscall.Mkfifo(filepath.Join(dir, "proposal.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runRaw(t, ValidateSpec(), env, map[string]any{"changeId": "c1"})
	wantFail(t, r, "changes/c1/proposal.md: it is a named pipe (FIFO), not a regular file")
}

// TestRipgrepStalledByAFIFOIgnoreFileIsStopped: ripgrep opens every
// .gitignore it walks past, so a FIFO by that name blocks it for good; the
// run is bounded and the search fails with a clear error.
func TestRipgrepStalledByAFIFOIgnoreFileIsStopped(t *testing.T) {
	rg := findRipgrep("")
	if rg == "" {
		t.Skip("ripgrep is not installed")
	}
	env, root, _ := specialTree(t)
	env.Settings.RipgrepPath = rg
	saved := rgTimeout
	rgTimeout = 300 * time.Millisecond
	defer func() { rgTimeout = saved }()
	r := runRaw(t, GrepSearch(), env, map[string]any{"pattern": "hello"})
	wantFail(t, r, "ripgrep did not finish")
	_ = root
}
