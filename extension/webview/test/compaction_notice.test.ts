import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type Harness, SID, ev, flush, message, resetSeq, snapshot, start } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => h.unmount());

const kept = '<kept_verbatim>\n<current_request>\nport the tokenizer\n</current_request>\n</kept_verbatim>';

const divider = (id: string, meta: Record<string, unknown>, texts: string[]) =>
  message({
    id,
    role: 'event',
    parts: [{ type: 'notice', level: 'info', meta: { kind: 'compaction', ...meta } }, ...texts.map((text) => ({ type: 'text', text }))],
  });

describe('compaction notice', () => {
  test('names what was summarised and what was kept, and shows the kept block with the summary', async () => {
    await h.host(snapshot({ messages: [] }));
    await h.host(
      ev({
        kind: 'compaction',
        sessionId: SID,
        messageId: 'c1',
        message: divider(
          'c1',
          { savedTokens: 12000, summarisedMessages: 42, kept: { request: true, todos: 5, todosDone: 2, decisions: 3 } },
          ['We ported **the lexer**.', kept],
        ),
      }),
    );
    const comp = h.q('compaction')!;
    expect(comp.textContent).toContain('Earlier messages were summarised (saved 12k tokens)');
    expect(h.q('compaction-summarised')!.textContent).toBe('42 messages summarised');
    expect(h.q('compaction-kept')!.textContent).toBe('kept word for word: your request, the todo list (2 of 5 done), 3 decisions of yours');
    expect(h.q('compaction-kept-text')).toBeNull();
    h.q('compaction-toggle')!.click();
    await flush();
    expect(h.q('compaction')!.querySelector('strong')!.textContent).toBe('the lexer');
    // The kept block is its own labelled sections, not mixed into the
    // summary, and without the tags the model reads.
    const keptEl = h.q('compaction-kept-text')!;
    expect(keptEl.querySelector('strong')!.textContent).toBe('Your current request');
    expect(keptEl.querySelector('pre')!.textContent).toBe('port the tokenizer');
    expect(keptEl.textContent).not.toContain('<');
    expect(h.q('compaction')!.querySelector('strong')!.closest('div')!.textContent).not.toContain('port the tokenizer');
  });

  test('a divider from before kept blocks shows its summary alone', async () => {
    await h.host(snapshot({ messages: [divider('c0', { savedTokens: 500 }, ['old summary'])] }));
    expect(h.q('compaction')!.textContent).toContain('saved 500 tokens');
    expect(h.q('compaction-detail')).toBeNull();
    h.q('compaction-toggle')!.click();
    await flush();
    expect(h.q('compaction')!.textContent).toContain('old summary');
    expect(h.q('compaction-kept-text')).toBeNull();
  });

  test('one decision is worded in the singular; nothing kept names only the count', async () => {
    await h.host(
      snapshot({
        messages: [
          divider('c2', { savedTokens: 900, summarisedMessages: 7, kept: { decisions: 1 } }, ['s', 'k']),
          divider('c3', { savedTokens: 900, summarisedMessages: 9 }, ['s']),
        ],
      }),
    );
    const [a, b] = h.qa('compaction');
    expect(a.textContent).toContain('kept word for word: 1 decision of yours');
    expect(b.textContent).toContain('9 messages summarised');
    expect(b.textContent).not.toContain('kept word for word');
  });
});
