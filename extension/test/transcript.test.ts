import { describe, expect, it } from 'vitest';
import type { ChatEvent, ConfirmRequest } from '../src/protocol.gen';
import { TranscriptBuffer, type Deliverable } from '../src/transcript';

function ev(seq: number, sessionId = 's1'): ChatEvent {
  return { sessionId, seq, kind: 'textDelta', text: `t${seq}` };
}
function confirm(id: string): ConfirmRequest {
  return { id, sessionId: 's1', turnId: 't', toolCallId: 'c', kind: 'shell', command: 'ls' };
}
function setup() {
  const posted: Deliverable[] = [];
  const b = new TranscriptBuffer({ post: (m) => posted.push(m), maxEvents: 5 });
  const seqs = () => posted.flatMap((m) => (m.type === 'event' ? [m.event.seq] : []));
  return { b, posted, seqs };
}

describe('TranscriptBuffer', () => {
  it('holds events while hidden and replays those after the snapshot in seq order', () => {
    const { b, seqs } = setup();
    b.follow('s1');
    b.event(ev(4));
    b.event(ev(2));
    b.event(ev(3));
    b.event(ev(5));
    expect(seqs()).toEqual([]);
    b.opened('s1', 2, []);
    expect(seqs()).toEqual([3, 4, 5]);
  });

  it('drops duplicates and stale seqs once open', () => {
    const { b, seqs } = setup();
    b.opened('s1', 0, []);
    b.event(ev(1));
    b.event(ev(1));
    b.event(ev(3));
    b.event(ev(2));
    expect(seqs()).toEqual([1, 3]);
    expect(b.lastDeliveredSeq).toBe(3);
  });

  it('holds again after hide and resumes from the new snapshot', () => {
    const { b, seqs } = setup();
    b.opened('s1', 0, []);
    b.event(ev(1));
    b.hold();
    b.event(ev(2));
    b.event(ev(3));
    b.event(ev(3));
    b.opened('s1', 2, []);
    expect(seqs()).toEqual([1, 3]);
  });

  it('ignores other sessions and forgets held events when the session switches', () => {
    const { b, seqs } = setup();
    b.follow('s1');
    b.event(ev(1));
    b.event(ev(9, 's2'));
    b.opened('s2', 0, []);
    expect(seqs()).toEqual([]);
    b.event(ev(10, 's2'));
    b.event(ev(2, 's1'));
    expect(seqs()).toEqual([10]);
  });

  it('keeps only the newest events past its bound', () => {
    const { b, seqs } = setup();
    b.follow('s1');
    for (let i = 1; i <= 8; i++) b.event(ev(i));
    b.opened('s1', 0, []);
    expect(seqs()).toEqual([4, 5, 6, 7, 8]);
  });

  it('replays held confirmations the snapshot does not show and drops closed ones', () => {
    const { b, posted } = setup();
    b.follow('s1');
    b.confirm(confirm('a'));
    b.confirm(confirm('b'));
    b.confirm(confirm('c'));
    b.confirmClosed({ id: 'b', reason: 'cancelled' });
    b.confirmClosed({ id: 'x', reason: 'resolved' });
    b.opened('s1', 0, [confirm('a'), confirm('x')]);
    expect(posted).toEqual([
      { type: 'confirm', request: confirm('c') },
      { type: 'confirmClosed', closed: { id: 'x', reason: 'resolved' } },
    ]);
  });

  it('adopts the session of the first event when none is followed', () => {
    const { b, seqs } = setup();
    b.event(ev(1, 'new'));
    expect(b.currentSession).toBe('new');
    b.opened('new', 0, []);
    expect(seqs()).toEqual([1]);
  });
});
