// The header: the model in view with its key status, a problem shown
// before the first Send with its fix, the context meter's label, and Retry.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ModelStatus } from '../../shared/webviewMessages';
import { type Harness, SID, ev, flush, message, resetSeq, snapshot, start, typeInto } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => h.unmount());

const model = (p: Partial<ModelStatus> = {}): ModelStatus => ({
  label: 'deepseek',
  model: 'deepseek-reasoner',
  baseUrl: 'https://api.deepseek.com',
  key: 'set',
  profiles: ['deepseek', 'local'],
  ...p,
});

/** A chat with a message: its context figures are shown. */
const hi = message({ id: 'u0', role: 'user', parts: [{ type: 'text', text: 'hi' }] });

describe('header', () => {
  test('shows the active model as a picker with its key status', async () => {
    await h.host(snapshot());
    await h.host({ type: 'model', status: model() });
    expect(h.q('model-picker')!.textContent).toContain('deepseek');
    expect(h.q('model-key')!.dataset.key).toBe('set');
    expect(h.q('model-problem')).toBeNull();
    h.q('model-picker')!.click();
    expect(h.posted).toContainEqual({ type: 'command', command: 'pickModel' });
  });

  test('a missing key is visible before the first Send, with the fix one click away', async () => {
    await h.host(snapshot({}, { session: null, sessions: [] }));
    await h.host({ type: 'model', status: model({ key: 'missing', problem: { text: 'No API key is set for deepseek.', action: 'setApiKey' } }) });
    expect(h.q('model-problem')!.textContent).toContain('No API key is set for deepseek.');
    expect(h.q('model-key')!.dataset.key).toBe('missing');
    h.q('model-problem-fix')!.click();
    expect(h.posted).toContainEqual({ type: 'command', command: 'setApiKey' });
    // The status survives a session switch (a new snapshot).
    await h.host(snapshot());
    expect(h.q('model-problem')).not.toBeNull();
  });

  test('Compact is a shrink icon named Compact, in words once the context is half full', async () => {
    const use = (usedTokens: number) => ({ usedTokens, windowTokens: 100000, sessionCost: 0, sessionUsage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cost: 0 } });
    await h.host(snapshot({ context: use(20000), messages: [hi] }));
    const btn = h.q('compact')!;
    expect(btn.getAttribute('aria-label')).toBe('Compact');
    expect(btn.title).toContain('Compact');
    expect(btn.querySelector('.codicon-fold, .codicon-close')).toBeNull();
    expect(btn.textContent).toBe('');
    await h.host(ev({ kind: 'usage', context: use(60000) }));
    expect(h.q('compact')!.textContent).toBe('Compact');
    h.q('compact')!.click();
    expect(h.posted).toContainEqual({ type: 'compact', sessionId: SID });
  });

  test('an empty chat shows no context figures (nor Compact) until it has a message', async () => {
    const context = { usedTokens: 4300, windowTokens: 128000, sessionCost: 0, sessionUsage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cost: 0 } };
    await h.host(snapshot({ context }));
    expect(h.q('context-bar')).toBeNull();
    expect(h.q('compact')).toBeNull();
    await h.host(ev({ kind: 'message', message: message({ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }) }));
    await h.host(ev({ kind: 'usage', context: { ...context, usedTokens: 4400 } }));
    expect(h.q('context-label')!.textContent).toBe('4.4k / 128k');
    expect(h.q('compact')).not.toBeNull();
  });

  test('the context meter has a readable label and the cost in view', async () => {
    await h.host(
      snapshot({
        messages: [hi],
        context: { usedTokens: 642, windowTokens: 128000, sessionCost: 0.0123, sessionUsage: { promptTokens: 900, completionTokens: 80, cachedTokens: 600, cost: 0.0123 } },
      }),
    );
    expect(h.q('context-label')!.textContent).toBe('642 / 128k');
    expect(h.q('session-cost')!.textContent).toBe('$0.01');
    expect(h.q('context-bar')!.title).toContain('600 cached');
    expect(h.q('session-title')!.title).toBe('Fix the parser');
  });

  test('a model switch shows the new window at once, before the next turn', async () => {
    const use = (windowTokens: number) => ({ usedTokens: 24000, windowTokens, sessionCost: 0, sessionUsage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cost: 0 } });
    await h.host(snapshot({ context: use(32000), messages: [hi] }));
    expect(h.q('context-label')!.textContent).toBe('24k / 32k');
    // session/setModel publishes the context alone: a usage event with no message or turn.
    await h.host(ev({ kind: 'usage', turnId: '', context: use(200000) }));
    expect(h.q('context-label')!.textContent).toBe('24k / 200k');
    expect(h.q('context-bar')!.title).toContain('200');
    // It adds nothing to the transcript and starts no turn.
    expect(h.qa('message-event')).toHaveLength(0);
    expect(h.qa('message-assistant')).toHaveLength(0);
    expect(h.q('stop')).toBeNull();
  });

  test("the session's own /model choice names the button, with the window it brings", async () => {
    const use = (windowTokens: number, profile?: string) => ({
      usedTokens: 24000,
      windowTokens,
      sessionCost: 0,
      sessionUsage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cost: 0 },
      profile,
    });
    await h.host(snapshot({ context: use(64000, 'deepseek'), messages: [hi] }));
    await h.host({ type: 'model', status: model() });
    expect(h.q('model-picker')!.textContent).toContain('deepseek');
    expect(h.q('model-picker')!.title).toContain('deepseek-reasoner');
    // /model strong in this session: govibe.model stays deepseek.
    await h.host(ev({ kind: 'usage', turnId: '', context: use(200000, 'strong') }));
    expect(h.q('model-picker')!.querySelector('.model-label')!.textContent).toBe('strong');
    expect(h.q('model-picker')!.title).toBe('strong');
    expect(h.q('context-label')!.textContent).toBe('24k / 200k');
    // An older sidecar that names no profile leaves govibe.model's label.
    await h.host(ev({ kind: 'usage', turnId: '', context: use(64000) }));
    expect(h.q('model-picker')!.querySelector('.model-label')!.textContent).toBe('deepseek');
  });

  test('Retry on an error resends the same message, in the failed attempt\'s place', async () => {
    await h.host(snapshot({ messages: [message({ id: 't1', role: 'user', turnId: 't1', parts: [{ type: 'text', text: 'Please fix Add' }] })] }));
    await h.host(ev({ kind: 'turnStarted', turnId: 't1', message: message({ id: 'a1', turnId: 't1', status: 'pending' }) }));
    await h.host(ev({ kind: 'error', turnId: 't1', messageId: 'a1', error: { message: 'The model endpoint timed out.' } }));
    await h.host(ev({ kind: 'turnFinished', turnId: 't1', status: 'error' }));
    h.q('error-retry')!.click();
    await flush();
    expect(h.posted).toContainEqual({ type: 'send', text: 'Please fix Add', sessionId: SID, retryOf: 't1' });
    // The failed attempt leaves at once: no second copy of the message
    // appears under it, no old error card keeps a live Retry.
    expect(h.qa('message-user')).toHaveLength(0);
    expect(h.qa('error')).toHaveLength(0);
    // The retry fails again: one message, one error card, one Retry.
    await h.host(ev({ kind: 'message', turnId: 't2', message: message({ id: 't2', role: 'user', turnId: 't2', parts: [{ type: 'text', text: 'Please fix Add' }] }) }));
    await h.host(ev({ kind: 'turnStarted', turnId: 't2', message: message({ id: 'a2', turnId: 't2', status: 'pending' }) }));
    await h.host(ev({ kind: 'error', turnId: 't2', messageId: 'a2', error: { message: 'The model endpoint timed out.' } }));
    await h.host(ev({ kind: 'turnFinished', turnId: 't2', status: 'error' }));
    expect(h.qa('message-user')).toHaveLength(1);
    expect(h.qa('error')).toHaveLength(1);
    expect(h.qa('error-retry')).toHaveLength(1);
  });

  test('only the latest turn\'s error offers Retry', async () => {
    await h.host(snapshot({ messages: [message({ id: 't1', role: 'user', turnId: 't1', parts: [{ type: 'text', text: 'first' }] })] }));
    await h.host(ev({ kind: 'error', turnId: 't1', error: { message: 'boom' } }));
    await h.host(ev({ kind: 'message', turnId: 't2', message: message({ id: 't2', role: 'user', turnId: 't2', parts: [{ type: 'text', text: 'second' }] }) }));
    expect(h.qa('error')).toHaveLength(1);
    expect(h.qa('error-retry')).toHaveLength(0);
  });

  test('the model-problem banner does not repeat what the last turn\'s error card says', async () => {
    await h.host(snapshot({ messages: [message({ id: 't1', role: 'user', turnId: 't1', parts: [{ type: 'text', text: 'hi' }] })] }));
    await h.host({ type: 'model', status: model({ problem: { text: 'Cannot reach http://127.0.0.1:9/v1.', action: 'openSettings', unreachable: true } }) });
    expect(h.q('model-problem')).not.toBeNull();
    await h.host(ev({ kind: 'error', turnId: 't1', error: { message: 'The model endpoint http://127.0.0.1:9/v1 cannot be reached.' } }));
    expect(h.q('model-problem')).toBeNull();
    expect(h.qa('error')).toHaveLength(1);
    // A new message: the banner is back until the chat shows the outcome.
    await h.host(ev({ kind: 'message', turnId: 't2', message: message({ id: 't2', role: 'user', turnId: 't2', parts: [{ type: 'text', text: 'again' }] }) }));
    expect(h.q('model-problem')).not.toBeNull();
  });
  test('New chat empties the view at once, so a message typed next goes to the new chat', async () => {
    await h.host(snapshot({ messages: [message({ id: 'u1', role: 'user', turnId: 't1', parts: [{ type: 'text', text: 'ping alpha' }] })] }));
    expect(h.qa('message-user')).toHaveLength(1);
    h.q('new-session')!.click();
    await flush();
    expect(h.posted).toContainEqual({ type: 'newSession' });
    // Before the host has made the session: no old transcript, no old title.
    expect(h.qa('message-user')).toHaveLength(0);
    expect(h.q('session-title')!.textContent).toBe('New chat');
    typeInto(h.q<HTMLTextAreaElement>('chat-input')!, 'ping beta');
    await flush();
    h.q('send')!.click();
    await flush();
    // Naming no session: the host sends it to the chat New chat makes.
    expect(h.posted.filter((m) => m.type === 'send')).toEqual([{ type: 'send', text: 'ping beta' }]);
    // The old chat's late events do not bring its transcript back.
    await h.host(ev({ kind: 'textDelta', turnId: 't1', text: 'late' }));
    expect(h.qa('message-assistant')).toHaveLength(0);
  });
});
