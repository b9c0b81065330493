// What the Snapshots view lists: one row per turn (its before- and
// after-snapshots over every root, restored together), and one row per
// other snapshot (manual, the safety snapshot of a restore, or one from an
// older version that named no turn). Pure: the host adapter localises.
import type { SnapshotInfo } from './protocol.gen';

const BEFORE_TURN = 'before turn';
const AFTER_TURN = 'after turn';

export type SnapshotRow =
  | {
      kind: 'turn';
      sessionId: string;
      turnId: string;
      message: string;
      /** When the turn first changed something (its before-snapshot). */
      time: number;
      /** Files the turn changed over every root; undefined until it ended. */
      files?: number;
      snapshots: SnapshotInfo[];
    }
  | { kind: 'snapshot'; snapshot: SnapshotInfo };

export function rowTime(r: SnapshotRow): number {
  return r.kind === 'turn' ? r.time : r.snapshot.time;
}

/** Rows of one session's snapshots, newest first. */
export function snapshotRows(snapshots: readonly SnapshotInfo[]): SnapshotRow[] {
  const turns = new Map<string, Extract<SnapshotRow, { kind: 'turn' }>>();
  const rows: SnapshotRow[] = [];
  for (const s of snapshots) {
    const ofTurn = !!s.turnId && (s.reason === BEFORE_TURN || s.reason === AFTER_TURN);
    if (!ofTurn) {
      rows.push({ kind: 'snapshot', snapshot: s });
      continue;
    }
    const key = `${s.sessionId}/${s.turnId}`;
    let row = turns.get(key);
    if (!row) {
      row = { kind: 'turn', sessionId: s.sessionId, turnId: s.turnId!, message: s.message, time: s.time, snapshots: [] };
      turns.set(key, row);
      rows.push(row);
    }
    row.snapshots.push(s);
  }
  for (const row of turns.values()) {
    const before = row.snapshots.filter((s) => s.reason === BEFORE_TURN);
    const after = row.snapshots.filter((s) => s.reason === AFTER_TURN);
    row.time = Math.min(...(before.length ? before : row.snapshots).map((s) => s.time));
    // An after-turn snapshot counts what changed since the one before it,
    // which is the turn's own before-snapshot: the turn's changes. The
    // before-snapshot's own count (everything, for a root's first) is not
    // shown.
    if (after.length > 0) row.files = after.reduce((n, s) => n + s.changedFiles, 0);
  }
  return rows.sort((a, b) => rowTime(b) - rowTime(a));
}

const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "2 min ago", "yesterday", "now", in the UI language. */
export function relativeTime(time: number, now: number, locale: string): string {
  const secs = Math.round((time - now) / 1000);
  const fmt = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  for (const [unit, size] of units) {
    if (Math.abs(secs) >= size) return fmt.format(Math.trunc(secs / size), unit);
  }
  return fmt.format(0, 'second');
}
