// Scrolling rules: follow the bottom while there, stop when the user
// scrolls up (with "jump to latest"), a send scrolls to the new turn, a
// session from the history opens at its end, and the position is saved
// promptly for a reload.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type Harness, SID, ev, flush, load, message, resetSeq, snapshot, start, typeInto } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => h.unmount());

const many = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) =>
    message({ id: `m${i + from}`, seq: i + from, role: i % 2 ? 'assistant' : 'user', parts: [{ type: 'text', text: `message number ${i + from}` }] }),
  );

async function scrollTo(top: number) {
  const list = h.q('transcript')!;
  list.scrollTop = top;
  list.dispatchEvent(new Event('scroll'));
  await flush();
}

const shown = () => h.root.textContent ?? '';

describe('scrolling', () => {
  test('scrolling up stops following; jump to latest comes back to the end', async () => {
    await h.host(snapshot({ messages: many(300) }));
    expect(shown()).toContain('message number 300');
    expect(h.q('jump-latest')).toBeNull();
    await scrollTo(100);
    expect(h.q('jump-latest')).not.toBeNull();
    // New output does not pull the reader down.
    await h.host(ev({ kind: 'textDelta', messageId: 'a9', text: 'streaming answer' }));
    expect(shown()).not.toContain('streaming answer');
    h.q('jump-latest')!.click();
    await flush();
    expect(shown()).toContain('streaming answer');
    expect(h.q('jump-latest')).toBeNull();
  });

  test('sending scrolls to the new turn', async () => {
    await h.host(snapshot({ messages: many(300) }));
    await scrollTo(50);
    expect(shown()).not.toContain('message number 300');
    typeInto(h.q<HTMLTextAreaElement>('chat-input')!, 'next question');
    await flush();
    h.q('send')!.click();
    await flush();
    await h.host(ev({ kind: 'message', message: message({ id: 'u-new', seq: 301, role: 'user', parts: [{ type: 'text', text: 'next question' }] }) }));
    expect(shown()).toContain('next question');
    expect(h.q('jump-latest')).toBeNull();
  });

  test('a reload restores the position; a session opened from the history starts at its end', async () => {
    h.unmount();
    h = await start({ scrollTop: 120, atBottom: false, scrollSession: SID, sessionId: SID });
    await h.host(snapshot({ messages: many(300) }));
    expect(h.q('transcript')!.scrollTop).toBe(120);
    expect(shown()).not.toContain('message number 300');

    h.unmount();
    h = await start({ scrollTop: 120, atBottom: false, scrollSession: 'another-session', sessionId: 'another-session' });
    await h.host(snapshot({ messages: many(300) }));
    expect(shown()).toContain('message number 300');
    expect(h.q('jump-latest')).toBeNull();
  });

  test('the position is saved within the debounce and at once on pagehide', async () => {
    await h.host(snapshot({ messages: many(300) }));
    await scrollTo(200);
    window.dispatchEvent(new Event('pagehide'));
    expect(h.savedState()).toMatchObject({ scrollTop: 200, atBottom: false, scrollSession: SID });
    await scrollTo(260);
    await new Promise((r) => setTimeout(r, 200));
    expect(h.savedState()).toMatchObject({ scrollTop: 260, atBottom: false });
  });

  test('at the very top, wheel and keys upwards load older messages', async () => {
    await h.host(snapshot({ messages: many(300, 101), hasMore: true }));
    await scrollTo(0);
    expect(h.posted.at(-1)).toEqual({ type: 'loadMore', sessionId: SID, beforeSeq: 101 });
    await h.host({ type: 'page', sessionId: SID, result: load({ messages: many(50, 51), hasMore: true }) });
    // Stuck at the top with no scroll event to come: wheel upwards asks.
    const list = h.q('transcript')!;
    list.scrollTop = 0;
    list.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, bubbles: true }));
    await flush();
    expect(h.posted.at(-1)).toEqual({ type: 'loadMore', sessionId: SID, beforeSeq: 51 });
    await h.host({ type: 'page', sessionId: SID, result: load({ messages: many(25, 26), hasMore: true }) });
    list.scrollTop = 0;
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageUp', bubbles: true }));
    await flush();
    expect(h.posted.at(-1)).toEqual({ type: 'loadMore', sessionId: SID, beforeSeq: 26 });
    // Downwards input at the top asks for nothing.
    const n = h.posted.length;
    list.dispatchEvent(new WheelEvent('wheel', { deltaY: 100, bubbles: true }));
    expect(h.posted.length).toBe(n);
  });

  test('"Loading earlier messages…" shows while a page is asked for, until it comes', async () => {
    await h.host(snapshot({ messages: many(300, 101), hasMore: true }));
    expect(h.root.querySelector('.loading-more')).toBeNull();
    await scrollTo(0);
    await flush();
    expect(h.root.querySelector('.loading-more')?.textContent).toBe('Loading earlier messages…');
    await h.host({ type: 'page', sessionId: SID, result: load({ messages: many(50, 51), hasMore: true }) });
    await flush();
    expect(h.root.querySelector('.loading-more')).toBeNull();
  });
});
