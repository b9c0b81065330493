// Messages the engine wrote (the scheduler's prompts, a button's
// "continue", a sub-agent's task) are never shown as the user's words,
// live or after a reload; sub-agent groups come back with a reopened
// session, where they ran.
import { afterEach, describe, expect, test } from 'vitest';
import type { Message, SubAgentRun } from '../../src/protocol.gen';
import { EventReducer } from '../src/reducer';
import { turnText } from '../src/ui/MessageView';
import { type Harness, SID, ev, flush, message, resetSeq, snapshot, start } from './harness';

const FINAL = '[scheduler] Every todo item has been handled. Results:\n1. A — done\nSummarise for the user what was done.';

const user = (id: string, text: string, origin?: string, seq = 1): Message =>
  message({ id, seq, role: 'user', status: 'done', subAgentTag: 'free', origin, parts: [{ type: 'text', text }] });

/** A free message that said something, called investigate, then answered. */
const anchor: Message = message({
  id: 'a1',
  seq: 2,
  role: 'assistant',
  status: 'done',
  subAgentTag: 'free',
  parts: [
    { type: 'text', text: 'Let me look.' },
    { type: 'tool_call', toolCallId: 'inv1', name: 'investigate', arguments: '{"objective":"find it"}', status: 'done' },
    { type: 'tool_result', toolCallId: 'inv1', ok: true, output: '{}' },
    { type: 'text', text: 'The answer.' },
  ],
});

const investigator: SubAgentRun = {
  sessionId: 'child1',
  tag: 'investigate',
  title: 'investigate: find it',
  anchorMessageId: 'a1',
  callId: 'inv1',
  messages: [
    { ...user('x0', 'find it', 'subagent-task'), sessionId: 'child1', subAgentTag: 'investigate' },
    message({
      id: 'x1',
      sessionId: 'child1',
      seq: 2,
      role: 'assistant',
      status: 'done',
      subAgentTag: 'investigate',
      parts: [
        { type: 'tool_call', toolCallId: 'k1', name: 'list_files', arguments: '{}', status: 'done' },
        { type: 'tool_result', toolCallId: 'k1', ok: true, output: 'a.txt' },
        { type: 'tool_call', toolCallId: 'k2', name: 'complete_task', arguments: '{}', status: 'done' },
        { type: 'tool_result', toolCallId: 'k2', ok: true, output: 'ok' },
      ],
    }),
  ],
};

describe('engine-written messages', () => {
  let h: Harness;
  afterEach(() => h.unmount());

  test('the closing prompt after a reload is a muted line, not a user message', async () => {
    h = await start();
    await h.host(snapshot({ messages: [user('u1', 'do A'), user('f1', FINAL, 'plan-final', 5)] }));
    await flush();
    const users = h.qa('message-user');
    expect(users.map((u) => u.textContent)).toEqual(['do A']);
    const line = h.q('engine-line')!;
    expect(line.dataset.origin).toBe('plan-final');
    expect(line.textContent).toContain('Plan finished — summarising');
    expect(line.textContent).not.toContain('[scheduler]');
    // The prompt itself is one click away.
    (h.q('engine-line-toggle') as HTMLButtonElement).click();
    await flush();
    expect(h.q('engine-line')!.textContent).toContain('Every todo item has been handled');
  });

  test('live: the message event of the closing prompt renders the same muted line', async () => {
    resetSeq(10);
    h = await start();
    await h.host(snapshot({ messages: [user('u1', 'do A')] }));
    await h.host(ev({ kind: 'message', subAgentTag: 'free', messageId: 'f1', message: user('f1', FINAL, 'plan-final', 7) }));
    await flush();
    expect(h.qa('message-user').map((u) => u.textContent)).toEqual(['do A']);
    expect(h.q('engine-line')!.dataset.origin).toBe('plan-final');
  });

  test('a button message is marked as such', async () => {
    h = await start();
    await h.host(snapshot({ messages: [user('u1', 'continue', 'control')] }));
    await flush();
    const u = h.q('message-user')!;
    expect(u.dataset.origin).toBe('control');
    expect(u.textContent).toContain('Continuing');
  });

  test('Retry resends what the user sent, never a scheduler prompt', () => {
    const r = new EventReducer();
    const ms = r.reset([user('u1', 'do A'), user('f1', FINAL, 'plan-final', 5)]);
    expect(turnText(ms, undefined)).toBe('do A');
  });
});

describe('sub-agent groups after a reload', () => {
  let h: Harness | undefined;
  afterEach(() => {
    h?.unmount();
    h = undefined;
  });

  test('the reducer puts the run after its call and the rest of the message after the group', () => {
    const r = new EventReducer();
    const ms = r.reset([user('u1', 'look'), anchor], [investigator]);
    expect(ms.map((m) => `${m.subAgentTag}:${m.role}:${m.blocks.map((b) => (b.kind === 'text' ? b.text : b.kind === 'tool' ? b.name : b.kind)).join(',')}`)).toEqual([
      'free:user:look',
      'free:assistant:Let me look.,investigate',
      'investigate:user:find it',
      'investigate:assistant:list_files,complete_task',
      'free:assistant:The answer.',
    ]);
    // The calling card kept its result; the child's cards got theirs.
    const call = ms[1].blocks[1];
    expect(call.kind === 'tool' && call.status).toBe('done');
    const inner = ms[3].blocks[0];
    expect(inner.kind === 'tool' && inner.output).toBe('a.txt');
  });

  test('a run whose anchor is not loaded is left out; no runs changes nothing', () => {
    const r = new EventReducer();
    expect(r.reset([user('u1', 'look')], [{ ...investigator, anchorMessageId: 'elsewhere' }]).length).toBe(1);
    expect(r.reset([user('u1', 'look'), anchor]).length).toBe(2);
  });

  test('the view shows the group collapsed, named, with its tool count, before the answer', async () => {
    h = await start();
    await h.host(snapshot({ messages: [user('u1', 'look'), anchor], subAgents: [investigator] }));
    await flush();
    const group = h.q('subagent-group')!;
    expect(group).not.toBeNull();
    expect(group.getAttribute('aria-expanded')).toBe('false');
    expect(group.textContent).toContain('investigate');
    expect(group.textContent).toContain('2 tool calls');
    const answer = h.qa('message-assistant').find((el) => el.textContent?.includes('The answer.'))!;
    expect(group.compareDocumentPosition(answer) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Opened, the task is a muted line, not a user bubble.
    group.click();
    await flush();
    expect(h.qa('message-user').map((u) => u.textContent)).toEqual(['look']);
    expect(h.qa('engine-line').map((l) => l.dataset.origin)).toEqual(['subagent-task']);
  });

  test('an older page brings its sub-agents too', async () => {
    h = await start();
    await h.host(snapshot({ messages: [user('u2', 'later', undefined, 10)], hasMore: true }));
    await h.host({ type: 'page', sessionId: SID, result: { ...(await import('./harness')).load({ messages: [user('u1', 'look'), anchor], subAgents: [investigator] }) } });
    await flush();
    expect(h.qa('subagent-group').length).toBe(1);
  });
});
