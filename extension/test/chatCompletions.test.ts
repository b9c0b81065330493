import { expect, test } from 'vitest';
import type { HostMessage } from '../shared/webviewMessages';
import { answerCompletion, isCompletionMessage, symbolCompletions } from '../src/host/chatCompletions';

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

test('a #query asks the editor’s symbol provider, never files/complete, and names each symbol as the sidecar reads it', async () => {
  const posted: HostMessage[] = [];
  const { request, calls } = fakeRequest({});
  const search = async (q: string) => {
    expect(q).toBe('Sen');
    return [
      { name: 'Send', container: 'Engine', path: 'server/engine.go' },
      { name: 'Engine.Send', container: 'github.com/x/engine', path: 'server/engine.go' },
      { name: 'send', container: 'src/app.ts', path: 'src/app.ts' },
      { name: 'operator<<', path: 'a.cc' },
    ];
  };
  await answerCompletion({ type: 'completeFiles', reqId: 3, query: '#Sen' }, request, (m) => posted.push(m), undefined, search);
  expect(calls).toEqual([]);
  expect(posted).toEqual([
    { type: 'files', reqId: 3, partial: false, items: [{ path: '#Engine.Send', root: 'server/engine.go' }, { path: '#send', root: 'src/app.ts' }] },
  ]);
  // No provider (or one that fails) is an empty list, not an error.
  await answerCompletion({ type: 'completeFiles', reqId: 4, query: '#x' }, request, (m) => posted.push(m), undefined, async () => {
    throw new Error('no provider');
  });
  expect(posted[1]).toEqual({ type: 'files', reqId: 4, items: [], partial: false });
  expect(await symbolCompletions('#', search)).toEqual([]);
});
