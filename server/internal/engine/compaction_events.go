package engine

import (
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/compact/sessioncompact"
	"github.com/govibe/govibe/server/internal/engine/eventview"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/rpc/eventbus"
)

// TagFree is the free phase's sub-agent tag: the only phase in which global
// compaction runs. Executor, evaluator and sub-agent runs use other tags.
const TagFree = "free"

// compactionEvents publishes session compaction's events on the Bus
// (sessioncompact.Events), all in the free phase.
type compactionEvents struct{ bus *eventbus.Bus[Event, *Event] }

func (c compactionEvents) Notice(sid, turnID, status, text string) {
	c.bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: kinds.Notice, SubAgentTag: TagFree, Text: text, Status: status})
}

func (c compactionEvents) Compacted(sid, turnID, status, text string, r sessioncompact.Result) {
	c.bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: kinds.Compaction, SubAgentTag: TagFree, MessageID: r.MessageID,
		MessageSeq: r.MessageSeq, Text: text, Status: status, Divider: &r.Info, Payload: eventview.Context(r.Context)})
}

func (c compactionEvents) Finished(sid, job, status string, tu usage.Turn, use usage.Context) {
	c.bus.Publish(Event{SessionID: sid, TurnID: job, Kind: kinds.TurnFinished, SubAgentTag: TagFree, Status: status,
		Usage: &UsageInfo{Usage: tu.Usage}, Payload: eventview.Context(use)})
}
