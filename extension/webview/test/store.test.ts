import { beforeEach, describe, expect, test } from 'vitest';
import type { HostMessage } from '../../shared/webviewMessages';
import { ChatStore } from '../src/store';
import { SID, ev, load, message, resetSeq, snapshot } from './harness';

let gaps: Array<[string, number]>;
let store: ChatStore;

beforeEach(() => {
  resetSeq(10);
  gaps = [];
  store = new ChatStore({ onGap: (s, n) => gaps.push([s, n]) });
  store.apply(snapshot());
});

function texts(): string[] {
  return store.state.messages.map((m) =>
    m.blocks
      .map((b) => (b.kind === 'text' ? b.text : `[${b.kind}]`))
      .join(''),
  );
}

describe('event sequencing', () => {
  test('events at or below the last applied seq are dropped', () => {
    store.apply(ev({ kind: 'textDelta', messageId: 'a1', text: 'Hel' }));
    const dup: HostMessage = { type: 'event', event: { sessionId: SID, seq: 11, kind: 'textDelta', messageId: 'a1', text: 'Hel' } };
    store.apply(dup);
    store.apply({ type: 'event', event: { sessionId: SID, seq: 5, kind: 'textDelta', messageId: 'a1', text: 'old' } });
    store.apply(ev({ kind: 'textDelta', messageId: 'a1', text: 'lo' }));
    expect(texts()).toEqual(['Hello']);
    expect(store.lastSeqFor(SID)).toBe(12);
  });

  test('events for another session are ignored', () => {
    store.apply({ type: 'event', event: { sessionId: 'other', seq: 11, kind: 'textDelta', messageId: 'x', text: 'nope' } });
    expect(store.state.messages).toEqual([]);
    expect(store.lastSeqFor('other')).toBeUndefined();
    // The shown session's next seq still applies.
    store.apply(ev({ kind: 'textDelta', messageId: 'a1', text: 'yes' }));
    expect(texts()).toEqual(['yes']);
  });

  test('a gap asks for a fresh snapshot and holds later events until it comes', () => {
    store.apply({ type: 'event', event: { sessionId: SID, seq: 13, kind: 'textDelta', messageId: 'a1', text: 'late' } });
    store.apply({ type: 'event', event: { sessionId: SID, seq: 14, kind: 'textDelta', messageId: 'a1', text: 'later' } });
    expect(gaps).toEqual([[SID, 10]]);
    expect(store.state.messages).toEqual([]);
    store.apply(snapshot({ lastSeq: 14, messages: [message({ id: 'a1', parts: [{ type: 'text', text: 'latelater' }] })] }));
    resetSeq(14);
    store.apply(ev({ kind: 'textDelta', messageId: 'a1', text: '!' }));
    expect(texts()).toEqual(['latelater!']);
  });
});

describe('streaming', () => {
  test('retry discards the text streamed since the last tool result', () => {
    store.apply(ev({ kind: 'turnStarted' }));
    store.apply(ev({ kind: 'textDelta', messageId: 'a1', text: 'Reading. ' }));
    store.apply(ev({ kind: 'toolCall', messageId: 'a1', tool: { callId: 'c1', name: 'read', arguments: '{"path":"a.go"}', ok: false } }));
    store.apply(ev({ kind: 'toolResult', messageId: 'a1', tool: { callId: 'c1', name: 'read', ok: true, output: 'package a' } }));
    store.apply(ev({ kind: 'reasoningDelta', messageId: 'a1', text: 'hmm' }));
    store.apply(ev({ kind: 'textDelta', messageId: 'a1', text: 'It says pack' }));
    store.apply(ev({ kind: 'retry', messageId: 'a1' }));
    expect(texts()).toEqual(['Reading. [tool]']);
    store.apply(ev({ kind: 'textDelta', messageId: 'a1', text: 'It says package a.' }));
    expect(texts()).toEqual(['Reading. [tool]It says package a.']);
  });

  test('only the message a delta touches is replaced', () => {
    store.apply(ev({ kind: 'message', message: message({ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }) }));
    store.apply(ev({ kind: 'textDelta', messageId: 'a1', text: 'a' }));
    const [u1, a1] = store.state.messages;
    store.apply(ev({ kind: 'textDelta', messageId: 'a1', text: 'b' }));
    expect(store.state.messages[0]).toBe(u1);
    expect(store.state.messages[1]).not.toBe(a1);
  });

  test('tool results stored in a tool message fold into the call card', () => {
    store.apply(
      snapshot({
        messages: [
          message({ id: 'a1', parts: [{ type: 'tool_call', toolCallId: 'c1', name: 'shell', arguments: '{"command":"ls"}', status: 'done' }] }),
          message({ id: 't1', role: 'tool', parts: [{ type: 'tool_result', toolCallId: 'c1', ok: false, output: 'boom' }] }),
        ],
      }),
    );
    expect(store.state.messages.map((m) => m.id)).toEqual(['a1']);
    const card = store.state.messages[0].blocks[0];
    expect(card).toMatchObject({ kind: 'tool', callId: 'c1', ok: false, output: 'boom', status: 'error' });
  });

  test('turnFinished ends the run and marks streamed messages done', () => {
    store.apply(ev({ kind: 'turnStarted' }));
    store.apply(ev({ kind: 'textDelta', messageId: 'a1', text: 'x' }));
    expect(store.state.running).toBe(true);
    expect(store.state.messages[0].status).toBe('pending');
    store.apply(ev({ kind: 'turnFinished', status: 'cancelled' }));
    expect(store.state.running).toBe(false);
    expect(store.state.messages[0].status).toBe('cancelled');
    expect(store.state.messages[1].blocks[0]).toEqual({ kind: 'turnEnd', status: 'cancelled' });
  });
});

describe('pages and confirmations', () => {
  test('a page prepends older messages without duplicates', () => {
    store.apply(snapshot({ hasMore: true, messages: [message({ id: 'm3', seq: 3, parts: [{ type: 'text', text: 'three' }] })] }));
    store.apply({
      type: 'page',
      sessionId: SID,
      result: {
        ...load(),
        hasMore: false,
        messages: [
          message({ id: 'm1', seq: 1, parts: [{ type: 'text', text: 'one' }] }),
          message({ id: 'm3', seq: 3, parts: [{ type: 'text', text: 'three' }] }),
        ],
      },
    });
    expect(texts()).toEqual(['one', 'three']);
    expect(store.state.hasMore).toBe(false);
    // Later deltas still land on the right message after indices shifted.
    store.apply(ev({ kind: 'textDelta', messageId: 'm3', text: '!' }));
    expect(texts()).toEqual(['one', 'three!']);
  });

  test('a page for another session is ignored', () => {
    store.apply({ type: 'page', sessionId: 'other', result: { ...load(), messages: [message({ id: 'zz' })] } });
    expect(store.state.messages).toEqual([]);
  });

  test('confirmations come and go', () => {
    const req = { id: 'k1', sessionId: SID, turnId: 't1', toolCallId: 'c1', kind: 'shell', command: 'ls' };
    store.apply({ type: 'confirm', request: req });
    store.apply({ type: 'confirm', request: req });
    store.apply({ type: 'confirm', request: { ...req, id: 'k2', sessionId: 'other' } });
    expect(store.state.confirms.map((c) => c.request.id)).toEqual(['k1']);
    store.markResolved('k1', 'reject');
    expect(store.state.confirms[0].resolved).toBe('reject');
    store.apply({ type: 'confirmClosed', closed: { id: 'k1', reason: 'resolved' } });
    expect(store.state.confirms).toEqual([]);
  });
});
