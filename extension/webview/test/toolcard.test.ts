// Tool cards say how a call was decided: run without asking (naming the
// rule), or declined by the user, which is a choice and not an error;
// a refusal's display text for people; hook runs as notice lines.
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
    await result({
      callId: 'c5',
      name: 'run_shell_command',
      arguments: '{"command":"make"}',
      ok: true,
      meta: { exitCode: 0, autoApproved: { by: 'hook', detail: './check.sh' } },
    });
    const cards = h.qa('tool-card');
    expect(cards.map((c) => c.querySelector('[data-testid="auto-approved"]')?.textContent?.trim())).toEqual([
      'auto-approved: read-only command',
      'auto-approved: allow rule Bash(go test:*)',
      'auto-approved: edits auto-approve setting',
      undefined,
      'auto-approved: a PreToolUse hook (./check.sh)',
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

  test('a tool the mode withholds is a neutral card with the reason, live and from history', async () => {
    await h.host(snapshot());
    const withheld = {
      callId: 'c1',
      name: 'edit',
      ok: false,
      output: 'tool "edit" is not available to this agent: the planning phase does not allow edit',
      display: 'Plan mode does not edit: the plan is proposed first.',
      meta: { withheld: true },
    };
    await result(withheld);
    const check = () => {
      const card = h.q('tool-card')!;
      expect(card.dataset.status).toBe('withheld');
      expect(card.classList.contains('status-error')).toBe(false);
      expect(card.querySelector('details')!.open).toBe(false);
      expect(card.querySelector('.tool-error, .tool-error-line')).toBeNull();
      expect(h.q('tool-withheld')!.textContent).toBe('Plan mode does not edit: the plan is proposed first.');
      expect(card.textContent).not.toContain('is not available to this agent');
    };
    check();
    await h.host(
      snapshot({
        messages: [
          message({ id: 'a1', seq: 1, parts: [{ type: 'tool_call', toolCallId: 'c1', name: 'edit', arguments: '{}' }] }),
          message({ id: 't1', seq: 2, role: 'tool', parts: [{ type: 'tool_result', toolCallId: 'c1', ok: false, output: withheld.output, display: withheld.display, meta: withheld.meta }] }),
        ],
      }),
    );
    check();
  });

  test('a call the user’s PreToolUse hook blocked is a neutral card labelled as a hook’s', async () => {
    await h.host(snapshot());
    await result({
      callId: 'c1',
      name: 'grep_search',
      ok: false,
      output: 'Blocked by a PreToolUse hook: searching is not allowed here',
      display: 'Not run: a PreToolUse hook blocked it: searching is not allowed here',
      meta: { withheld: true, withheldBy: 'hook' },
    });
    const card = h.q('tool-card')!;
    expect(card.dataset.status).toBe('withheld');
    expect(card.classList.contains('status-error')).toBe(false);
    expect(card.querySelector('.tool-error, .tool-error-line')).toBeNull();
    expect(card.querySelector('summary .codicon')!.getAttribute('title')).toBe('Blocked by a hook');
    expect(h.q('tool-withheld')!.textContent).toBe('Not run: a PreToolUse hook blocked it: searching is not allowed here');
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

  test('a result with display text shows it instead of the model-facing output', async () => {
    await h.host(snapshot());
    await result({
      callId: 'c1',
      name: 'mcp__github__create_issue',
      ok: false,
      output: 'The user declined the call of mcp__github__create_issue.',
      display: '你拒绝了这次调用。',
    });
    // A failed card starts open.
    expect(h.q('tool-output')!.textContent).toBe('你拒绝了这次调用。');
    expect(h.q('tool-card')!.textContent).not.toContain('The user declined');
  });

  test('display text read back from history is shown too; without it the output is', async () => {
    await h.host(
      snapshot({
        messages: [
          message({
            id: 'a1',
            seq: 1,
            parts: [
              { type: 'tool_call', toolCallId: 'c1', name: 'web_fetch', arguments: '{}' },
              { type: 'tool_call', toolCallId: 'c2', name: 'web_fetch', arguments: '{}' },
            ],
          }),
          message({
            id: 't1',
            seq: 2,
            role: 'tool',
            parts: [
              { type: 'tool_result', toolCallId: 'c1', ok: false, output: 'refused: private address', display: 'Blocked: a private address' },
              { type: 'tool_result', toolCallId: 'c2', ok: false, output: 'plain failure' },
            ],
          }),
        ],
      }),
    );
    // Failed cards start open.
    expect(h.qa('tool-output').map((o) => o.textContent)).toEqual(['Blocked: a private address', 'plain failure']);
  });
});

describe('hook runs', () => {
  test('each run is a short notice line; a blocking one is a warning', async () => {
    await h.host(snapshot());
    await h.host(ev({ kind: 'hook', hook: { event: 'PreToolUse', command: './check.sh', source: 'user', exitCode: 0, durationMs: 12, result: 'ok' } }));
    await h.host(
      ev({
        kind: 'hook',
        hook: { event: 'PreToolUse', command: 'deny-rm', source: 'workspace', exitCode: 2, durationMs: 5, result: 'blocked', note: 'rm is not allowed' },
      }),
    );
    const [ok, blocked] = h.qa('hook-notice');
    expect(ok.textContent!.trim()).toBe('Hook PreToolUse: ./check.sh — ok');
    expect(ok.classList.contains('notice-info')).toBe(true);
    expect(blocked.textContent).toContain('Hook PreToolUse: deny-rm — blocked');
    expect(blocked.textContent).toContain('rm is not allowed');
    expect(blocked.classList.contains('notice-warn')).toBe(true);
  });

  test('a hook event without its run adds nothing', async () => {
    await h.host(snapshot());
    await h.host(ev({ kind: 'hook' }));
    expect(h.qa('hook-notice')).toEqual([]);
  });
});
