package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/shell"
)

func TestFindInFile(t *testing.T) {
	env, root := newEnv(t)
	write(t, filepath.Join(root, "f.go"), "a\nb\nfoo()\nc\nd\ne\nfoo()\nx\r\n")
	write(t, filepath.Join(root, "crlf.txt"), "one\r\ntwo\r\nthree\r\n")
	tool := FindInFile()
	wantOK(t, call(t, tool, env, map[string]any{"filePath": "f.go", "searchString": "foo()"}),
		"occurrence 1 of 2 at line 3, column 1", " 1\ta", ">3\tfoo()", " 5\td", "All occurrences at lines: 3, 7")
	r := call(t, tool, env, map[string]any{"filePath": "f.go", "searchString": "foo()", "occurrence": 2, "contextBefore": 0, "contextAfter": 0})
	wantOK(t, r, "occurrence 2 of 2 at line 7", ">7\tfoo()")
	if strings.Contains(r.Output, "6\te") {
		t.Fatalf("context not honoured:\n%s", r.Output)
	}
	wantOK(t, call(t, tool, env, map[string]any{"filePath": "crlf.txt", "searchString": "one\ntwo"}), ">1\tone", ">2\ttwo")
	wantFail(t, call(t, tool, env, map[string]any{"filePath": "f.go", "searchString": "foo()", "occurrence": 3}), "occurs only 2 time(s)")
	wantFail(t, call(t, tool, env, map[string]any{"filePath": "f.go", "searchString": "FOO()"}), "not found", "case-insensitive match exists")
	wantFail(t, call(t, tool, env, map[string]any{"filePath": "g.go", "searchString": "x"}), "file not found", "Did you mean: f.go")
	wantFail(t, call(t, tool, env, map[string]any{"filePath": "f.go", "searchString": ""}), "must not be empty")
	wantFail(t, call(t, tool, env, map[string]any{"filePath": "f.go"}), "missing required argument(s): searchString")
	// find_in_file counts as a read: the file may now be edited.
	wantOK(t, call(t, Edit(), env, map[string]any{"filePath": "f.go", "startLine": 3, "endLine": 3, "newContent": "bar()"}))
}

func TestWriteFileRoundTrips(t *testing.T) {
	cases := []struct{ name, initial, content, want string }{
		{"crlf kept", "a\r\nb\r\n", "x\ny\n", "x\r\ny\r\n"},
		{"bom kept", "\uFEFFa\n", "b\n", "\uFEFFb\n"},
		{"no final newline kept", "a\nb", "x\ny\n", "x\ny"},
		{"final newline kept", "a\n", "x", "x\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, root := newEnv(t)
			p := filepath.Join(root, "f.txt")
			write(t, p, tc.initial)
			wantOK(t, call(t, ReadFile(), env, map[string]any{"filePath": "f.txt"}))
			wantOK(t, call(t, WriteFile(), env, map[string]any{"filePath": "f.txt", "content": tc.content}), "Overwrote f.txt")
			if got := readBack(t, p); got != tc.want {
				t.Fatalf("got %q want %q", got, tc.want)
			}
		})
	}
	env, root := newEnv(t)
	r := call(t, WriteFile(), env, map[string]any{"filePath": "new/dir/n.txt", "content": "exact\r\ncontent"})
	wantOK(t, r, "Created new/dir/n.txt")
	if readBack(t, filepath.Join(root, "new/dir/n.txt")) != "exact\r\ncontent" {
		t.Fatal("new file content altered")
	}
	write(t, filepath.Join(root, "b.bin"), "\x00\x01")
	env.Files.RecordRead(filepath.Join(root, "b.bin"), []byte("\x00\x01"))
	wantFail(t, call(t, WriteFile(), env, map[string]any{"filePath": "b.bin", "content": "x"}), "binary file")
	wantFail(t, call(t, WriteFile(), env, map[string]any{"filePath": "new", "content": "x"}), "is a folder")
}

func TestDeleteAndCreateDirectory(t *testing.T) {
	env, root := newEnv(t)
	write(t, filepath.Join(root, "gone.txt"), "x\n")
	wantOK(t, call(t, DeleteFile(), env, map[string]any{"filePath": "gone.txt"}), "Deleted gone.txt")
	if _, err := os.Stat(filepath.Join(root, "gone.txt")); !os.IsNotExist(err) {
		t.Fatal("not deleted")
	}
	wantFail(t, call(t, DeleteFile(), env, map[string]any{"filePath": "gone.txt"}), "file not found")
	wantOK(t, call(t, CreateDirectory(), env, map[string]any{"dirPath": "a/b/c"}), "Created folder a/b/c")
	wantOK(t, call(t, CreateDirectory(), env, map[string]any{"dirPath": "a/b/c"}), "already exists")
	wantFail(t, call(t, DeleteFile(), env, map[string]any{"filePath": "a"}), "is a folder")
	wantFail(t, call(t, CreateDirectory(), env, map[string]any{"dirPath": "x/y", "recursive": false}), "parent folder", "recursive=true")
	write(t, filepath.Join(root, "file"), "")
	wantFail(t, call(t, CreateDirectory(), env, map[string]any{"dirPath": "file"}), "is a file")
	wantFail(t, call(t, CreateDirectory(), env, map[string]any{"dirPath": ".git/hooks"}), ".git")
}

