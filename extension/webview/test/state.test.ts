// State the view must not misreport: a finished reasoning block does not
// say "Thinking…", and a reopened session's tool cards keep their duration.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type Harness, ev, message, resetSeq, snapshot, start } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => h.unmount());

describe('state that must not lie', () => {
  test('"Thinking…" only while the reasoning is being written', async () => {
    await h.host(snapshot());
    await h.host(ev({ kind: 'turnStarted' }));
    await h.host(ev({ kind: 'reasoningDelta', messageId: 'a1', text: 'let me see' }));
    expect(h.q('reasoning-label')!.textContent).toBe('Thinking…');
    await h.host(ev({ kind: 'textDelta', messageId: 'a1', text: 'The answer.' }));
    expect(h.q('reasoning-label')!.textContent).toBe('Thought process');
    await h.host(ev({ kind: 'turnFinished', status: 'done' }));
    expect(h.q('reasoning-label')!.textContent).toBe('Thought process');
  });

  test('a reopened session shows stored tool durations', async () => {
    await h.host(
      snapshot({
        messages: [
          message({ id: 'a1', seq: 1, parts: [{ type: 'tool_call', toolCallId: 'c1', name: 'run_shell_command', arguments: '{"command":"go test"}' }] }),
          message({ id: 't1', seq: 2, role: 'tool', parts: [{ type: 'tool_result', toolCallId: 'c1', ok: true, output: 'ok', durationMs: 2300 }] }),
        ],
      }),
    );
    expect(h.q('tool-card')!.querySelector('.tool-duration')!.textContent).toBe('2.3 s');
  });
});
