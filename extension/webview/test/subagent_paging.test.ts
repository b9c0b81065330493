import { afterEach, describe, expect, test } from 'vitest';
import type { Message, SubAgentRun } from '../../src/protocol.gen';
import type { ViewMessage } from '../src/model';
import { EventReducer } from '../src/reducer';
import { type Harness, SID, flush, load, message, snapshot, start } from './harness';

// A reopened sub-agent run longer than a page: session/load brings its
// newest messages and counts the earlier ones; "N earlier messages hidden —
// show" pages them in from the child session, oldest first, until none is
// left.

const step = (seq: number, text = `step ${seq}`): Message =>
  message({ id: `c${seq}`, sessionId: 'child1', seq, role: 'assistant', status: 'done', subAgentTag: 'investigate', parts: [{ type: 'text', text }] });

/** A call at seq and its result message at seq+1. */
const callAndResult = (seq: number): Message[] => [
  message({
    id: `c${seq}`, sessionId: 'child1', seq, role: 'assistant', status: 'done', subAgentTag: 'investigate',
    parts: [{ type: 'tool_call', toolCallId: `k${seq}`, name: 'read_file', arguments: '{}', status: 'done' }],
  }),
  message({
    id: `c${seq + 1}`, sessionId: 'child1', seq: seq + 1, role: 'tool', status: 'done', subAgentTag: 'investigate',
    parts: [{ type: 'tool_result', toolCallId: `k${seq}`, ok: true, output: `file ${seq}` }],
  }),
];

const anchor: Message = message({
  id: 'a1', seq: 2, role: 'assistant', status: 'done', subAgentTag: 'free',
  parts: [
    { type: 'tool_call', toolCallId: 'inv1', name: 'investigate', arguments: '{"objective":"find it"}', status: 'done' },
    { type: 'tool_result', toolCallId: 'inv1', ok: true, output: '{}' },
    { type: 'text', text: 'The answer.' },
  ],
});
const user = message({ id: 'u1', seq: 1, role: 'user', status: 'done', subAgentTag: 'free', parts: [{ type: 'text', text: 'look' }] });

// The child has 300 messages; the page holds 296..300, and its first
// message (296) is the result of a call in the older page (295).
const run: SubAgentRun = {
  sessionId: 'child1', tag: 'investigate', title: 'investigate', anchorMessageId: 'a1', callId: 'inv1', earlier: 295,
  messages: [callAndResult(295)[1], step(297), step(298), step(299), step(300)],
};

const texts = (ms: ViewMessage[]) =>
  ms.map((m) => m.blocks.map((b) => (b.kind === 'text' ? b.text : b.kind === 'tool' ? `tool:${b.output ?? ''}` : b.kind)).join(','));

describe('a long sub-agent run after a reload', () => {
  let h: Harness | undefined;
  afterEach(() => {
    h?.unmount();
    h = undefined;
  });

  test('the reducer keeps a result with its call and pages older steps in front', () => {
    const r = new EventReducer();
    let ms = r.reset([user, anchor], [run]);
    // The leading result waits for its call's page: one more earlier.
    const first = ms.find((m) => m.more)!;
    expect(first.id).toBe('c297');
    expect(first.more).toEqual({ childId: 'child1', beforeSeq: 297, earlier: 296 });
    // A page for another position (a double click answered twice) changes nothing.
    expect(r.prependRun(ms, 'child1', 5, [step(1)], false)).toBe(ms);
    ms = r.prependRun(ms, 'child1', 297, [...callAndResult(293), ...callAndResult(295)], true);
    expect(texts(ms.filter((m) => m.subAgentTag === 'investigate'))).toEqual(['tool:file 293', 'tool:file 295', 'step 297', 'step 298', 'step 299', 'step 300']);
    expect(ms.filter((m) => m.more).map((m) => m.more)).toEqual([{ childId: 'child1', beforeSeq: 293, earlier: 292 }]);
    // The last page: nothing hidden any more.
    ms = r.prependRun(ms, 'child1', 293, [step(1, 'the task')], false);
    expect(ms.some((m) => m.more)).toBe(false);
    expect(texts(ms.filter((m) => m.subAgentTag === 'investigate'))[0]).toBe('the task');
    expect(texts(ms).at(-1)).toBe('The answer.');
  });

  test('the group shows how many steps are hidden; show asks the host and renders them', async () => {
    h = await start();
    await h.host(snapshot({ messages: [user, anchor], subAgents: [run] }));
    await flush();
    (h.q('subagent-group') as HTMLButtonElement).click();
    await flush();
    const more = h.q('subagent-earlier') as HTMLButtonElement;
    expect(more.textContent).toContain('296 earlier messages hidden — show');
    more.click();
    expect(h.posted.at(-1)).toEqual({ type: 'loadSubAgent', sessionId: SID, childId: 'child1', beforeSeq: 297 });
    await h.host({ type: 'subAgentPage', sessionId: SID, childId: 'child1', beforeSeq: 297, result: load({ messages: [step(1, 'the task'), ...callAndResult(295)], hasMore: false }) });
    await flush();
    expect(h.q('subagent-earlier')).toBeNull();
    const shown = h.qa('message-assistant').map((el) => el.textContent ?? '');
    expect(shown.some((t) => t.includes('the task'))).toBe(true);
    expect(h.q('subagent-group')!.textContent).toContain('1 tool call');
  });

  test('a page for another session is ignored', async () => {
    h = await start();
    await h.host(snapshot({ messages: [user, anchor], subAgents: [run] }));
    await h.host({ type: 'subAgentPage', sessionId: 'other', childId: 'child1', beforeSeq: 297, result: load({ messages: [step(1)], hasMore: false }) });
    await flush();
    (h.q('subagent-group') as HTMLButtonElement).click();
    await flush();
    expect(h.q('subagent-earlier')).not.toBeNull();
  });
});