func TestListFilesAndGlob(t *testing.T) {
	env, root := newEnv(t)
	write(t, filepath.Join(root, ".gitignore"), "node_modules/\n*.tmp\n")
	write(t, filepath.Join(root, "a.go"), "")
	write(t, filepath.Join(root, "x.tmp"), "")
	write(t, filepath.Join(root, "node_modules/m.js"), "")
	write(t, filepath.Join(root, ".github/ci.yml"), "")
	write(t, filepath.Join(root, ".git/HEAD"), "")
	write(t, filepath.Join(root, "src/b.go"), "")
	write(t, filepath.Join(root, "src/c_test.go"), "")
	r := call(t, ListFiles(), env, map[string]any{})
	wantOK(t, r, ".github/", ".gitignore", "a.go", "src/")
	for _, n := range []string{"x.tmp", "node_modules", ".git/", "b.go"} {
		if strings.Contains(r.Output, n) {
			t.Fatalf("%s listed:\n%s", n, r.Output)
		}
	}
	wantOK(t, call(t, ListFiles(), env, map[string]any{"recursive": true}), "src/b.go", ".github/ci.yml")
	wantOK(t, call(t, ListFiles(), env, map[string]any{"recursive": true, "maxEntries": 2}), "Stopped at 2 entries")
	wantOK(t, call(t, ListFiles(), env, map[string]any{"path": "src"}), "b.go\nc_test.go")
	wantFail(t, call(t, ListFiles(), env, map[string]any{"path": "srx"}), "Did you mean: src")
	wantFail(t, call(t, ListFiles(), env, map[string]any{"path": "a.go"}), "is a file")

	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "src/b.go"), old, old)
	r = call(t, Glob(), env, map[string]any{"pattern": "**/*.go"})
	wantOK(t, r, "3 match(es)")
	if !strings.HasSuffix(r.Output, "src/b.go") {
		t.Fatalf("oldest file should be last:\n%s", r.Output)
	}
	wantOK(t, call(t, Glob(), env, map[string]any{"pattern": "src/*_test.go"}), "1 match(es)", "src/c_test.go")
	wantOK(t, call(t, Glob(), env, map[string]any{"pattern": filepath.ToSlash(root) + "/src/*.go"}), "2 match(es)")
	wantOK(t, call(t, Glob(), env, map[string]any{"pattern": "**/*.js"}), "No files match")
	wantFail(t, call(t, Glob(), env, map[string]any{"pattern": "/etc/*"}), "outside the workspace")
	wantFail(t, call(t, Glob(), env, map[string]any{"pattern": "[a"}), "invalid pattern")
}

func TestWorkspaceAndFileInfo(t *testing.T) {
	env, root := newEnv(t)
	plain := filepath.Join(t.TempDir(), "plain")
	write(t, filepath.Join(plain, "p.txt"), "")
	env.Roots = append(env.Roots, plain)
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	write(t, filepath.Join(root, "crlf.txt"), "\uFEFFa\r\nb\r\n")
	write(t, filepath.Join(root, "mixed.txt"), "a\r\nb\nc")
	write(t, filepath.Join(root, "bad.txt"), "a\n\xff\n")
	write(t, filepath.Join(root, "b.bin"), "\x00\x01\x02")
	r := call(t, GetWorkspaceInfo(), env, map[string]any{})
	wantOK(t, r, "OS: "+runtime.GOOS, "Shell: bash", "Root (default for relative paths): "+root, "Git repository: yes", "crlf.txt", "Root: "+plain, "Git repository: no", "p.txt")

	wantOK(t, call(t, GetFileInfo(), env, map[string]any{"filePath": "crlf.txt"}), "kind: file", "encoding: utf-8 with BOM", "lines: 2", "line endings: CRLF", "final newline: true")
	r = call(t, GetFileInfo(), env, map[string]any{"filePath": "mixed.txt"})
	wantOK(t, r, "line endings: mixed", "lines: 3", "final newline: false")
	if fi := r.Meta.(FileInfo); !fi.Exists || fi.Lines != 3 || fi.Size != 6 {
		t.Fatalf("meta %+v", fi)
	}
	wantOK(t, call(t, GetFileInfo(), env, map[string]any{"filePath": "bad.txt"}), "not valid UTF-8 (first bad byte on line 2)")
	wantOK(t, call(t, GetFileInfo(), env, map[string]any{"filePath": "b.bin"}), "encoding: binary")
	wantOK(t, call(t, GetFileInfo(), env, map[string]any{"filePath": "."}), "kind: directory")
	wantOK(t, call(t, GetFileInfo(), env, map[string]any{"filePath": "crfl.txt"}), "does not exist", "Did you mean: crlf.txt")
	wantFail(t, call(t, GetFileInfo(), env, map[string]any{"filePath": "/etc/passwd"}), "outside the workspace")
}

