package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// export then import gives a new session with the same messages; a file
// that is missing or not an export is refused with a clear error and
// nothing is created.
func TestSessionImportRoundTripAndBadInput(t *testing.T) {
	ws, state := t.TempDir(), t.TempDir()
	common := []string{"--workspace", ws, "--state-dir", state}
	doc := filepath.Join(t.TempDir(), "doc.json")
	gen := exec.Command("go", "run", "../../internal/bench/storebench", "-doc", "6", "-out", doc)
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("storebench -doc: %v\n%s", err, out)
	}
	out, errOut, code := runGovibe(t, nil, append([]string{"session", "import", doc}, common...)...)
	id := strings.TrimSpace(out)
	if code != 0 || id == "" {
		t.Fatalf("import: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	list, _, _ := runGovibe(t, nil, append([]string{"session", "list"}, common...)...)
	if !strings.Contains(list, id) || !strings.Contains(list, "Long session (6 messages)") {
		t.Fatalf("list after import:\n%s", list)
	}

	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"format":"something else"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, want string }{
		{filepath.Join(t.TempDir(), "missing.json"), "no such file"},
		{bad, "govibe session import:"},
	} {
		_, errOut, code := runGovibe(t, nil, append([]string{"session", "import", c.file}, common...)...)
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Fatalf("import %s: exit %d, stderr %q; want an error with %q", c.file, code, errOut, c.want)
		}
	}
	if list2, _, _ := runGovibe(t, nil, append([]string{"session", "list"}, common...)...); strings.Count(list2, "\n") != strings.Count(list, "\n") {
		t.Fatalf("a refused import created a session:\n%s", list2)
	}
	if _, errOut, code := runGovibe(t, nil, "session", "import"); code != 2 || !strings.Contains(errOut, "exactly one argument") {
		t.Fatalf("import without a file: exit %d, %q", code, errOut)
	}
}
