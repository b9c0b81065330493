import { describe, expect, it } from 'vitest';
import type { SnapshotInfo } from '../src/protocol.gen';
import { relativeTime, snapshotRows } from '../src/snapshotRows';

const snap = (p: Partial<SnapshotInfo> & { id: string }): SnapshotInfo => ({
  root: '/ws',
  time: 0,
  sessionId: 's1',
  turn: 1,
  message: 'Fix the bug',
  changedFiles: 0,
  ...p,
});

describe('snapshotRows', () => {
  it('groups a turn over roots, counts only the files the turn changed, newest first', () => {
    const rows = snapshotRows([
      // A root's first snapshot counts every file: not the turn's doing.
      snap({ id: 'b1', turnId: 'u1', reason: 'before turn', time: 1000, changedFiles: 4 }),
      snap({ id: 'b2', turnId: 'u1', reason: 'before turn', time: 1001, root: '/other', changedFiles: 9 }),
      snap({ id: 'a1', turnId: 'u1', reason: 'after turn', time: 5000, changedFiles: 1 }),
      snap({ id: 'a2', turnId: 'u1', reason: 'after turn', time: 5001, root: '/other', changedFiles: 2 }),
      snap({ id: 'm1', reason: 'manual', message: 'checkpoint', time: 7000 }),
      snap({ id: 'r1', turnId: 'u1', reason: 'before restore', time: 8000 }),
      snap({ id: 'b3', turnId: 'u2', reason: 'before turn', time: 9000, message: 'Running' }),
    ]);
    expect(rows.map((r) => (r.kind === 'turn' ? `turn ${r.turnId}` : `snapshot ${r.snapshot.id}`))).toEqual([
      'turn u2',
      'snapshot r1',
      'snapshot m1',
      'turn u1',
    ]);
    const u1 = rows[3];
    expect(u1).toMatchObject({ kind: 'turn', message: 'Fix the bug', time: 1000, files: 3 });
    if (u1.kind === 'turn') expect(u1.snapshots.map((s) => s.id)).toEqual(['b1', 'b2', 'a1', 'a2']);
    // A turn that has not ended yet has no count rather than a wrong one.
    expect(rows[0].kind === 'turn' && rows[0].files).toBe(undefined);
  });

  it('keeps snapshots of older versions (no turn id) as rows of their own', () => {
    const rows = snapshotRows([snap({ id: 'old', reason: 'before turn', time: 1 })]);
    expect(rows).toEqual([{ kind: 'snapshot', snapshot: expect.objectContaining({ id: 'old' }) }]);
  });
});

describe('relativeTime', () => {
  const now = 10_000_000;
  it('says how long ago, in the UI language', () => {
    expect(relativeTime(now - 2 * 60_000, now, 'en')).toBe('2 min. ago');
    expect(relativeTime(now - 3 * 3600_000, now, 'en')).toBe('3 hr. ago');
    expect(relativeTime(now - 24 * 3600_000, now, 'en')).toBe('yesterday');
    expect(relativeTime(now - 5_000, now, 'en')).toBe('now');
    expect(relativeTime(now - 2 * 60_000, now, 'zh-cn')).toBe('2分钟前');
  });
});
