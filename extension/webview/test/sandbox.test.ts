// The OS sandbox in the chat: a shell card says how its command ran and
// what the sandbox denied it (neutral, not an error), and the card that
// offers to widen the sandbox after a denial names the grant on its
// accept button and offers no "always allow" rules.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ConfirmRequest, ToolEvent } from '../../src/protocol.gen';
import { denialOf, denialText, sandboxAcceptLabel, sandboxOf, sandboxText } from '../src/sandbox';
import { type Harness, SID, ev, flush, resetSeq, snapshot, start } from './harness';

const ZH = JSON.parse(readFileSync(join(__dirname, '../l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;

describe('how a command ran', () => {
  test('each form the sidecar sends gets its words', () => {
    expect(sandboxText('read-only; no network')).toBe('sandbox: read-only · no network');
    expect(sandboxText('workspace-write; no network')).toBe('sandbox: workspace write · no network');
    expect(sandboxText('workspace-write; network: proxy.golang.org, registry.npmjs.org, …')).toBe(
      'sandbox: workspace write · network: proxy.golang.org, registry.npmjs.org, …',
    );
    expect(sandboxText('none')).toBe('no sandbox');
    // A form this view does not know is shown as sent, not guessed at.
    expect(sandboxText('seatbelt; offline')).toBe('sandbox: seatbelt · offline');
  });

  test('only a non-empty string counts', () => {
    expect(sandboxOf({ sandbox: 'read-only; no network' })).toBe('read-only; no network');
    expect(sandboxOf({ sandbox: '' })).toBeUndefined();
    expect(sandboxOf({ sandbox: 3 })).toBeUndefined();
    expect(sandboxOf(undefined)).toBeUndefined();
  });
});

describe('what the sandbox denied', () => {
  test('a write, the network, a protected path, each in words', () => {
    expect(denialText(denialOf({ sandboxDenial: { paths: ['out.txt'], write: true } })!)).toBe('The sandbox denied: writing out.txt');
    expect(denialText(denialOf({ sandboxDenial: { write: true } })!)).toBe('The sandbox denied: a write to the workspace');
    expect(denialText(denialOf({ sandboxDenial: { network: true, domains: ['example.com', 'x.org'] } })!)).toBe(
      'The sandbox denied: network access to example.com, x.org',
    );
    expect(denialText(denialOf({ sandboxDenial: { network: true } })!)).toBe('The sandbox denied: network access');
    expect(denialText(denialOf({ sandboxDenial: { paths: ['a', 'b'], write: true, network: true, domains: ['example.com'] } })!)).toBe(
      'The sandbox denied: writing a, b; network access to example.com',
    );
    expect(denialText(denialOf({ sandboxDenial: { removed: ['/w/.git/hooks/pre-commit'] } })!)).toBe(
      'The sandbox denied: creating /w/.git/hooks/pre-commit (protected; removed afterwards)',
    );
  });

  test('a path or domain implies its kind; an empty or malformed denial is none', () => {
    expect(denialOf({ sandboxDenial: { paths: ['x'] } })?.write).toBe(true);
    expect(denialOf({ sandboxDenial: { domains: ['example.com'] } })?.network).toBe(true);
    expect(denialOf({ sandboxDenial: {} })).toBeUndefined();
    expect(denialOf({ sandboxDenial: { paths: [1, ''], write: 'yes' } })).toBeUndefined();
    expect(denialOf({ sandboxDenial: ['x'] })).toBeUndefined();
    expect(denialOf({})).toBeUndefined();
  });
});

describe('the accept button of a sandbox-denied card', () => {
  test('is the first offer without its detail', () => {
    expect(sandboxAcceptLabel(['Run again with write access (denied: writing out.txt)'])).toBe('Run again with write access');
    expect(sandboxAcceptLabel(['Run again with write access'])).toBe('Run again with write access');
    expect(sandboxAcceptLabel(['Allow network to example.com'])).toBe('Allow network to example.com');
    expect(sandboxAcceptLabel(['Allow network (to the allowed domains)'])).toBe('Allow network');
    // The sidecar's zh-CN words use full-width brackets.
    expect(sandboxAcceptLabel(['以写入权限重新运行（被拒绝：写入 out.txt）'])).toBe('以写入权限重新运行');
  });

  test('a bracket inside the detail does not cut the label short', () => {
    expect(sandboxAcceptLabel(['Run again with write access (denied: writing a (1).txt, b(2).txt)'])).toBe('Run again with write access');
  });

  test('a long offer is cut to fit the sidebar; several offers are granted together', () => {
    const long = sandboxAcceptLabel([`Allow network to ${Array.from({ length: 8 }, (_, i) => `host${i}.example.com`).join(', ')}`]);
    expect(long.length).toBeLessThanOrEqual(48);
    expect(long.endsWith('…')).toBe(true);
    expect(sandboxAcceptLabel(['Run again with write access', 'Allow network to example.com'])).toBe('Allow these and run again');
    expect(sandboxAcceptLabel([])).toBe('Run again');
  });
});

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

const denied = {
  callId: 'c1',
  name: 'run_shell_command',
  arguments: '{"command":"touch out.txt"}',
  ok: false,
  output: "$ touch out.txt\n(cwd ., exit code 1, 3 ms, sandbox: read-only; no network)\nstderr:\ntouch: cannot touch 'out.txt': Read-only file system",
  meta: {
    exitCode: 1,
    sandbox: 'read-only; no network',
    sandboxDenial: { paths: ['out.txt'], write: true },
    autoApproved: { by: 'setting', detail: 'govibe.sandbox.autoApprove' },
  },
};

describe('the shell tool card', () => {
  test('says how the command ran, and why it ran unasked', async () => {
    await h.host(snapshot());
    await result({ callId: 'c1', name: 'run_shell_command', ok: true, meta: { exitCode: 0, sandbox: 'read-only; no network', autoApproved: { by: 'read-only' } } });
    await result({ callId: 'c2', name: 'run_shell_command', ok: true, meta: { exitCode: 0, sandbox: 'workspace-write; network: proxy.golang.org' } });
    await result({ callId: 'c3', name: 'run_shell_command', ok: true, meta: { exitCode: 0, sandbox: 'none' } });
    await result({ callId: 'c4', name: 'run_shell_command', ok: true, meta: { exitCode: 0 } });
    const cards = h.qa('tool-card');
    expect(cards.map((c) => c.querySelector('[data-testid="tool-sandbox"]')?.textContent)).toEqual([
      'sandbox: read-only · no network',
      'sandbox: workspace write · network: proxy.golang.org',
      'no sandbox',
      undefined,
    ]);
    expect(cards[0].querySelector('[data-testid="auto-approved"]')!.textContent!.trim()).toBe('auto-approved: read-only command');
    expect(h.qa('sandbox-denial')).toEqual([]);
  });

  test('a denial is a plain line on a neutral, folded card', async () => {
    await h.host(snapshot());
    await result(denied);
    const card = h.q('tool-card')!;
    expect(card.dataset.status).toBe('error');
    expect(card.classList.contains('sandbox-denied')).toBe(true);
    const icon = card.querySelector('summary .codicon')!;
    expect(icon.classList.contains('codicon-lock')).toBe(true);
    expect(icon.getAttribute('title')).toBe('Blocked by the sandbox');
    expect(h.q('sandbox-denial')!.textContent!.trim()).toBe('The sandbox denied: writing out.txt');
    expect(card.querySelector('[data-testid="auto-approved"]')!.textContent!.trim()).toBe('ran unasked in the read-only sandbox');
    expect(card.querySelector('[data-testid="tool-sandbox"]')!.textContent).toBe('sandbox: read-only · no network');
    // Unlike other failures it starts folded, with no red first line.
    expect(card.querySelector('details')!.open).toBe(false);
    expect(card.querySelector('.tool-error-line')).toBeNull();
    // Opened, the output is there under "Result", not dressed as an error.
    card.querySelector('summary')!.click();
    await flush();
    expect(h.q('tool-output')!.classList.contains('tool-error')).toBe(false);
    expect(Array.from(card.querySelectorAll('.tool-label')).map((l) => l.textContent)).toEqual(['Arguments', 'Result']);
  });

  test('an ordinary failure keeps the error look', async () => {
    await h.host(snapshot());
    await result({ callId: 'c1', name: 'run_shell_command', ok: false, output: 'exit code 2', meta: { exitCode: 2, sandbox: 'workspace-write; no network' } });
    expect(h.q('tool-card')!.classList.contains('sandbox-denied')).toBe(false);
    expect(h.q('tool-output')!.classList.contains('tool-error')).toBe(true);
    expect(h.q('sandbox-denial')).toBeNull();
  });

  test('in Chinese', async () => {
    await h.host(snapshot({}, { l10n: ZH, locale: 'zh-cn' }));
    await result(denied);
    expect(h.q('sandbox-denial')!.textContent!.trim()).toBe('沙箱拒绝了：写入 out.txt');
    expect(h.q('tool-sandbox')!.textContent).toBe('沙箱：只读 · 无网络');
    expect(h.q('auto-approved')!.textContent!.trim()).toBe('未经询问，在只读沙箱中运行');
    expect(h.q('tool-card')!.querySelector('summary .codicon')!.getAttribute('title')).toBe('被沙箱阻止');
  });
});

function req(p: Partial<ConfirmRequest> & { id: string }): ConfirmRequest {
  return { sessionId: SID, turnId: 't1', toolCallId: `c-${p.id}`, kind: 'shell', ...p };
}

function alt(code: string): KeyboardEvent {
  const e = new KeyboardEvent('keydown', { code, key: code.slice(3).toLowerCase(), altKey: true, bubbles: true, cancelable: true });
  window.dispatchEvent(e);
  return e;
}

const offer = (id: string, reasons: string[], extra: Partial<ConfirmRequest> = {}) =>
  req({ id, command: "python3 -c \"open('out.txt','w')\"", cwd: '/w', analysis: { class: 'sandbox-denied', reasons }, ...extra });

describe('the sandbox-denied confirmation', () => {
  test('names what was denied; its accept button names the grant; no rules, no editing', async () => {
    await h.host(snapshot());
    // Even if rules came along, this card never writes any.
    await h.host({ type: 'confirm', request: offer('s1', ['Run again with write access (denied: writing out.txt)'], { allowRules: ['Bash(python3:*)'] }) });
    const card = h.q('confirm-card')!;
    expect(card.dataset.class).toBe('sandbox-denied');
    expect(card.querySelector('.confirm-title')!.textContent!.trim()).toBe('The sandbox blocked this command');
    expect(h.qa('sandbox-offers')[0].textContent).toBe('Run again with write access (denied: writing out.txt)');
    expect(h.q('confirm-command-text')!.textContent).toBe("python3 -c \"open('out.txt','w')\"");
    expect(h.q('confirm-allow')!.textContent).toBe('Run again with write access Alt+A');
    expect(h.q('confirm-deny')!.textContent).toBe('Leave it Alt+R');
    expect(h.q('confirm-always')).toBeNull();
    expect(h.q('confirm-always-rules')).toBeNull();
    expect(h.q('confirm-command')).toBeNull();
    expect(h.q('confirm-reason')).toBeNull();
    expect(h.q('shell-class')).toBeNull();
    h.q('confirm-allow')!.click();
    expect(h.posted).toContainEqual({ type: 'resolve', id: 's1', decision: 'accept' });
    await flush();
    expect(h.q('confirm-resolved')!.textContent).toContain('Accepted');
  });

  test('Alt+R leaves it; two offers are granted by one button that says so', async () => {
    await h.host(snapshot());
    await h.host({ type: 'confirm', request: offer('s1', ['Run again with write access', 'Allow network to example.com']) });
    expect(h.qa('sandbox-offers')[0].querySelectorAll('li')).toHaveLength(2);
    expect(h.q('confirm-allow')!.textContent).toBe('Allow these and run again Alt+A');
    expect(alt('KeyR').defaultPrevented).toBe(true);
    expect(h.posted).toContainEqual({ type: 'resolve', id: 's1', decision: 'reject' });
  });

  test('"Run outside the sandbox" is offered only when the sidecar offers it, and answers outside', async () => {
    await h.host(snapshot());
    await h.host({ type: 'confirm', request: offer('s1', ['Run again with write access']) });
    expect(h.q('confirm-outside')).toBeNull();
    await h.host({ type: 'confirm', request: offer('s2', ['Run again with write access'], { options: ['outside'] }) });
    const b = h.qa('confirm-outside');
    expect(b).toHaveLength(1);
    expect(b[0].textContent!.trim()).toBe('Run outside the sandbox');
    expect(b[0].getAttribute('title')).toContain('no sandbox');
    (b[0] as HTMLElement).click();
    expect(h.posted).toContainEqual({ type: 'resolve', id: 's2', decision: 'accept', answer: 'outside' });
  });

  test('other shell cards are unchanged', async () => {
    await h.host(snapshot());
    await h.host({ type: 'confirm', request: req({ id: 's1', command: 'touch a', analysis: { class: 'mutating', reasons: ['creates a'] } }) });
    expect(h.q('confirm-card')!.dataset.class).toBeUndefined();
    expect(h.q('confirm-command')).not.toBeNull();
    expect(h.q('confirm-allow')!.textContent).toContain('Allow');
  });

  test('in Chinese', async () => {
    await h.host(snapshot({}, { l10n: ZH, locale: 'zh-cn' }));
    await h.host({ type: 'confirm', request: offer('s1', ['以写入权限重新运行（被拒绝：写入 out.txt）']) });
    expect(h.q('confirm-card')!.querySelector('.confirm-title')!.textContent!.trim()).toBe('沙箱阻止了此命令');
    expect(h.q('confirm-allow')!.textContent).toBe('以写入权限重新运行 Alt+A');
    expect(h.q('confirm-deny')!.textContent).toBe('保持现状 Alt+R');
  });
});
