package approval

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/govibe/govibe/server/internal/gate/permission"
	"github.com/govibe/govibe/server/internal/workspace/safefile"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// protected paths always ask, even under auto-approve: they configure
// tools, CI or GoVibe itself. The project memory (.govibe/memory/) is
// plain text that configures nothing, like AGENTS.md: its edits are
// ordinary ones, so headless /init needs only --approve edits (the write
// that creates it asks in the editor, memory.go).
func protected(rel string) bool {
	rel = cleanRel(rel)
	base := path.Base(rel)
	switch {
	case strings.HasPrefix(rel, ".vscode/") && strings.HasSuffix(rel, ".json"):
		return true
	case strings.HasPrefix(rel, memoryDir):
		return false
	case rel == ".govibe" || strings.HasPrefix(rel, ".govibe/"):
		return true
	case strings.HasPrefix(base, ".git") && base != ".gitkeep":
		return true // .gitignore, .gitattributes, .gitmodules
	case strings.HasPrefix(rel, ".github/workflows/"), rel == ".gitlab-ci.yml", strings.HasPrefix(rel, ".circleci/"), rel == "azure-pipelines.yml", rel == "Jenkinsfile":
		return true
	}
	return false
}

const memoryDir = ".govibe/memory/"

func cleanRel(rel string) string {
	return strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(rel, `\`, "/")), "/")
}

// memoryInPlace is false for a memory path that is a symbolic link or
// lies in a linked folder (.govibe, .govibe/memory, …): its target may be
// a protected file.
func memoryInPlace(rel, abs string) bool {
	rel = cleanRel(rel)
	if !strings.HasPrefix(rel, memoryDir) {
		return true
	}
	for d := abs; rel != "."; d, rel = filepath.Dir(d), path.Dir(rel) {
		if fi, err := os.Lstat(d); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return false
		}
	}
	return true
}

// ConfirmEdit decides an edit: permission rules, the edit review (whose
// rejection goes back to the model without bothering the user), then the
// headless policy, auto-approve, or the user. An edit whose review was
// unavailable is never applied without a human.
func (a *Approver) ConfirmEdit(ctx context.Context, p tools.EditProposal) (tools.EditDecision, error) {
	cs := a.x.host.Settings()
	isProtected := protected(p.RelPath) || !memoryInPlace(p.RelPath, p.Path)
	// Creating the project memory asks the user like a protected file
	// does (memory.go); headless, the approve flag decides as for any edit.
	newMemory := createsMemory(p.RelPath, p.Path, p.IsNew)
	asks := isProtected || newMemory
	perm, permWhy := a.evaluate(a.x.workspace(""), permission.Action{Tool: permission.ToolEdit, Path: p.Path})
	if perm.Verdict == permission.Deny {
		return tools.EditDecision{Note: "not applied: " + permWhy + " for " + p.RelPath + ".",
			Display: a.x.host.Tr("Not applied: your permission rule %s denies changing %s.", perm.Rule.String(), p.RelPath)}, nil
	}
	card, rejection, err := a.x.reviewers.Edit(ctx, a.target("edit "+p.RelPath), a.t.Request, p)
	if err != nil {
		return tools.EditDecision{}, err
	}
	if rejection != "" {
		return tools.EditDecision{Note: rejection}, nil
	}
	var needHuman []string
	if perm.Verdict == permission.Ask {
		needHuman = append(needHuman, permWhy)
	}
	if card != nil && card.Unavailable != "" {
		needHuman = append(needHuman, "review unavailable: "+card.Unavailable)
	}
	if why := hookAsk(ctx); why != "" {
		needHuman = append(needHuman, why)
	}
	ruleAllows := perm.Verdict == permission.Allow
	hooked := hookAllow(ctx, perm.Verdict)
	if a.x.opts.Headless {
		switch {
		case len(needHuman) > 0:
			return tools.EditDecision{Note: "not applied: " + strings.Join(needHuman, "; ") + ", and this headless run cannot ask the user.",
				Display: a.x.host.Tr("Not applied: this change of %s needs a person's approval, and a headless run cannot ask for it.", p.RelPath)}, nil
		case isProtected && a.x.opts.Approve != "all":
			return tools.EditDecision{Note: p.RelPath + " is a protected file; headless runs change it only with --approve all.",
				Display: a.x.host.Tr("Not applied: %s is a protected file; headless runs change it only with --approve all.", p.RelPath)}, nil
		case ruleAllows:
			return tools.EditDecision{Accepted: true, Content: p.Proposed, Auto: editRuleApproval(perm)}, nil
		case hooked != nil:
			return tools.EditDecision{Accepted: true, Content: p.Proposed, Auto: hooked}, nil
		case a.x.opts.Approve == "edits" || a.x.opts.Approve == "all":
			return tools.EditDecision{Accepted: true, Content: p.Proposed, Auto: &tools.AutoApproval{By: tools.AutoByFlag, Detail: "--approve " + a.x.opts.Approve}}, nil
		default:
			return tools.EditDecision{Note: "not applied: this headless run does not approve edits (use --approve edits).",
				Display: a.x.host.Tr("Not applied: this headless run does not approve edits (use --approve edits).")}, nil
		}
	}
	if len(needHuman) == 0 {
		var auto *tools.AutoApproval
		switch {
		case !cs.ConfirmChanges:
			auto = &tools.AutoApproval{By: tools.AutoBySetting, Detail: "govibe.confirmChanges"}
		case asks:
		case ruleAllows:
			auto = editRuleApproval(perm)
		case hooked != nil:
			auto = hooked
		case cs.AutoApprove.Edits:
			auto = &tools.AutoApproval{By: tools.AutoBySetting, Detail: "govibe.autoApprove.edits"}
		}
		if auto != nil {
			d, err := a.apply(ctx, p, p.Proposed, nil)
			if d.Accepted {
				d.Auto = auto
			}
			return d, err
		}
	}
	c := Confirm{SessionID: a.t.SessionID, TurnID: a.t.ID, ToolCallID: p.ToolCallID, Kind: "edit",
		Path: p.Path, RelPath: p.RelPath, Original: p.Original, Proposed: p.Proposed, IsNew: p.IsNew, Delete: p.Delete, Review: card}
	if newMemory {
		c.Notice = memoryNotice(a.x.host.Tr, p.RelPath, p.Path)
	}
	if d := cs.AutoApprove.EditsDelayMs; d > 0 && !asks && len(needHuman) == 0 {
		c.AutoAcceptMs = d
	}
	if perm.Verdict != permission.Ask && !asks {
		// An ask rule or a protected path would still ask: a rule
		// written for them would never apply.
		c.AllowRules = a.x.editAllowRules(p.Path)
	}
	ans, err := a.x.host.Ask(ctx, c)
	if err != nil {
		return tools.EditDecision{}, err
	}
	a.x.rememberAllow(c, ans)
	return a.decided(ctx, p, ans)
}

// decided turns the user's answer to an edit proposal into the decision:
// the reason of a rejection, the user's version or hunks of an
// acceptance, and the write through the editor.
func (a *Approver) decided(ctx context.Context, p tools.EditProposal, ans Answer) (tools.EditDecision, error) {
	if !ans.Accept {
		note := ""
		r := strings.TrimSpace(ans.Reason)
		if createsMemory(p.RelPath, p.Path, p.IsNew) {
			note = memoryDeclined(r)
		} else if r != "" {
			note = "The user's reason: " + r
		}
		return tools.EditDecision{Note: note, ByUser: true, Reason: r}, nil
	}
	content := p.Proposed
	if ans.Content != nil {
		content = *ans.Content
	}
	if ans.Applied {
		return a.written(p, content, ans.RejectedHunks), nil
	}
	return a.apply(ctx, p, content, ans.RejectedHunks)
}

// written reports an edit the editor has written: what the model is told
// is computed from the file as it is on disk once the write completed, not
// from what the answer claimed, so the two cannot disagree (a save hook
// may have reformatted it; a client may have sent the wrong text).
// maxEditedFile bounds the re-read of a file after the editor wrote it;
// the tools refuse bigger files before any proposal.
const maxEditedFile = 256 << 20

func (a *Approver) written(p tools.EditProposal, content string, rejected []int) tools.EditDecision {
	if !p.Delete {
		if b, err := safefile.ReadFile(p.Path, maxEditedFile); err == nil {
			content = string(b)
		}
	}
	return tools.EditDecision{Accepted: true, Content: content, Applied: true, Note: writtenNote(p.Proposed, content, rejected, p.Delete)}
}

// writtenNote tells the model how what was written differs from its
// proposal, naming the hunks the user rejected.
func writtenNote(proposed, written string, rejected []int, deleted bool) string {
	if deleted || written == proposed {
		if len(rejected) > 0 && !deleted {
			// The user's choice did not make it to disk; say what did.
			return "Your edit was written in full."
		}
		return ""
	}
	d := udiff.Unified("your proposal", "what was written", proposed, written)
	if len(rejected) > 0 {
		hs := append([]int(nil), rejected...)
		sort.Ints(hs)
		return fmt.Sprintf("The user rejected hunk(s) %s of your edit; only the other hunks were written. The file differs from your proposal by:\n%s", joinInts(hs), d)
	}
	return "the user modified your edit:\n" + d
}

// apply routes an accepted edit through the editor when one is attached,
// so it joins VS Code's undo stack and respects open buffers. A dirty
// buffer is never overwritten silently: the editor asks or refuses, and
// the model is told which.
func (a *Approver) apply(ctx context.Context, p tools.EditProposal, content string, rejected []int) (tools.EditDecision, error) {
	ed := a.x.opts.Editor
	if ed == nil {
		// The tool writes content itself, atomically, and reports a failed
		// write; what the model is told is exactly what it writes.
		return tools.EditDecision{Accepted: true, Content: content, Note: writtenNote(p.Proposed, content, rejected, p.Delete)}, nil
	}
	// The tool re-checks staleness only for writes it makes itself; here
	// the editor writes, so check first that the disk still holds what the
	// proposal was computed from.
	if cur, err := safefile.ReadFile(p.Path, maxEditedFile); (p.IsNew && err == nil) || (!p.IsNew && (err != nil || string(cur) != p.Original)) {
		return tools.EditDecision{Note: "not applied: " + p.RelPath + " changed on disk while the proposal waited; re-read it and propose the edit again."}, nil
	}
	a.t.BeforeMutation(ctx)
	// The editor answers once the edit is applied and saved; only then is
	// the file read back for the model's note.
	applied, reason, err := ed.ApplyEdit(ctx, p.Path, content, p.Original, p.Delete)
	if err != nil {
		return tools.EditDecision{}, fmt.Errorf("the editor could not apply the edit: %w", err)
	}
	if !applied {
		if reason == "" {
			reason = "the editor refused it"
		}
		return tools.EditDecision{Note: "not applied: " + reason + ". Ask the user to save or discard their changes, then re-read the file."}, nil
	}
	return a.written(p, content, rejected), nil
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

func editRuleApproval(perm permission.Decision) *tools.AutoApproval {
	return &tools.AutoApproval{By: tools.AutoByRule, Detail: ruleDetail(perm.Rule)}
}
