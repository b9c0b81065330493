import { expect, test } from 'vitest';
import type { HostMessage } from '../shared/webviewMessages';
import { answerCompletion, isCompletionMessage } from '../src/host/chatCompletions';

function fakeRequest(answers: Record<string, (p: any) => any>) {
  const calls: Array<{ method: string; params: any }> = [];
  const request = (async (method: string, params: any) => {
    calls.push({ method, params });
    return answers[method](params);
  }) as any;
  return { request, calls };
}

test('answers carry the request number; skills without a session activate for the workspace', async () => {
  const posted: HostMessage[] = [];
  const { request, calls } = fakeRequest({
    'commands/list': () => ({ commands: [{ name: 'help', description: 'List' }] }),
    'files/complete': () => ({ items: [{ path: 'a.go' }], partial: true }),
    'skills/setActive': () => ({ skills: [{ name: 'x', description: '', source: 'builtin', active: true, scope: 'workspace' }] }),
  });
  const post = (m: HostMessage) => posted.push(m);
  await answerCompletion({ type: 'listCommands', reqId: 7 }, request, post);
  await answerCompletion({ type: 'completeFiles', reqId: 8, query: 'a' }, request, post);
  await answerCompletion({ type: 'setSkillActive', name: 'x', active: true }, request, post);
  expect(posted[0]).toMatchObject({ type: 'commands', reqId: 7 });
  expect(posted[1]).toEqual({ type: 'files', reqId: 8, items: [{ path: 'a.go' }], partial: true });
  expect(calls[2].params).toEqual({ sessionId: undefined, name: 'x', active: true, workspace: true });
  expect(isCompletionMessage({ type: 'send', text: 'x' })).toBe(false);
});

test('a refused activation answers the current list with the reason', async () => {
  const posted: HostMessage[] = [];
  const { request } = fakeRequest({
    'skills/setActive': () => {
      throw new Error('skills/setActive: no skill named "nope"');
    },
    'skills/list': () => ({ skills: [] }),
  });
  await answerCompletion({ type: 'setSkillActive', sessionId: 's1', name: 'nope', active: true }, request, (m) => posted.push(m));
  expect(posted).toEqual([{ type: 'skills', skills: [], error: 'skills/setActive: no skill named "nope"' }]);
});
