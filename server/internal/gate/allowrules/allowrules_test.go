package allowrules

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestAddListRevoke(t *testing.T) {
	path := filepath.Join(t.TempDir(), "govibe", "allow-rules.json")
	f := Open(path)
	if rs := f.Rules(); len(rs) != 0 {
		t.Fatalf("missing file holds %v", rs)
	}
	added, err := f.Add("Bash(go test:*)", "mcp__files__read", "mcp__files__*", "Bash(go test:*)")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Bash(go test:*)", "mcp__files__read", "mcp__files__*"}; !reflect.DeepEqual(added, want) {
		t.Fatalf("added %v, want %v", added, want)
	}
	if again, _ := f.Add("Bash(go test:*)"); len(again) != 0 {
		t.Fatalf("a rule already present was added again: %v", again)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode: %v %v", fi, err)
	}
	// Another process (or a second File) sees the rules.
	if got := Open(path).Rules(); len(got) != 3 {
		t.Fatalf("reopened: %v", got)
	}
	if err := f.Revoke("mcp__files__read"); err != nil {
		t.Fatal(err)
	}
	if got := f.Rules(); !reflect.DeepEqual(got, []string{"Bash(go test:*)", "mcp__files__*"}) {
		t.Fatalf("after revoke: %v", got)
	}
	if err := f.Revoke("Bash(nope)"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("revoking an absent rule: %v", err)
	}
}

func TestInvalidRulesAddNothing(t *testing.T) {
	f := Open(filepath.Join(t.TempDir(), "a.json"))
	for _, bad := range []string{"", "Bash(go test", "Grep(x)", "mcp__bad name__*", "WebFetch(go.dev)"} {
		if _, err := f.Add("Bash(ls:*)", bad); err == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
	if rs := f.Rules(); len(rs) != 0 {
		t.Fatalf("an invalid batch added %v", rs)
	}
}

// A file the user broke by hand is reported, applies no rule, and is not
// overwritten by the next "Always allow".
func TestMalformedFileIsReportedAndKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "allow-rules.json")
	if err := os.WriteFile(path, []byte(`{"rules": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	f := Open(path)
	if _, err := f.List(); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("malformed file: %v", err)
	}
	if rs := f.Rules(); len(rs) != 0 {
		t.Fatalf("rules from a malformed file: %v", rs)
	}
	if _, err := f.Add("Bash(ls:*)"); err == nil {
		t.Fatal("added to a malformed file")
	}
	if b, _ := os.ReadFile(path); string(b) != `{"rules": [` {
		t.Fatalf("malformed file overwritten: %s", b)
	}
	// A hand-written invalid entry is skipped, the others apply.
	if err := os.WriteFile(path, []byte(`{"version":1,"rules":[{"rule":"Bash(ls:*)"},{"rule":"Nope(x)"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if rs := f.Rules(); !reflect.DeepEqual(rs, []string{"Bash(ls:*)"}) {
		t.Fatalf("rules: %v", rs)
	}
}

func TestNoPathHoldsNothing(t *testing.T) {
	var f *File
	if f.Rules() != nil && len(f.Rules()) != 0 {
		t.Fatal("nil file has rules")
	}
	if _, err := Open("").Add("Bash(ls)"); err == nil {
		t.Fatal("added without a file")
	}
}
