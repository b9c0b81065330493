package server

import (
	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/engine"
)

// compactionMeta marks a divider's notice so the UI renders it as the
// "Earlier messages were summarised" line that can show the summary, with
// how many messages were summarised and what was kept word for word.
func compactionMeta(saved, messages int, kept *compact.KeptCounts) map[string]any {
	m := map[string]any{"kind": "compaction", "savedTokens": saved}
	if messages > 0 {
		m["summarisedMessages"] = messages
	}
	if kept != nil && *kept != (compact.KeptCounts{}) {
		m["kept"] = kept
	}
	return m
}

// compactionMessage is the divider event message as session/load returns
// it, so a live client and a reloaded one show the same thing.
func compactionMessage(e engine.Event, info compaction.Info) *protocol.Message {
	if info.MessageID == "" {
		return nil
	}
	m := &protocol.Message{ID: info.MessageID, SessionID: e.SessionID, Seq: info.MessageSeq, TurnID: e.TurnID, Role: "event", Status: "done",
		HiddenFromLLM: true}
	if info.Failed {
		m.Parts = []protocol.Part{{Type: "notice", Level: "warn", Text: info.Notice}}
		return m
	}
	if info.Summary == "" {
		// Only a dominant tool output was shortened: a plain notice.
		m.Parts = []protocol.Part{{Type: "notice", Level: "info", Text: info.Notice}}
		return m
	}
	m.Parts = []protocol.Part{{Type: "notice", Level: "info", Text: info.Notice, Meta: compactionMeta(info.SavedTokens, info.Messages, &info.Kept)},
		{Type: "text", Text: info.Summary}}
	if info.KeptText != "" {
		m.Parts = append(m.Parts, protocol.Part{Type: "text", Text: info.KeptText})
	}
	return m
}

// markCompactions adds the compaction meta to loaded divider messages.
func markCompactions(msgs []protocol.Message, recs []compaction.Record) {
	done := map[string]compaction.Record{}
	for _, r := range recs {
		if r.Status == "done" && r.MessageID != "" && r.Messages > 0 { // Messages 0: nothing was summarised
			done[r.MessageID] = r
		}
	}
	for i := range msgs {
		r, ok := done[msgs[i].ID]
		if !ok {
			continue
		}
		for j := range msgs[i].Parts {
			if msgs[i].Parts[j].Type == "notice" {
				msgs[i].Parts[j].Meta = compactionMeta(r.Saved, r.Messages, (*compact.KeptCounts)(r.Kept))
				break
			}
		}
	}
}
