// Rendering cost in long sessions, asserted as DOM work rather than time:
// a streamed delta touches only the message it streams into, a scroll
// inside the rendered window touches nothing, and deltas are rendered once
// per animation frame.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { type Harness, SID, ev, flush, message, resetSeq, snapshot, start } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => h.unmount());

const many = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    message({
      id: `m${i + 1}`,
      seq: i + 1,
      role: i % 2 ? 'assistant' : 'user',
      parts: [{ type: 'text', text: `message **number** ${i + 1}` }],
    }),
  );

/** Elements changed (attributes, children, text) while fn runs. */
async function mutations(fn: () => Promise<void>): Promise<Element[]> {
  const seen: Element[] = [];
  const mo = new MutationObserver((recs) => {
    for (const r of recs) seen.push((r.target.nodeType === 1 ? r.target : r.target.parentElement) as Element);
  });
  mo.observe(h.q('transcript')!, { subtree: true, childList: true, attributes: true, characterData: true });
  await fn();
  for (const r of mo.takeRecords()) seen.push((r.target.nodeType === 1 ? r.target : r.target.parentElement) as Element);
  mo.disconnect();
  return seen;
}

describe('rendering a long session', () => {
  test('a streamed delta changes only the message being streamed', async () => {
    await h.host(snapshot({ messages: many(400) }));
    await h.host(ev({ kind: 'textDelta', messageId: 'live', text: 'first words' }));
    const live = () => h.root.querySelector('[data-id="live"]')!;
    expect(live().textContent).toContain('first words');
    const changed = await mutations(() => h.host(ev({ kind: 'textDelta', messageId: 'live', text: ' and more' })));
    expect(live().textContent).toContain('first words and more');
    expect(changed.length).toBeGreaterThan(0);
    const outside = changed.filter((el) => !live().contains(el) && !el.classList.contains('vspacer') && !el.classList.contains('vlist'));
    expect(outside.map((el) => el.outerHTML.slice(0, 80))).toEqual([]);
  });

  test('scrolling within the rendered rows renders nothing', async () => {
    await h.host(snapshot({ messages: many(400) }));
    const list = h.q('transcript')!;
    list.scrollTop = 8000;
    list.dispatchEvent(new Event('scroll'));
    await flush();
    const before = list.querySelectorAll('.vrow').length;
    const changed = await mutations(async () => {
      list.scrollTop = 7700;
      list.dispatchEvent(new Event('scroll'));
      await flush();
    });
    expect(changed).toEqual([]);
    expect(list.querySelectorAll('.vrow').length).toBe(before);
    // Far away, the rows there are rendered.
    list.scrollTop = 100;
    list.dispatchEvent(new Event('scroll'));
    await flush();
    expect(h.root.textContent).toContain('message number 2');
  });

  test('deltas arriving within one frame are rendered together, at the frame', async () => {
    await h.host(snapshot({ messages: many(10) }));
    const held: FrameRequestCallback[] = [];
    const raf = vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => held.push(cb));
    const changed = await mutations(async () => {
      // Separate tasks, as the host's messages arrive during a fast stream.
      for (let i = 0; i < 5; i++) {
        window.dispatchEvent(new MessageEvent('message', { data: ev({ kind: 'textDelta', messageId: 'live', text: `w${i} ` }) }));
        await new Promise((r) => setTimeout(r, 0));
      }
    });
    raf.mockRestore();
    expect(changed).toEqual([]);
    expect(h.store.state.messages.at(-1)?.id).toBe('live');
    for (const cb of held.splice(0)) cb(performance.now());
    await flush();
    expect(h.root.querySelector('[data-id="live"]')!.textContent).toContain('w0 w1 w2 w3 w4');
    expect(h.store.state.sessionId).toBe(SID);
  });
});
