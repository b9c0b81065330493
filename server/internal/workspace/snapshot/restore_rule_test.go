package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The restore rule keys on what GoVibe has seen, not on the user's git
// (this replaces the old KeepUntracked rule, under which a file the user's
// git did not track was always kept, agent-made or not):
//   - a file absent from the target that a later snapshot holds with its
//     current content was made during the undone turns: it is deleted;
//   - a file no snapshot holds, or changed since, is the user's: kept and
//     reported;
//   - ignored files are never touched.
func TestRestoreDeletesWhatGoVibeSawAndKeepsTheUsersWork(t *testing.T) {
	for _, inGit := range []bool{true, false} {
		name := "outside a git repository"
		if inGit {
			name = "in a git repository"
		}
		t.Run(name, func(t *testing.T) {
			isolateGitEnv(t)
			root := t.TempDir()
			writeFile(t, root, "a.txt", "a1\n", 0o644)
			writeFile(t, root, ".gitignore", "*.log\n", 0o644)
			if inGit {
				runGit(t, root, "init", "-q")
				runGit(t, root, "add", "-A")
				runGit(t, root, "commit", "-qm", "init")
			}
			s := openTestStore(t, root, Options{})
			ctx := context.Background()
			before, _ := snap(t, s, "before turn 1")

			// Turn 1 (write_file): a new file and an edit. Turn 2 (a shell
			// command): a file in a new directory, and one the user later edits.
			writeFile(t, root, "agent.txt", "made by a tool\n", 0o644)
			writeFile(t, root, "a.txt", "a2\n", 0o644)
			snap(t, s, "after turn 1")
			writeFile(t, root, "gen/out.txt", "made by a shell command\n", 0o644)
			writeFile(t, root, "later-edited.txt", "agent version\n", 0o644)
			snap(t, s, "after turn 2")
			if inGit {
				// Staged by the user's git, yet made by the agent: still deleted.
				runGit(t, root, "add", "agent.txt")
			}

			// Between the last snapshot and the restore the user creates a
			// file, edits an agent-made one, and writes an ignored log.
			writeFile(t, root, "mine.txt", "my work\n", 0o644)
			writeFile(t, root, "later-edited.txt", "user version\n", 0o644)
			writeFile(t, root, "debug.log", "ignored\n", 0o644)

			changes, err := s.Diff(ctx, before.ID)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]ChangeKind{"a.txt": Modified, "agent.txt": Deleted, "gen/out.txt": Deleted,
				"mine.txt": Kept, "later-edited.txt": Kept}
			got := map[string]ChangeKind{}
			for _, c := range changes {
				got[c.Path] = c.Kind
			}
			if len(got) != len(want) {
				t.Fatalf("diff %+v, want %v", changes, want)
			}
			for p, k := range want {
				if got[p] != k {
					t.Fatalf("diff says %s for %s, want %s (%+v)", got[p], p, k, changes)
				}
			}
			res, err := s.Restore(ctx, before.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{"agent.txt", "gen/out.txt", "gen"} {
				if _, err := os.Lstat(filepath.Join(root, p)); !os.IsNotExist(err) {
					t.Errorf("%s survived the restore (%v)", p, err)
				}
			}
			for p, c := range map[string]string{"a.txt": "a1\n", "mine.txt": "my work\n",
				"later-edited.txt": "user version\n", "debug.log": "ignored\n"} {
				if got := readFile(t, root, p); got != c {
					t.Errorf("%s = %q, want %q", p, got, c)
				}
			}
			var kept []string
			for _, c := range res.Kept {
				kept = append(kept, c.Path)
				if c.Reason == "" {
					t.Errorf("kept %s without a reason", c.Path)
				}
			}
			if len(kept) != 2 || kept[0] != "later-edited.txt" || kept[1] != "mine.txt" {
				t.Fatalf("kept %v, want later-edited.txt and mine.txt", kept)
			}
			// The safety snapshot makes the restore undoable, agent files included.
			if _, err := s.Restore(ctx, res.Before.ID); err != nil {
				t.Fatal(err)
			}
			if readFile(t, root, "gen/out.txt") != "made by a shell command\n" || readFile(t, root, "a.txt") != "a2\n" {
				t.Fatal("undoing the restore did not bring the agent's files back")
			}
		})
	}
}

// A restore's own safety snapshot is no evidence: restoring twice in a row
// keeps the user's file both times.
func TestSafetySnapshotsDoNotMakeUserFilesDeletable(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.txt", "a1\n", 0o644)
	s := openTestStore(t, root, Options{})
	ctx := context.Background()
	before, _ := snap(t, s, "before")
	writeFile(t, root, "a.txt", "a2\n", 0o644)
	snap(t, s, "after")
	writeFile(t, root, "mine.txt", "mine\n", 0o644)
	for i := 0; i < 2; i++ {
		if _, err := s.Restore(ctx, before.ID); err != nil {
			t.Fatal(err)
		}
		if readFile(t, root, "mine.txt") != "mine\n" {
			t.Fatalf("restore %d deleted the user's file", i+1)
		}
	}
	// RestoreFile of the directory follows the same rule.
	if _, err := s.RestoreFile(ctx, before.ID, "mine.txt"); err != nil {
		t.Fatal(err)
	}
	if readFile(t, root, "mine.txt") != "mine\n" {
		t.Fatal("RestoreFile deleted the user's file")
	}
}
