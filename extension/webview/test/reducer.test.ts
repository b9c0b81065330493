// The event reducer on its own: events in, transcript out, no DOM.
import { describe, expect, test } from 'vitest';
import type { ChatEvent, Message } from '../../src/protocol.gen';
import type { ToolBlock } from '../src/model';
import { EventReducer, type TranscriptState } from '../src/reducer';

const SID = 's1';
let seq = 0;
const ev = (p: Partial<ChatEvent> & { kind: string }): ChatEvent => ({ sessionId: SID, seq: ++seq, turnId: 't1', ...p });
const wire = (p: Partial<Message> & { id: string }): Message => ({ sessionId: SID, seq: 1, role: 'assistant', status: 'done', parts: [], created: 0, ...p });

function run(r: EventReducer, s: TranscriptState, ...events: ChatEvent[]): TranscriptState {
  for (const e of events) s = { ...s, ...r.reduce(s, e) };
  return s;
}

function fresh(messages: Message[] = []): { r: EventReducer; s: TranscriptState } {
  const r = new EventReducer();
  return { r, s: { messages: r.reset(messages), running: false, interrupted: false, sessions: [] } };
}

const tools = (s: TranscriptState): ToolBlock[] => s.messages.flatMap((m) => m.blocks.filter((b): b is ToolBlock => b.kind === 'tool'));

