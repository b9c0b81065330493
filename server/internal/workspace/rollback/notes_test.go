package rollback

import (
	"fmt"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/host/i18n"
	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

func TestRestoreNoticeIsWrittenForPeople(t *testing.T) {
	h := newFakeHost()
	m := New(h, nil, Options{})
	for _, tc := range []struct {
		lang                   i18n.Lang
		text                   string
		changed, kept, folders int
		want                   string
	}{
		{i18n.English, "Fix the bug", 3, 1, 1, "Restored 3 files to before “Fix the bug”; 1 file of yours kept"},
		{i18n.English, "Fix the bug", 3, 2, 2, "Restored 3 files in 2 folders to before “Fix the bug”; 2 files of yours kept"},
		{i18n.English, "Fix the bug", 1, 0, 1, "Restored 1 file to before “Fix the bug”"},
		{i18n.English, "Fix the bug", 0, 0, 0, "Nothing to restore: the files already match the state before “Fix the bug”"},
		{i18n.English, "", 2, 0, 1, "Restored 2 files from the snapshot"},
		{i18n.English, "", 0, 0, 0, "Nothing to restore: the files already match the snapshot"},
		{i18n.Chinese, "修复", 3, 1, 2, "已将 2 个文件夹中的 3 个文件恢复到“修复”之前；保留了您的 1 个文件"},
	} {
		h.lang = tc.lang
		if got := m.restoreNotice(tc.text, tc.changed, tc.kept, tc.folders); got != tc.want {
			t.Errorf("%s %d/%d/%d: %q, want %q", tc.lang, tc.changed, tc.kept, tc.folders, got, tc.want)
		}
	}
}

// The model's note lists at most maxNotedPaths paths, then how many more.
func TestModelNoteBoundsThePathsListed(t *testing.T) {
	var r RootRestore
	for i := 0; i < 33; i++ {
		r.Changed = append(r.Changed, snapshot.Change{Path: fmt.Sprintf("f%02d.txt", i), Kind: snapshot.Modified})
	}
	r.Kept = []snapshot.Change{{Path: "big.bin", Kind: snapshot.Kept}, {Path: "huge.bin", Kind: snapshot.Kept}}
	note := turnRestoreNote("Fix it", TurnRestore{Roots: []RootRestore{r}})
	if n := strings.Count(note, "\n- f"); n != maxNotedPaths {
		t.Errorf("%d paths listed", n)
	}
	if strings.Contains(note, "big.bin") || !strings.Contains(note, "\n- … and 5 more\n") {
		t.Errorf("33 changed and 2 kept, 30 listed: the note must say 5 more: %q", note)
	}
	if !strings.HasPrefix(note, `The user rolled the workspace back to how it was before their message "Fix it".`) || strings.Contains(note, "\nIn ") {
		t.Errorf("one root is not named: %q", note)
	}
}

// Over several roots, the count covers every root, and a root whose
// paths all fall past the limit is not named.
func TestModelNoteCountsEveryRootPastTheLimit(t *testing.T) {
	var a, b, c RootRestore
	a.Root, b.Root, c.Root = "/w/a", "/w/b", "/w/c"
	for i := 0; i < 28; i++ {
		a.Changed = append(a.Changed, snapshot.Change{Path: fmt.Sprintf("a%02d", i), Kind: snapshot.Modified})
	}
	for i := 0; i < 4; i++ {
		b.Changed = append(b.Changed, snapshot.Change{Path: fmt.Sprintf("b%d", i), Kind: snapshot.Deleted})
	}
	c.Kept = []snapshot.Change{{Path: "c0", Kind: snapshot.Kept}}
	note := writeNote([]RootRestore{a, b, c})
	if strings.Count(note, "\n- ") != maxNotedPaths+1 || !strings.Contains(note, "\nIn /w/b:\n- b0 ") ||
		strings.Contains(note, "b2") || strings.Contains(note, "/w/c") || !strings.HasSuffix(note, "\n- … and 3 more\n") {
		t.Errorf("28+4+1 paths, 30 listed: %q", note)
	}
	if got := writeNote([]RootRestore{{Root: "/w/a"}}); got != " No file differed, so nothing changed.\n" {
		t.Errorf("nothing changed: %q", got)
	}
}

func writeNote(roots []RootRestore) string {
	var b strings.Builder
	writeChanges(&b, roots)
	return b.String()
}

func TestFirstLineOfTheTurn(t *testing.T) {
	for in, want := range map[string]string{
		"Fix the bug\nin the parser": "Fix the bug",
		"crlf\r\nnext":               "crlf",
		strings.Repeat("é", 100):     strings.Repeat("é", 79) + "…",
		"":                           "",
	} {
		if got := firstLine(in, 80); got != want {
			t.Errorf("firstLine(%q) = %q, want %q", in, got, want)
		}
	}
}
