// Finding the snapshot that holds the workspace as it was before a turn.
// The server numbers turns 1, 2, ... per session (SnapshotInfo.turn) while
// the chat knows turns by id; the ordinal of a turn id among the session's
// user messages bridges the two. Pure.
import type { Message, SnapshotInfo } from './protocol.gen';

/** 1-based position of turnId among the session's turns, or 0 if absent. */
export function turnOrdinal(messages: readonly Message[], turnId: string): number {
  const seen: string[] = [];
  for (const m of [...messages].sort((a, b) => a.seq - b.seq)) {
    if (m.role !== 'user' || !m.turnId || seen.includes(m.turnId)) continue;
    seen.push(m.turnId);
  }
  return seen.indexOf(turnId) + 1;
}

/**
 * The "before turn" snapshot of turn `ordinal`, else the newest snapshot
 * of an earlier turn (its "after turn" state is the state before this one).
 */
export function snapshotBeforeTurn(
  snapshots: readonly SnapshotInfo[],
  sessionId: string,
  ordinal: number,
): SnapshotInfo | undefined {
  const mine = snapshots.filter((s) => s.sessionId === sessionId);
  const before = mine.filter((s) => s.turn === ordinal && s.reason === 'before turn').sort((a, b) => a.time - b.time);
  if (before.length > 0) return before[0];
  return mine.filter((s) => s.turn > 0 && s.turn < ordinal).sort((a, b) => b.time - a.time)[0];
}
