package moderun

import (
	"context"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Turn is a session's working mode as one turn sees it: read from the
// store once, when the turn is sent (a switch applies from the next
// turn), and then asked as often as the turn needs without reading it
// again. The Phases progress is not part of it: it moves within a turn.
type Turn struct {
	m    *Modes
	sid  string
	mode modes.Mode
}

// Turn reads the session's mode once (none for "", a session not yet
// created, whose mode is Agent).
func (m *Modes) Turn(ctx context.Context, sid string) Turn {
	if sid == "" {
		return Turn{m: m, mode: modes.Agent}
	}
	return Turn{m: m, sid: sid, mode: m.Mode(ctx, sid)}
}

// In is the same turn's view for session sid (a session created by the
// send itself, whose mode is still the one read).
func (t Turn) In(sid string) Turn { t.sid = sid; return t }

// Loaded says whether the view was read (the zero Turn was not).
func (t Turn) Loaded() bool { return t.m != nil }

// Mode is the turn's working mode.
func (t Turn) Mode() modes.Mode { return t.mode }

// ProposesOnly says whether a created todo plan stops at the proposal
// (Plan mode) instead of running: the user edits it and runs it.
func (t Turn) ProposesOnly() bool { return t.mode == modes.Plan }

// Tools is Modes.Tools in this turn's mode.
func (t Turn) Tools(ctx context.Context, ts []tools.Tool) []tools.Tool {
	m, sid, md := t.m, t.sid, t.mode
	ts = proposeOnly(md, m.guardWrites(sid, md, append(ts, m.modeTools(sid, md)...)))
	return m.guardRepeats(sid, md, m.phaseShell(ctx, sid, md, m.advanceOnWrites(ctx, sid, md, ts)))
}

// Where is Modes.Where in this turn's mode.
func (t Turn) Where(ctx context.Context) (modes.Mode, string) {
	if t.mode == modes.Phases {
		return t.mode, string(t.m.Progress(ctx, t.sid).State)
	}
	return t.mode, ""
}
