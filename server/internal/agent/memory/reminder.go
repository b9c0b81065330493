package memory

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/workspace/safefile"
	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

// Project memory's L2 level (.govibe/memory/L2-inventory.md) lists the
// project's files, one line each. Nothing injects it; the model reads it
// on demand. To keep it true, a turn that changed files (its own writes,
// its executors', its shell commands': whatever the turn's before-snapshot
// and the working tree differ by) and left some of them out of the
// inventory gets a reminder in the next message's context block, once.
// The model then edits the inventory like any file, through the normal
// diff confirmation.

// Reminder records a turn's inventory gaps as session state and gives
// them back once. Safe for concurrent use (its state is session state).
type Reminder struct {
	state sessionstate.KV
	roots []string
	log   *zap.Logger
}

// NewReminder returns the reminder of an engine whose workspace roots are
// roots.
func NewReminder(st sessionstate.KV, roots []string, log *zap.Logger) *Reminder {
	if log == nil {
		log = zap.NewNop()
	}
	return &Reminder{state: st, roots: roots, log: log}
}

// TurnChanges is what a turn changed in one root: Diff compares the
// turn's before-snapshot of Root with the working tree.
type TurnChanges struct {
	Root string
	Diff func(context.Context) ([]snapshot.Change, error)
}

// L2Inventory is the inventory's path inside a workspace root.
var L2Inventory = filepath.Join(".govibe", "memory", "L2-inventory.md")

// maxReminderFiles bounds the names one reminder carries.
const maxReminderFiles = 20

// Note compares what a turn of session sid changed with the inventory of
// each root that has one, and records the gaps for the next context block.
// maxInventory bounds the inventory file read after a turn.
const maxInventory = 8 << 20

func (r *Reminder) Note(ctx context.Context, sid string, turn []TurnChanges) {
	var gaps []string
	for _, ref := range turn {
		inv, err := safefile.ReadFile(filepath.Join(ref.Root, L2Inventory), maxInventory)
		if err != nil {
			continue // no memory in this root
		}
		changes, err := ref.Diff(ctx)
		if err != nil {
			r.log.Warn("memory reminder: diffing the turn", zap.Error(err))
			continue
		}
		prefix := ""
		if len(r.roots) > 1 {
			prefix = filepath.Base(ref.Root) + "/"
		}
		gaps = append(gaps, inventoryGaps(string(inv), changes, prefix)...)
	}
	if len(gaps) == 0 {
		return
	}
	old := sessionstate.Lookup(ctx, r.state, sid, sessionstate.MemoryReminder)
	if err := sessionstate.Set(ctx, r.state, sid, sessionstate.MemoryReminder, mergeSorted(old, gaps)); err != nil {
		r.log.Warn("memory reminder", zap.Error(err))
	}
}

// inventoryGaps names, as "+path", the files a diff created or changed
// that the inventory does not mention, and as "-path" the files it
// removed that the inventory still mentions. Diff kinds read backwards:
// they say what restoring the snapshot would do.
func inventoryGaps(inv string, changes []snapshot.Change, prefix string) []string {
	var out []string
	for _, c := range changes {
		if strings.HasPrefix(c.Path, ".govibe/") {
			continue // the memory itself, commands, skills
		}
		listed := mentionsPath(inv, c.Path)
		switch c.Kind {
		case snapshot.Deleted, snapshot.Modified: // created or changed by the turn
			if !listed {
				out = append(out, "+"+prefix+c.Path)
			}
		case snapshot.Recreated: // removed by the turn
			if listed {
				out = append(out, "-"+prefix+c.Path)
			}
		}
	}
	return out
}

// mentionsPath reports whether text names path as a whole path, not as
// the tail of a longer one (a.go is not listed by data.go).
func mentionsPath(text, path string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], path)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(path)
		before := at == 0 || !isPathChar(text[at-1])
		after := end == len(text) || !isPathChar(text[end])
		if before && after {
			return true
		}
		i = at + 1
	}
}

func isPathChar(c byte) bool {
	return c == '/' || c == '.' || c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func mergeSorted(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range append(append([]string{}, a...), b...) {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

// Take returns the context block's memory line and forgets the gaps: the
// reminder is given once.
func (r *Reminder) Take(ctx context.Context, sid string) string {
	gaps := sessionstate.Lookup(ctx, r.state, sid, sessionstate.MemoryReminder)
	if len(gaps) == 0 {
		return ""
	}
	if err := sessionstate.Delete(ctx, r.state, sid, sessionstate.MemoryReminder); err != nil {
		r.log.Warn("memory reminder", zap.Error(err))
	}
	return memoryLine(gaps)
}

func memoryLine(gaps []string) string {
	var added, removed []string
	for _, g := range gaps {
		if strings.HasPrefix(g, "-") {
			removed = append(removed, g[1:])
		} else {
			added = append(added, strings.TrimPrefix(g, "+"))
		}
	}
	list := func(xs []string) string {
		if len(xs) > maxReminderFiles {
			return strings.Join(xs[:maxReminderFiles], ", ") + fmt.Sprintf(" and %d more", len(xs)-maxReminderFiles)
		}
		return strings.Join(xs, ", ")
	}
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "does not list "+list(added))
	}
	if len(removed) > 0 {
		parts = append(parts, "still lists removed "+list(removed))
	}
	return fmt.Sprintf("Memory: %s %s; update it (one line per file).", filepath.ToSlash(L2Inventory), strings.Join(parts, " and "))
}
