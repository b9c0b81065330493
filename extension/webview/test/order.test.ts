// The transcript shows things in the order they happened: sub-agent groups
// (investigate, custom agents, reconcile loops) come where they started,
// before the answer the turn gives after them.
import { afterEach, describe, expect, test } from 'vitest';
import type { ChatEvent, Message } from '../../src/protocol.gen';
import { EventReducer, type TranscriptState } from '../src/reducer';
import { type Harness, ev as hostEv, flush, resetSeq, snapshot, start } from './harness';

const SID = 's1';
let seq = 0;
const ev = (p: Partial<ChatEvent> & { kind: string }): ChatEvent => ({ sessionId: SID, seq: ++seq, turnId: 't1', ...p });
const pending = (id: string): Message => ({ id, sessionId: SID, seq: 2, turnId: 't1', role: 'assistant', status: 'pending', parts: [], created: 0 });

function run(r: EventReducer, s: TranscriptState, ...events: ChatEvent[]): TranscriptState {
  for (const e of events) s = { ...s, ...r.reduce(s, e) };
  return s;
}

function fresh(): { r: EventReducer; s: TranscriptState } {
  const r = new EventReducer();
  return { r, s: { messages: r.reset([]), running: false, interrupted: false, sessions: [] } };
}

/** Each row as "tag:what it holds", in transcript order. */
const rows = (s: TranscriptState) =>
  s.messages.map(
    (m) =>
      `${m.subAgentTag ?? ''}:${m.blocks
        .map((b) => (b.kind === 'text' ? b.text : b.kind === 'tool' ? `${b.name}(${b.status})` : b.kind))
        .join(',')}`,
  );

/** The free agent calls investigate; the investigator works in rows of its own. */
function investigate(r: EventReducer, s: TranscriptState): TranscriptState {
  return run(
    r,
    s,
    ev({ kind: 'turnStarted', subAgentTag: 'free', messageId: 'a1', message: pending('a1') }),
    ev({ kind: 'textDelta', subAgentTag: 'free', messageId: 'a1', text: 'Let me look.' }),
    ev({ kind: 'toolCall', subAgentTag: 'free', messageId: 'a1', status: 'running', tool: { callId: 'c1', name: 'investigate', ok: false } }),
    ev({ kind: 'toolCall', subAgentTag: 'investigate', messageId: 'x1', status: 'running', tool: { callId: 'k1', name: 'read_file', ok: false } }),
    ev({ kind: 'toolResult', subAgentTag: 'investigate', messageId: 'x1', tool: { callId: 'k1', name: 'read_file', ok: true, output: 'x' } }),
    ev({ kind: 'toolResult', subAgentTag: 'free', messageId: 'a1', tool: { callId: 'c1', name: 'investigate', ok: true, output: '{}' } }),
  );
}

describe('order of sub-agent rows', () => {
  test('the answer after a sub-agent comes after its rows, and its tool result stays on the calling card', () => {
    let { r, s } = fresh();
    s = investigate(r, s);
    s = run(r, s, ev({ kind: 'textDelta', subAgentTag: 'free', messageId: 'a1', text: 'The answer.' }));
    expect(rows(s)).toEqual(['free:Let me look.,investigate(done)', 'investigate:read_file(done)', 'free:The answer.']);
    // The part above the sub-agent is finished; the continuation streams.
    expect(s.messages.map((m) => m.status)).toEqual(['done', 'pending', 'pending']);
    // Later deltas, a retry and the turn's error all go to the continuation.
    s = run(
      r,
      s,
      ev({ kind: 'textDelta', subAgentTag: 'free', messageId: 'a1', text: ' More.' }),
      ev({ kind: 'error', subAgentTag: 'free', messageId: 'a1', error: { message: 'boom' } }),
      ev({ kind: 'turnFinished', status: 'error' }),
    );
    expect(rows(s)).toEqual(['free:Let me look.,investigate(done)', 'investigate:read_file(done)', 'free:The answer. More.,error']);
    expect(s.messages[2].status).toBe('error');
  });

  test('a second sub-agent after the continuation gets one of its own', () => {
    let { r, s } = fresh();
    s = investigate(r, s);
    s = run(
      r,
      s,
      ev({ kind: 'toolCall', subAgentTag: 'free', messageId: 'a1', status: 'running', tool: { callId: 'c2', name: 'investigate', ok: false } }),
      ev({ kind: 'textDelta', subAgentTag: 'investigate', messageId: 'x2', text: 'second look' }),
      ev({ kind: 'textDelta', subAgentTag: 'free', messageId: 'a1', text: 'Done.' }),
    );
    expect(rows(s)).toEqual([
      'free:Let me look.,investigate(done)',
      'investigate:read_file(done)',
      'free:investigate(running)',
      'investigate:second look',
      'free:Done.',
    ]);
  });

  test('an empty reply message (reconcile: only loop agents ran) moves below the loops', () => {
    let { r, s } = fresh();
    s = run(
      r,
      s,
      ev({ kind: 'turnStarted', subAgentTag: 'free', messageId: 'a1', message: pending('a1') }),
      ev({ kind: 'textDelta', subAgentTag: 'specifier:1', messageId: 'sp1', text: 'tests written' }),
      ev({ kind: 'textDelta', subAgentTag: 'coder:1', messageId: 'co1', text: 'code written' }),
      ev({ kind: 'notice', subAgentTag: 'free', messageId: 'a1', text: 'Ready: the diff is 0.' }),
    );
    expect(rows(s)).toEqual(['specifier:1:tests written', 'coder:1:code written', 'free:notice']);
    expect(s.messages[2].id).toBe('a1');
  });

  test('a message without sub-agent rows after it is written in place', () => {
    let { r, s } = fresh();
    s = run(
      r,
      s,
      ev({ kind: 'turnStarted', subAgentTag: 'free', messageId: 'a1', message: pending('a1') }),
      ev({ kind: 'notice', subAgentTag: 'free', text: 'a notice row' }),
      ev({ kind: 'textDelta', subAgentTag: 'free', messageId: 'a1', text: 'Hi' }),
    );
    expect(rows(s)).toEqual(['free:Hi', 'free:notice']);
  });
});

describe('order in the view', () => {
  let h: Harness;
  afterEach(() => h.unmount());

  test('the sub-agent group is drawn before the final answer', async () => {
    resetSeq(10);
    h = await start();
    await h.host(snapshot());
    const events = [
      hostEv({ kind: 'turnStarted', subAgentTag: 'free', messageId: 'a1', message: pending('a1') }),
      hostEv({ kind: 'toolCall', subAgentTag: 'free', messageId: 'a1', status: 'running', tool: { callId: 'c1', name: 'investigate', ok: false } }),
      hostEv({ kind: 'textDelta', subAgentTag: 'investigate', messageId: 'x1', text: 'inner work' }),
      hostEv({ kind: 'toolResult', subAgentTag: 'free', messageId: 'a1', tool: { callId: 'c1', name: 'investigate', ok: true, output: '{}' } }),
      hostEv({ kind: 'textDelta', subAgentTag: 'free', messageId: 'a1', text: 'The final answer.' }),
      hostEv({ kind: 'turnFinished', status: 'done' }),
    ];
    for (const e of events) await h.host(e);
    await flush();
    const group = h.q('subagent-group')!;
    const answer = h.qa('message-assistant').find((el) => el.textContent?.includes('The final answer.'))!;
    expect(group).not.toBeNull();
    expect(answer).toBeDefined();
    // DOCUMENT_POSITION_FOLLOWING: the answer comes after the group.
    expect(group.compareDocumentPosition(answer) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