func TestTextDiff(t *testing.T) {
	env, _ := newEnv(t)
	r := call(t, TextDiff(), env, map[string]any{"original": "a\nb\nc\nd\ne\nf\ng\n", "modified": "a\nb\nc\nD\ne\nf\ng\n", "contextLines": 1})
	wantOK(t, r, "--- original", "+++ modified", "@@ -3,3 +3,3 @@", " c\n-d\n+D\n e")
	if strings.Contains(r.Output, " b\n") {
		t.Fatalf("context not honoured:\n%s", r.Output)
	}
	wantOK(t, call(t, TextDiff(), env, map[string]any{"original": "x", "modified": "x"}), "identical")
	wantFail(t, call(t, TextDiff(), env, map[string]any{"original": "x"}), "missing required argument(s): modified")
}

func TestDiagnostics(t *testing.T) {
	env, root := newEnv(t)
	wantFail(t, call(t, GetDiagnostics(), env, map[string]any{}), "diagnostics are unavailable")
	p := filepath.Join(root, "a.go")
	env.Host = &fakeHost{diags: []Diagnostic{
		{Path: p, Line: 9, Column: 1, Severity: "warning", Message: "unused"},
		{Path: p, Line: 3, Column: 2, Severity: "error", Message: "undefined: x", Source: "compiler"},
		{Path: filepath.Join(root, "b.go"), Line: 1, Column: 1, Severity: "error", Message: "other"},
	}}
	r := call(t, GetDiagnostics(), env, map[string]any{"filePath": "a.go"})
	wantOK(t, r, "2 problem(s):\na.go:3:2: error: undefined: x [compiler]\na.go:9:1: warning: unused")
	wantOK(t, call(t, GetDiagnostics(), env, map[string]any{}), "3 problem(s)", "b.go:1:1: error: other")
	wantOK(t, call(t, GetDiagnostics(), env, map[string]any{"filePath": "c.go"}), "No problems reported for c.go")

	// Diagnostics quote code: a file the Read rules deny is left out.
	env.Readable = func(abs string) error {
		if filepath.Base(abs) == "b.go" {
			return errors.New("not read: denied")
		}
		return nil
	}
	r = call(t, GetDiagnostics(), env, map[string]any{})
	wantOK(t, r, "2 problem(s)", "1 file(s) with problems withheld")
	if strings.Contains(r.Output, "other") {
		t.Fatalf("a denied file's diagnostics leaked: %s", r.Output)
	}
	wantFail(t, call(t, GetDiagnostics(), env, map[string]any{"filePath": "b.go"}), "not read: denied")
}

