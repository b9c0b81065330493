package compaction

import (
	"context"
	"strings"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// taskKey holds the user's requests a compaction keeps word for word, once
// their messages are summarised away.
var taskKey = sessionstate.NewKey[taskState]("compact.task")

// taskState is the requests compaction re-sends after its summary: the
// session's first request and its latest, each already clipped.
type taskState struct {
	First   string `json:"first,omitempty"`
	Request string `json:"request,omitempty"`
}

// maxRequestLookups bounds how many user messages one compaction reads
// from the store to find the person's own words behind a request.
const maxRequestLookups = 64

// kept gathers what the summary message re-sends word for word: the
// user's requests that the summarised range [0, n) takes out of the track
// (not those of a side conversation: they are not the task), the todo plan with each item's state, and the user's decisions.
// Everything comes from the session, never from an earlier summary, so
// the block is as exact after the tenth compaction as after the first.
func (c *Compactor) kept(ctx context.Context, sid string, n int) compact.Kept {
	var k compact.Kept
	entries, err := c.tracks.LLMEntries(ctx, sid)
	if err != nil {
		c.log.Warn("reading the track for the kept requests", zap.String("session", sid), zap.Error(err))
	}
	limit := len(entries)
	if st := sessionstate.Lookup(ctx, c.tracks, sid, sessionstate.BTW); st.Active && st.Start < limit {
		limit = st.Start
	}
	task := sessionstate.Lookup(ctx, c.tracks, sid, taskKey)
	latest, latestAt := c.personRequest(ctx, entries[:limit], true)
	if latest != "" {
		task.Request = compact.ClipMiddle(latest, compact.MaxRequestChars)
	}
	firstAt := -1
	if task.First == "" {
		// The first compaction of a session still sees its first request;
		// later ones find it in state.
		var first string
		if first, firstAt = c.personRequest(ctx, entries[:limit], false); first != "" {
			task.First = compact.ClipMiddle(first, compact.MaxRequestChars)
		}
	}
	if task != (taskState{}) {
		if err := sessionstate.Set(ctx, c.tracks, sid, taskKey, task); err != nil {
			c.log.Warn("keeping the task's requests", zap.String("session", sid), zap.Error(err))
		}
	}
	// A request still in the verbatim part [n:] is sent there: repeating
	// it would only cost tokens.
	if latest == "" || latestAt < n {
		k.Request = task.Request
	}
	if task.First != task.Request && (firstAt < 0 || firstAt < n) {
		k.FirstRequest = task.First
	}
	if plan, ok, _ := sessionstate.Get(ctx, c.tracks, sid, scheduler.TodoPlanKey); ok && len(plan.Items) > 0 {
		k.Goal = plan.Goal
		for _, it := range plan.Items {
			k.Todos = append(k.Todos, compact.Todo{Title: it.Title, Status: string(it.Status)})
		}
	}
	k.Decisions, k.Omitted = c.host.Decisions(ctx, sid, compact.MaxDecisions)
	return k
}

// personRequest finds the newest (or, with newest false, the oldest)
// request a person typed among entries, and its position: the text of its
// UI message, without GoVibe's context block or attachments. Messages the
// engine wrote (plan steps, controls) are skipped; a request without a
// UI message falls back to its model text without the context block.
func (c *Compactor) personRequest(ctx context.Context, entries []store.LLMEntry, newest bool) (string, int) {
	lookups := 0
	for j := range entries {
		i := j
		if newest {
			i = len(entries) - 1 - j
		}
		e := entries[i]
		if !compact.IsRequest(e.Message) || strings.HasPrefix(e.Message.Content, compact.SummaryPrefix) {
			continue
		}
		if e.SourceMessageID == "" {
			return strings.TrimSpace(compact.StripContext(e.Message.Content)), i
		}
		if lookups++; lookups > maxRequestLookups {
			break
		}
		m, err := c.tracks.GetMessage(ctx, e.SourceMessageID)
		if err != nil {
			return strings.TrimSpace(compact.StripContext(e.Message.Content)), i
		}
		if m.Role == store.RoleUser && m.Origin == store.OriginUser {
			if t := strings.TrimSpace(m.Text()); t != "" {
				return t, i
			}
		}
	}
	return "", -1
}

// summaryMessages is the replacement of the summarised range: the summary
// with the kept block, then an acknowledgement when the kept messages
// start with a user message (roles alternate for strict providers).
func summaryMessages(snapshot string, kept compact.Kept, next llm.Message) []llm.Message {
	repl := []llm.Message{compact.SummaryMessage(snapshot, kept)}
	if next.Role == llm.RoleUser {
		repl = append(repl, compact.Acknowledgement())
	}
	return repl
}

// notice is the divider's text: what was saved, how many messages the
// summary replaced, and what was kept word for word.
func (c *Compactor) notice(info Info) string {
	s := c.host.Tr("Earlier messages were summarised (saved %d tokens)", info.SavedTokens)
	var kept []string
	if info.Kept.Request {
		kept = append(kept, c.host.Tr("your request"))
	}
	if info.Kept.Todos > 0 {
		kept = append(kept, c.host.Tr("the todo list (%d of %d done)", info.Kept.TodosDone, info.Kept.Todos))
	}
	if info.Kept.Decisions > 0 {
		kept = append(kept, c.host.Tr("your %d decisions", info.Kept.Decisions))
	}
	if len(kept) == 0 {
		return s + ": " + c.host.Tr("%d messages summarised.", info.Messages)
	}
	return s + ": " + c.host.Tr("%d messages summarised; kept word for word: %s.", info.Messages, strings.Join(kept, ", "))
}
