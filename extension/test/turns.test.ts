import { describe, expect, it } from 'vitest';
import type { Message, SnapshotInfo } from '../src/protocol.gen';
import { snapshotBeforeTurn, turnOrdinal } from '../src/turns';

function msg(seq: number, role: string, turnId: string): Message {
  return { id: `m${seq}`, sessionId: 's', seq, turnId, role, status: 'done', parts: [], created: seq };
}
function snap(id: string, turn: number, reason: string, time: number, sessionId = 's'): SnapshotInfo {
  return { id, root: '/w', time, sessionId, turn, message: '', reason, changedFiles: 1 };
}

describe('turn → snapshot', () => {
  it('numbers turns by their user messages in seq order', () => {
    const messages = [msg(5, 'user', 'T2'), msg(1, 'user', 'T1'), msg(2, 'assistant', 'T1'), msg(6, 'user', 'T2'), msg(9, 'user', 'T3')];
    expect(turnOrdinal(messages, 'T1')).toBe(1);
    expect(turnOrdinal(messages, 'T2')).toBe(2);
    expect(turnOrdinal(messages, 'T3')).toBe(3);
    expect(turnOrdinal(messages, 'nope')).toBe(0);
  });

  it('prefers the before-turn snapshot, else the newest earlier one, of the same session', () => {
    const snaps = [snap('a1', 1, 'after turn', 10), snap('b2', 2, 'before turn', 20), snap('x', 2, 'before turn', 15, 'other'), snap('a2', 2, 'after turn', 30)];
    expect(snapshotBeforeTurn(snaps, 's', 2)?.id).toBe('b2');
    expect(snapshotBeforeTurn(snaps, 's', 3)?.id).toBe('a2');
    expect(snapshotBeforeTurn(snaps, 's', 1)).toBeUndefined();
  });
});
