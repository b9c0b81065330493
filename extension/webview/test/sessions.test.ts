// The chat history menu: relative times, the workspace, and full-text
// search through the sidecar.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { SessionInfo } from '../../src/protocol.gen';
import { relativeTime } from '../src/format';
import { type Harness, flush, resetSeq, snapshot, start, typeInto } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => h.unmount());

const info = (id: string, title: string, updated: number): SessionInfo => ({
  id,
  title,
  created: updated,
  updated,
  model: 'm',
  messageCount: 2,
  status: 'idle',
  running: false,
});

describe('session history', () => {
  test('relative times in the UI locale', () => {
    const now = Date.UTC(2026, 10, 24, 12);
    expect(relativeTime(now - 30_000, 'en', now)).toBe('this minute');
    expect(relativeTime(now - 5 * 60_000, 'en', now)).toBe('5 minutes ago');
    expect(relativeTime(now - 26 * 3_600_000, 'en', now)).toBe('yesterday');
    expect(relativeTime(now - 3 * 86_400_000, 'zh-cn', now)).toBe('3天前');
  });

  test('two sessions of the same day read apart, under their workspace', async () => {
    const now = Date.now();
    await h.host(snapshot({}, { sessions: [info('s1', 'Fix the parser', now - 2 * 60_000), info('s2', 'Add a CLI flag', now - 3 * 3_600_000)], workspace: 'calc' }));
    h.q('session-menu')!.click();
    await flush();
    expect(h.q('session-workspace')!.textContent).toContain('Chats in calc');
    expect(h.qa('session-when').map((e) => e.textContent)).toEqual(['2 minutes ago', '3 hours ago']);
  });

  test('opening the history reads the list again; a chat another window added is listed', async () => {
    const now = Date.now();
    await h.host(snapshot({}, { sessions: [info('s1', 'Fix the parser', now)] }));
    h.q('session-menu')!.click();
    await flush();
    expect(h.posted).toContainEqual({ type: 'listSessions' });
    await h.host({ type: 'sessions', sessions: [info('s2', 'From the other window', now), info('s1', 'Fix the parser', now - 1000)] });
    expect(h.qa('session-item').map((e) => e.textContent)).toEqual([expect.stringContaining('From the other window'), expect.stringContaining('Fix the parser')]);
    // Closing it asks nothing.
    const asked = h.posted.filter((m) => m.type === 'listSessions').length;
    h.q('session-menu')!.click();
    await flush();
    expect(h.posted.filter((m) => m.type === 'listSessions')).toHaveLength(asked);
  });

  test('titles read whole, an empty New chat is not history, snippets are plain text', async () => {
    const now = Date.now();
    const long = 'Explain how the tokenizer splits flags from their values';
    await h.host(
      snapshot({}, { sessions: [{ ...info('s0', '', now), messageCount: 0 }, info('s1', long, now - 1000), info('s2', 'Add a CLI flag', now - 2000)] }),
    );
    h.q('session-menu')!.click();
    await flush();
    expect(h.qa('session-name').map((e) => e.textContent)).toEqual([long, 'Add a CLI flag']);
    // The title is not on one line with the time: it has the row's width.
    expect(h.q('session-name')!.parentElement!.contains(h.q('session-when'))).toBe(true);
    typeInto(h.q<HTMLInputElement>('session-search')!, 'Add');
    await flush();
    await new Promise((r) => setTimeout(r, 250));
    await h.host({ type: 'searchResults', query: 'Add', hits: [{ sessionId: 's2', messageId: 'm1', title: 'Add a CLI flag', snippet: '…`Add` subtracts instead of **adding**. Here is `the fix…' }] });
    expect(h.q('session-snippet')!.textContent).toBe('…Add subtracts instead of adding. Here is the fix…');
  });

  test('search filters titles at once and finds message text through session/search', async () => {
    const now = Date.now();
    await h.host(snapshot({}, { sessions: [info('s1', 'Fix the parser', now), info('s2', 'Add a CLI flag', now)] }));
    h.q('session-menu')!.click();
    await flush();
    typeInto(h.q<HTMLInputElement>('session-search')!, 'tokenizer');
    await flush();
    expect(h.qa('session-item')).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 250));
    expect(h.posted).toContainEqual({ type: 'searchSessions', query: 'tokenizer' });
    await h.host({ type: 'searchResults', query: 'tokenizer', hits: [{ sessionId: 's2', messageId: 'm1', title: 'Add a CLI flag', snippet: '…the tokenizer splits flags…' }] });
    expect(h.qa('session-item')).toHaveLength(1);
    expect(h.q('session-snippet')!.textContent).toContain('the tokenizer splits flags');
    // An answer for an older query is not shown against the new one.
    typeInto(h.q<HTMLInputElement>('session-search')!, 'parser');
    await flush();
    expect(h.qa('session-item').map((e) => e.textContent)).toEqual([expect.stringContaining('Fix the parser')]);
    expect(h.q('session-snippet')).toBeNull();
  });
});
