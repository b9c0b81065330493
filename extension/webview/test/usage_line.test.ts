import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type Harness, message, resetSeq, snapshot, start } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => h.unmount());

describe('cache and cost on the answer', () => {
  test('a request shows its cache hit and cost, and hovering names why the cache missed', async () => {
    await h.host(
      snapshot({
        messages: [
          message({
            id: 'a1',
            seq: 2,
            parts: [{ type: 'text', text: 'done' }],
            usage: {
              promptTokens: 2000,
              completionTokens: 10,
              cachedTokens: 1500,
              cacheReportedTokens: 2000,
              cost: 0.0021,
              priced: true,
              cacheMiss: { cause: 'message_rewritten', detail: 'tool result of read_file (c1)', message: 3 },
            },
          }),
          message({ id: 'a2', seq: 4, parts: [{ type: 'text', text: 'again' }], usage: { promptTokens: 700, completionTokens: 5, cachedTokens: 0, cost: 0 } }),
        ],
      }),
    );
    const lines = h.qa('usage-line');
    expect(lines.length).toBe(2);
    expect(lines[0].textContent).toBe('cache 75% · $0.0021');
    expect(lines[0].dataset.miss).toBe('message_rewritten');
    expect(lines[0].title).toContain('message 3 was rewritten (tool result of read_file (c1))');
    // No cache figure and no prices: unknown, never 0%, and tokens only.
    expect(lines[1].textContent).toBe('cache unknown · 705 tokens');
    expect(lines[1].dataset.miss).toBeUndefined();
  });

  test('the header says the session cache hit, unknown when never reported, and tokens when unpriced', async () => {
    await h.host(
      snapshot({
        context: { usedTokens: 642, windowTokens: 128000, sessionCost: 0, sessionUsage: { promptTokens: 9000, completionTokens: 80, cachedTokens: 0, cost: 0 } },
        // The figures show once the chat has a message (an empty chat has none).
        messages: [message({ id: 'u0', role: 'user', parts: [{ type: 'text', text: 'hi' }] })],
      }),
    );
    expect(h.q('context-bar')!.title).toContain('Session cache hit: unknown');
    expect(h.q('context-bar')!.title).toContain('Session cost: unknown');
    expect(h.q('session-cost')!.textContent).toBe('9.1k tok');
  });
});