func TestRunShellCommandTool(t *testing.T) {
	env, root := newEnv(t)
	write(t, filepath.Join(root, "sub/x.txt"), "")
	r := call(t, RunShellCommand(), env, map[string]any{"command": "pwd; ls; echo 'error: boom' >&2; exit 2", "cwd": "sub"})
	if r.OK {
		t.Fatal("non-zero exit must not be OK")
	}
	meta, ok := r.Meta.(ShellMeta)
	var res shell.Result = meta.Result
	if !ok || res.ExitCode != 2 || res.Cwd != "sub" || !strings.Contains(res.Stdout, "x.txt") || len(res.KeyErrors) != 1 {
		t.Fatalf("meta %+v", r.Meta)
	}
	if b, _ := json.Marshal(res); !strings.Contains(string(b), `"keyErrors":["error: boom"]`) || !strings.Contains(string(b), `"durationMs"`) {
		t.Fatalf("json %s", b)
	}
	if !strings.Contains(r.Output, "exit code 2") || !strings.Contains(r.Output, "Key errors:\n  error: boom") {
		t.Fatalf("output:\n%s", r.Output)
	}
	wantFail(t, call(t, RunShellCommand(), env, map[string]any{"command": "ls", "cwd": "../.."}), "outside the workspace")
	wantFail(t, call(t, RunShellCommand(), env, map[string]any{"command": "ls", "cwd": "sbu"}), "Did you mean: sub")
	env.Settings.ShellMaxTimeout = 200
	r = call(t, RunShellCommand(), env, map[string]any{"command": "sleep 5", "timeoutMs": 60000})
	wantFail(t, r, "Timed out after 200ms", "capped")

	env.Settings.ConfirmShell = true
	wantFail(t, call(t, RunShellCommand(), env, map[string]any{"command": "touch made"}), "needs confirmation; not approved")
	ap := &fakeApprover{shell: func(p ShellProposal) ShellDecision {
		if strings.Contains(p.Command, "rm") {
			return ShellDecision{Reason: "no deleting", ByUser: true}
		}
		return ShellDecision{Allowed: true, Command: "echo edited-by-user"}
	}}
	env.Approver = ap
	wantFail(t, call(t, RunShellCommand(), env, map[string]any{"command": "rm -rf sub"}), "denied", "no deleting")
	if _, err := os.Stat(filepath.Join(root, "sub")); err != nil {
		t.Fatal("denied command ran")
	}
	r = call(t, RunShellCommand(), env, map[string]any{"command": "echo original"})
	wantOK(t, r, "$ echo edited-by-user", "edited the command", "edited-by-user")
	if ap.shells[0].Cwd != root {
		t.Fatalf("proposal cwd %q", ap.shells[0].Cwd)
	}
}

func TestShellCancelIsNotOK(t *testing.T) {
	env, _ := newEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	r, err := RunShellCommand().Run(ctx, env, json.RawMessage(`{"command":"sleep 10"}`))
	if err != nil || r.OK || !strings.Contains(r.Output, "Canceled") {
		t.Fatalf("%v %+v", err, r)
	}
}

func TestRegistry(t *testing.T) {
	reg := NewRegistry(Builtin()...)
	want := []string{"read_file", "find_in_file", "grep_search", "list_files", "glob", "get_workspace_info", "get_file_info", "text_diff", "get_diagnostics", "web_fetch", "list_skills", "load_skill", "read_skill_file", "activate_skill", "validate_spec", "ask_human", "show_notification", "edit", "write_file", "delete_file", "create_directory", "run_shell_command"}
	if strings.Join(reg.Names(), ",") != strings.Join(want, ",") {
		t.Fatalf("names %v", reg.Names())
	}
	for _, d := range reg.Defs() {
		var s struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(d.Schema, &s); err != nil || s.Type != "object" || d.Description == "" {
			t.Fatalf("%s: schema %s err %v", d.Name, d.Schema, err)
		}
		for _, r := range s.Required {
			if _, ok := s.Properties[r]; !ok {
				t.Fatalf("%s requires unknown %s", d.Name, r)
			}
		}
	}
	edit, _ := reg.Get("edit")
	var s struct {
		Required []string `json:"required"`
	}
	json.Unmarshal(edit.Schema(), &s)
	if strings.Join(s.Required, ",") != "filePath,startLine,endLine,newContent" {
		t.Fatalf("edit required %v", s.Required)
	}
	if !strings.Contains(string(mustTool(t, reg, "find_in_file").Schema()), `"contextBefore":{"type":"integer","minimum":0,"description":"Lines of context before the match.","default":2}`) {
		t.Fatal("defaults missing from schema")
	}
	ro := reg.Filter(nil, true)
	for _, n := range ro.Names() {
		if tl, _ := ro.Get(n); !tl.ReadOnly() {
			t.Fatalf("%s is not read-only", n)
		}
	}
	if _, ok := ro.Get("edit"); ok || len(ro.Names()) != 17 { // ask_human and show_notification change nothing: read-only
		t.Fatalf("read-only set %v", ro.Names())
	}
	sub := reg.Filter([]string{"edit", "grep_search", "unknown"}, false)
	if strings.Join(sub.Names(), ",") != "grep_search,edit" {
		t.Fatalf("allow-list %v", sub.Names())
	}
	if got := reg.Filter([]string{"edit"}, true).Names(); len(got) != 0 {
		t.Fatalf("allow+readonly %v", got)
	}
}

func mustTool(t *testing.T, r *Registry, name string) Tool {
	tl, ok := r.Get(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	return tl
}

func TestNilTrackerIsAGoError(t *testing.T) {
	env, _ := newEnv(t)
	env.Files = nil
	if _, err := WriteFile().Run(context.Background(), env, json.RawMessage(`{"filePath":"a","content":"b"}`)); err == nil {
		t.Fatal("missing tracker must stop the turn")
	}
}