describe('EventReducer', () => {
  test('deltas stream into one message; a turn end marks it done', () => {
    let { r, s } = fresh();
    s = run(r, s, ev({ kind: 'turnStarted' }), ev({ kind: 'reasoningDelta', messageId: 'a1', text: 'hm' }));
    s = run(r, s, ev({ kind: 'textDelta', messageId: 'a1', text: 'Hel' }), ev({ kind: 'textDelta', messageId: 'a1', text: 'lo' }));
    expect(s.running).toBe(true);
    expect(s.messages).toHaveLength(1);
    expect(s.messages[0].blocks).toEqual([
      { kind: 'reasoning', text: 'hm' },
      { kind: 'text', text: 'Hello' },
    ]);
    expect(s.messages[0].status).toBe('pending');
    s = run(r, s, ev({ kind: 'turnFinished', status: 'done' }));
    expect(s.running).toBe(false);
    expect(s.messages[0].status).toBe('done');
  });

  test('a resumed run\'s turnStarted keeps what its message already shows', () => {
    // After a reload the snapshot holds the parked message: intro, read
    // card, the edit waiting on its question. Answering it resumes the run,
    // whose turnStarted names that same message with no parts.
    const parked = wire({
      id: 'a1',
      seq: 2,
      turnId: 't1',
      status: 'pending',
      parts: [
        { type: 'text', text: 'I will read calc.go.' },
        { type: 'tool_call', toolCallId: 'r1', name: 'read_file', arguments: '{}' },
        { type: 'tool_result', toolCallId: 'r1', ok: true, output: 'func Add' },
        { type: 'tool_call', toolCallId: 'e1', name: 'edit', arguments: '{}', status: 'pending' },
      ],
    });
    let { r, s } = fresh([wire({ id: 'u1', seq: 1, role: 'user', parts: [{ type: 'text', text: 'fix it' }] }), parked]);
    s = run(
      r,
      s,
      ev({ kind: 'turnStarted', messageId: 'a1', message: wire({ id: 'a1', seq: 2, turnId: 't1', status: 'pending', parts: [] }) }),
      ev({ kind: 'toolResult', messageId: 'a1', tool: { callId: 'e1', name: 'edit', ok: true, output: 'Edited calc.go', meta: { path: 'calc.go', before: 'a', after: 'b' } } }),
      ev({ kind: 'textDelta', messageId: 'a1', text: 'Fixed.' }),
    );
    expect(s.running).toBe(true);
    expect(s.messages).toHaveLength(2);
    expect(s.messages[1].blocks.map((b) => b.kind)).toEqual(['text', 'tool', 'tool', 'text']);
    expect(tools(s)).toMatchObject([
      { callId: 'r1', status: 'done' },
      { callId: 'e1', status: 'done', output: 'Edited calc.go' },
    ]);
  });

  test('a /btw turn is a side note while live: its user message and its reply', () => {
    let { r, s } = fresh();
    s = run(
      r,
      s,
      ev({ kind: 'message', message: wire({ id: 'u1', role: 'user', btw: true, parts: [{ type: 'text', text: '/btw what is 2+2' }] }) }),
      ev({ kind: 'turnStarted', message: wire({ id: 'a1', status: 'pending', btw: true, parts: [] }) }),
      ev({ kind: 'textDelta', messageId: 'a1', text: '4' }),
    );
    expect(s.messages.map((m) => [m.id, m.btw])).toEqual([
      ['u1', true],
      ['a1', true],
    ]);
  });

  test('a rolled-back turn stops offering its rollback', () => {
    let { r, s } = fresh([wire({ id: 'u1', role: 'user', turnId: 'u1', parts: [{ type: 'text', text: 'fix it' }] })]);
    s = run(r, s, ev({ kind: 'snapshots', turnId: 'u1', messageId: 'u1', snapshots: [{ root: '/w', id: 'snap1' }] }));
    expect(s.messages[0].snapshots).toHaveLength(1);
    s = run(r, s, ev({ kind: 'snapshots', turnId: 'u1', messageId: 'u1', status: 'rolledBack' }));
    expect(s.messages[0].snapshots ?? []).toHaveLength(0);
  });

  test('a tool result folds into its call, with its duration', () => {
    let { r, s } = fresh();
    s = run(
      r,
      s,
      ev({ kind: 'toolCall', messageId: 'a1', tool: { callId: 'c1', name: 'read_file', arguments: '{}', ok: false } }),
      ev({ kind: 'toolResult', messageId: 'a1', tool: { callId: 'c1', name: 'read_file', ok: true, output: 'x', durationMs: 12 } }),
    );
    expect(tools(s)).toMatchObject([{ callId: 'c1', status: 'done', ok: true, output: 'x', durationMs: 12 }]);
  });

  test('a stored result keeps its duration, also when its call is on an older page', () => {
    const call = wire({ id: 'a1', seq: 1, parts: [{ type: 'tool_call', toolCallId: 'c1', name: 'grep_search', arguments: '{}' }] });
    const result = wire({ id: 't1', seq: 2, role: 'tool', parts: [{ type: 'tool_result', toolCallId: 'c1', ok: true, output: 'hit', durationMs: 340 }] });
    const { r, s } = fresh([result]);
    expect(s.messages).toHaveLength(0);
    const merged = r.prepend(s.messages, [call]);
    expect(tools({ ...s, messages: merged })).toMatchObject([{ callId: 'c1', status: 'done', durationMs: 340 }]);
  });

  test('only the touched message is replaced', () => {
    let { r, s } = fresh([wire({ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] })]);
    const user = s.messages[0];
    s = run(r, s, ev({ kind: 'textDelta', messageId: 'a1', text: 'a' }));
    const a1 = s.messages[1];
    s = run(r, s, ev({ kind: 'textDelta', messageId: 'a1', text: 'b' }));
    expect(s.messages[0]).toBe(user);
    expect(s.messages[1]).not.toBe(a1);
    // An event that changes nothing returns no messages at all.
    expect(r.reduce(s, ev({ kind: 'usage' }))).toEqual({});
  });

  test('a retry drops text streamed since the last tool call', () => {
    let { r, s } = fresh();
    s = run(
      r,
      s,
      ev({ kind: 'toolCall', messageId: 'a1', tool: { callId: 'c1', name: 'ls', ok: false } }),
      ev({ kind: 'textDelta', messageId: 'a1', text: 'half a sen' }),
      ev({ kind: 'retry', messageId: 'a1' }),
    );
    expect(s.messages[0].blocks.map((b) => b.kind)).toEqual(['tool']);
  });

  test('the final wire message keeps results already folded in', () => {
    let { r, s } = fresh();
    s = run(
      r,
      s,
      ev({ kind: 'toolCall', messageId: 'a1', tool: { callId: 'c1', name: 'ls', ok: false } }),
      ev({ kind: 'toolResult', messageId: 'a1', tool: { callId: 'c1', name: 'ls', ok: true, output: 'files', durationMs: 5 } }),
      ev({ kind: 'message', message: wire({ id: 'a1', parts: [{ type: 'tool_call', toolCallId: 'c1', name: 'ls', arguments: '{}' }] }) }),
    );
    expect(tools(s)).toMatchObject([{ callId: 'c1', ok: true, output: 'files', durationMs: 5, status: 'done' }]);
  });

  test('errors, notices and a cancelled turn become rows of their own', () => {
    let { r, s } = fresh();
    s = run(
      r,
      s,
      ev({ kind: 'error', error: { message: 'boom' } }),
      ev({ kind: 'notice', text: 'fyi', status: 'warn' }),
      ev({ kind: 'turnFinished', status: 'cancelled' }),
    );
    expect(s.messages.map((m) => m.blocks[0].kind)).toEqual(['error', 'notice', 'turnEnd']);
  });

  test('a title event renames the session everywhere', () => {
    let { r, s } = fresh();
    const info = { id: SID, title: 'old', created: 0, updated: 0, model: 'm', messageCount: 0, status: 'idle', running: false };
    s = { ...s, sessions: [info], session: info };
    s = run(r, s, ev({ kind: 'title', text: 'Fix the parser' }));
    expect(s.session!.title).toBe('Fix the parser');
    expect(s.sessions[0].title).toBe('Fix the parser');
  });
});
