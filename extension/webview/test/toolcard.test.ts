// Tool cards say how a call was decided: run without asking (naming the
// rule), or declined by the user, which is a choice and not an error.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ToolEvent } from '../../src/protocol.gen';
import { type Harness, ev, message, resetSeq, snapshot, start } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => h.unmount());

async function result(tool: Partial<ToolEvent> & { callId: string; name: string; ok: boolean }) {
  await h.host(ev({ kind: 'toolCall', messageId: 'a1', tool: { ...tool, ok: false } }));
  await h.host(ev({ kind: 'toolResult', messageId: 'a1', tool }));
}

describe('auto-approval and declined cards', () => {
  test('each auto-approved card names its rule', async () => {
    await h.host(snapshot());
    await result({ callId: 'c1', name: 'run_shell_command', arguments: '{"command":"ls"}', ok: true, meta: { exitCode: 0, autoApproved: { by: 'read-only' } } });
    await result({
      callId: 'c2',
      name: 'run_shell_command',
      arguments: '{"command":"go test ./..."}',
      ok: true,
      meta: { exitCode: 0, autoApproved: { by: 'rule', detail: 'Bash(go test:*)' } },
    });
    await result({
      callId: 'c3',
      name: 'write_file',
      ok: true,
      meta: { path: 'a.go', before: '', after: 'x', autoApproved: { by: 'setting', detail: 'govibe.autoApprove.edits' } },
    });
    await result({ callId: 'c4', name: 'run_shell_command', ok: true, meta: { exitCode: 0 } });
    const cards = h.qa('tool-card');
    expect(cards.map((c) => c.querySelector('[data-testid="auto-approved"]')?.textContent?.trim())).toEqual([
      'auto-approved: read-only command',
      'auto-approved: allow rule Bash(go test:*)',
      'auto-approved: edits auto-approve setting',
      undefined,
    ]);
  });

  test('a denied command is a neutral, folded card with the reason', async () => {
    await h.host(snapshot());
    await result({
      callId: 'c1',
      name: 'run_shell_command',
      ok: false,
      output: 'the user denied running the command; nothing was run\nReason: keep the comment style',
      meta: { declined: true, reason: 'keep the comment style' },
    });
    const card = h.q('tool-card')!;
    expect(card.dataset.status).toBe('declined');
    expect(card.classList.contains('status-error')).toBe(false);
    expect(card.querySelector('details')!.open).toBe(false);
    expect(h.q('tool-declined')!.textContent).toBe('You denied this command: keep the comment style');
  });

  test('a rejected edit read back from history is declined too', async () => {
    await h.host(
      snapshot({
        messages: [
          message({ id: 'a1', seq: 1, parts: [{ type: 'tool_call', toolCallId: 'c1', name: 'edit', arguments: '{}' }] }),
          message({
            id: 't1',
            seq: 2,
            role: 'tool',
            parts: [{ type: 'tool_result', toolCallId: 'c1', ok: false, output: 'the user rejected', meta: { declined: true } }],
          }),
        ],
      }),
    );
    expect(h.q('tool-card')!.dataset.status).toBe('declined');
    expect(h.q('tool-declined')!.textContent).toBe('You rejected this change.');
  });
});
