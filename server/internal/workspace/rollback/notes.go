package rollback

import (
	"context"
	"fmt"
	"strings"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

// A restore leaves two records: a sentence for the user in the chat, and a
// note for the model in its own track telling it what changed under it.
// They differ because they are read by different readers: the user wants
// "what happened to my files", the model needs paths and what to re-read.

// restoreNotice is the user's sentence, e.g. "Restored 3 files to before
// “Fix the bug”; 1 file of yours kept".
func (m *Manager) restoreNotice(turnText string, changed, kept, folders int) string {
	tr := m.host.Tr
	var b strings.Builder
	switch {
	case changed == 0 && turnText != "":
		b.WriteString(tr("Nothing to restore: the files already match the state before “%s”", turnText))
	case changed == 0:
		b.WriteString(tr("Nothing to restore: the files already match the snapshot"))
	case folders > 1 && turnText != "":
		b.WriteString(tr("Restored %s in %d folders to before “%s”", m.files(changed), folders, turnText))
	case turnText != "":
		b.WriteString(tr("Restored %s to before “%s”", m.files(changed), turnText))
	default:
		b.WriteString(tr("Restored %s from the snapshot", m.files(changed)))
	}
	if kept == 1 {
		b.WriteString(tr("; 1 file of yours kept"))
	} else if kept > 1 {
		b.WriteString(tr("; %d files of yours kept", kept))
	}
	return b.String()
}

func (m *Manager) files(n int) string {
	if n == 1 {
		return m.host.Tr("1 file")
	}
	return m.host.Tr("%d files", n)
}

// maxNotedPaths bounds the paths listed to the model.
const maxNotedPaths = 30

// turnRestoreNote is the model's note after a turn was rolled back.
func turnRestoreNote(turnText string, r TurnRestore) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The user rolled the workspace back to how it was before their message %q.", turnText)
	writeChanges(&b, r.Roots)
	b.WriteString(" Whatever you changed from that message on is undone; re-read files before editing them.")
	return b.String()
}

// writeChanges lists what a restore did, per root, for the model: at most
// maxNotedPaths paths, then how many more there are in all roots.
func writeChanges(b *strings.Builder, roots []RootRestore) {
	listed, total := 0, 0
	for _, r := range roots {
		n := len(r.Changed) + len(r.Kept)
		total += n
		if n == 0 || listed == maxNotedPaths {
			continue
		}
		if len(roots) > 1 {
			fmt.Fprintf(b, "\nIn %s:", r.Root)
		}
		for _, c := range r.Changed {
			if listed == maxNotedPaths {
				break
			}
			listed++
			fmt.Fprintf(b, "\n- %s %s", c.Path, c.Kind)
		}
		for _, c := range r.Kept {
			if listed == maxNotedPaths {
				break
			}
			listed++
			fmt.Fprintf(b, "\n- %s kept as the user has it", c.Path)
		}
	}
	if total > listed {
		fmt.Fprintf(b, "\n- … and %d more", total-listed)
	}
	if total == 0 {
		b.WriteString(" No file differed, so nothing changed.")
	}
	b.WriteString("\n")
}

// snapshotRestoreNote is the model's note after a restore from the
// Snapshots view (a whole snapshot, or one file of it).
func snapshotRestoreNote(info snapshot.Info, root, file string, res snapshot.RestoreResult) string {
	var b strings.Builder
	what := "the workspace folder " + root
	if file != "" {
		what = file
	}
	fmt.Fprintf(&b, "The user restored %s to the snapshot taken %s", what, info.Time.Format("2006-01-02 15:04:05"))
	if info.Message != "" {
		fmt.Fprintf(&b, " (%q)", info.Message)
	}
	b.WriteString(".")
	writeChanges(&b, []RootRestore{{Root: root, Changed: res.Changed, Kept: res.Kept}})
	b.WriteString("Re-read files before editing them.")
	return b.String()
}

// addRestoreNotes puts userText in the chat (UI track only) and modelText
// in the model's track, linked to the notice, and forgets what the model
// read: those reads may be stale now.
func (m *Manager) addRestoreNotes(ctx context.Context, sid, userText, modelText string) {
	if sid == "" {
		return
	}
	if err := m.addNotes(ctx, sid, userText, modelText); err != nil {
		m.log.Warn("recording a restore in the session", zap.String("session", sid), zap.Error(err))
	}
	m.host.ForgetReads(sid)
}

func (m *Manager) addNotes(ctx context.Context, sid, userText, modelText string) error {
	msg, err := m.store.AppendMessage(ctx, sid, store.NewMessage{Role: store.RoleEvent, Status: store.StatusDone,
		Parts: []store.Part{{Kind: store.PartNotice, Notice: &store.Notice{Level: store.NoticeInfo, Text: userText}}}})
	if err != nil {
		return err
	}
	if _, err := m.store.AppendLLMMessages(ctx, sid, msg.ID, llm.Message{Role: llm.RoleUser, Content: "<context>\n" + modelText + "\n</context>"}); err != nil {
		return err
	}
	m.host.PublishNotice(sid, msg, userText)
	return nil
}
