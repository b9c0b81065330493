// Package eventbus is the ordered stream of each session's events: Publish
// stamps an event with the next seq of its session and fans it out to every
// subscriber, each on its own goroutine and in seq order; a replay ring lets
// a client that reconnects resume from the last seq it saw (Since), and a
// subscriber that falls behind has its queued deltas merged without losing
// text. Terminal events (anything but a delta) are never merged or dropped.
//
// # Generic over the event
//
// Bus is generic over its event type, and the engine's is
// Bus[engine.Event, *engine.Event]. The event stays in the engine because what it carries is
// the engine's vocabulary: its envelope names the engine's records (a
// user message's extras, a compaction's divider) and its Payload is one of
// protocol/eventdata's closed set. Moving Event here would have moved that
// envelope with it and made this package import the capabilities it sits
// below; instead the bus asks of an event only the little it needs
// (its session, its seq, whether it continues a delta and with what text),
// through the Event constraint's pointer methods, and imports no other
// package of GoVibe (a test keeps it a leaf).
//
// # Replay
//
// Each session keeps its last RingSize events in fixed blocks of ringBlock,
// allocated as the session first reaches them; once full, each event
// overwrites the oldest, so publishing never copies the buffer. A client
// that asks for events older than the ring reaches is told to reload the
// session instead. Forget drops a deleted session's buffer but keeps its
// seq counting up.
//
// # Slow subscribers
//
// Once more than MergeBacklog events wait for a subscriber, a delta that
// continues the newest queued event (same session, message, turn, agent and
// kind, as the event says) is appended to it instead of queued, so a
// subscriber writing to a slower editor sends fewer, longer deltas instead
// of falling further behind. Only an event the subscriber has not been
// handed yet is merged into, so merging never delays anything; below the
// backlog every event is delivered as published, so a client that keeps up
// sees seq increase by one. SubscribeFlush calls its flush after each run of
// events, which the server uses to send them in one write (wire.Batch).
package eventbus
