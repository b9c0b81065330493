// "Always allow" on command and MCP cards, the MCP card's explicit server
// and tool, the MCP status view and the untrusted-workspace notice.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ConfirmRequest, MCPStatusResult } from '../../src/protocol.gen';
import { type Harness, SID, flush, resetSeq, snapshot, start, typeInto } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
  await h.host(snapshot());
});

afterEach(() => h.unmount());

function req(p: Partial<ConfirmRequest> & { id: string; kind: string }): ConfirmRequest {
  return { sessionId: SID, turnId: 't1', toolCallId: `c-${p.id}`, ...p };
}

const resolves = () => h.posted.filter((p) => p.type === 'resolve');

describe('Always allow', () => {
  test('a command card offers the sidecar’s rule and accepts with alwaysAllow', async () => {
    await h.host({ type: 'confirm', request: req({ id: 's1', kind: 'shell', command: 'go test ./...', allowRules: ['Bash(go test:*)'] }) });
    expect(h.q('confirm-always-rules')!.textContent).toContain('Bash(go test:*)');
    const b = h.q('confirm-always')!;
    b.click();
    await flush();
    expect(resolves()).toEqual([{ type: 'resolve', id: 's1', decision: 'accept', alwaysAllow: true }]);
  });

  test('no rules, no button; an edited command hides it', async () => {
    await h.host({ type: 'confirm', request: req({ id: 's1', kind: 'shell', command: 'echo $X > f' }) });
    expect(h.q('confirm-always')).toBeNull();
    await h.host({ type: 'confirmClosed', closed: { id: 's1', reason: 'resolved' } });
    await h.host({ type: 'confirm', request: req({ id: 's2', kind: 'shell', command: 'make', allowRules: ['Bash(make:*)'] }) });
    expect(h.q('confirm-always')).not.toBeNull();
    typeInto(h.q<HTMLTextAreaElement>('confirm-command')!, 'make clean');
    await flush();
    expect(h.q('confirm-always')).toBeNull();
  });

  test('an MCP card names server and tool from the explicit fields and offers its rule', async () => {
    await h.host({
      type: 'confirm',
      request: req({ id: 't1', kind: 'tool', command: 'mcp__my__srv__x', server: 'my__srv', tool: 'x', question: '{}', allowRules: ['mcp__my__srv__x'] }),
    });
    expect(h.q('confirm-tool-title')!.textContent).toContain('x');
    expect(h.q('confirm-tool-title')!.textContent).toContain('my__srv');
    h.q('confirm-always')!.click();
    await flush();
    expect(resolves()).toEqual([{ type: 'resolve', id: 't1', decision: 'accept', alwaysAllow: true }]);
  });

  test('an edit card offers its file’s rule, names it, and accepts with alwaysAllow', async () => {
    const rule = 'Edit(//home/me/app/notes.txt)';
    await h.host({ type: 'confirm', request: req({ id: 'e1', kind: 'edit', path: '/home/me/app/notes.txt', relPath: 'notes.txt', original: 'a\n', proposed: 'b\n', allowRules: [rule] }) });
    // Shown as the path it is (no double slash); the exact rule is the tooltip.
    expect(h.q('confirm-always-rules')!.textContent).toContain('Edit(/home/me/app/notes.txt)');
    expect(h.q('confirm-always-rules')!.textContent).not.toContain('//');
    expect(h.q('confirm-always-rules')!.title).toBe(rule);
    h.q('confirm-always')!.click();
    await flush();
    expect(resolves()).toEqual([{ type: 'resolve', id: 'e1', decision: 'accept', alwaysAllow: true }]);
  });

  test('an edit card without rules (a protected file) has no Always allow', async () => {
    await h.host({ type: 'confirm', request: req({ id: 'e2', kind: 'edit', path: '/w/.vscode/settings.json', relPath: '.vscode/settings.json', original: '', proposed: '{}' }) });
    expect(h.q('confirm-allow')).not.toBeNull();
    expect(h.q('confirm-always')).toBeNull();
    expect(h.q('confirm-always-rules')).toBeNull();
  });

  test('a fetch card shows the whole URL and the header names, and offers the host’s rule', async () => {
    const url = 'https://docs.example.com/guide?q=' + 'x'.repeat(300);
    await h.host({
      type: 'confirm',
      request: req({ id: 'f1', kind: 'fetch', url, headers: ['Authorization', 'Cookie'], allowRules: ['WebFetch(domain:docs.example.com)'] }),
    });
    const card = h.q('confirm-card')!;
    expect(card.dataset.kind).toBe('fetch');
    expect(h.q('confirm-url')!.textContent).toBe(url);
    expect(h.q('confirm-headers')!.textContent).toContain('Authorization, Cookie');
    expect(h.q('confirm-always-rules')!.textContent).toContain('WebFetch(domain:docs.example.com)');
    h.q('confirm-always')!.click();
    await flush();
    expect(resolves()).toEqual([{ type: 'resolve', id: 'f1', decision: 'accept', alwaysAllow: true }]);
  });

  test('a fetch card is denied with the reason, and Alt+A allows the next', async () => {
    await h.host({ type: 'confirm', request: req({ id: 'f2', kind: 'fetch', url: 'https://a.example/x' }) });
    expect(h.q('confirm-always')).toBeNull();
    typeInto(h.q<HTMLInputElement>('confirm-reason')!, 'not this site');
    await flush();
    h.q('confirm-deny')!.click();
    await flush();
    expect(resolves()).toEqual([{ type: 'resolve', id: 'f2', decision: 'reject', reason: 'not this site' }]);
    await h.host({ type: 'confirmClosed', closed: { id: 'f2', reason: 'resolved' } });
    await h.host({ type: 'confirm', request: req({ id: 'f3', kind: 'fetch', url: 'https://b.example/y' }) });
    window.dispatchEvent(new KeyboardEvent('keydown', { code: 'KeyA', altKey: true }));
    await flush();
    expect(resolves()).toContainEqual({ type: 'resolve', id: 'f3', decision: 'accept' });
  });
});

const status: MCPStatusResult = {
  servers: [
    { name: 'files', state: 'connected', kind: 'stdio', source: '~/.govibe/mcp.json', tools: 3, schemaTokens: 420, restarts: 0 },
    { name: 'web', state: 'failed', kind: 'http', source: '.govibe/mcp.json', tools: 0, schemaTokens: 0, error: 'connection refused', stderrTail: 'boom', restarts: 2 },
  ],
  skipped: [],
};

describe('the MCP status view', () => {
  test('opens from the header, connects, lists servers with state, counts and errors, and acts on one', async () => {
    h.q('mcp-open')!.click();
    await flush();
    expect(h.posted).toContainEqual({ type: 'mcp', action: 'connect' });
    await h.host({ type: 'mcp', status });
    const rows = h.qa('mcp-server');
    expect(rows.map((r) => [r.dataset.name, r.dataset.state])).toEqual([
      ['files', 'connected'],
      ['web', 'failed'],
    ]);
    expect(rows[0].querySelector('[data-testid="mcp-counts"]')!.textContent).toContain('3 tools');
    expect(rows[1].querySelector('[data-testid="mcp-error"]')!.textContent).toBe('connection refused');
    (rows[1].querySelector('[data-testid="mcp-restart"]') as HTMLElement).click();
    (rows[0].querySelector('[data-testid="mcp-toggle-enabled"]') as HTMLElement).click();
    await flush();
    expect(h.posted).toContainEqual({ type: 'mcp', action: 'restart', name: 'web' });
    expect(h.posted).toContainEqual({ type: 'mcp', action: 'disable', name: 'files' });
    h.q('mcp-close')!.click();
    await flush();
    expect(h.q('mcp-panel')).toBeNull();
  });

  test('an untrusted workspace names the skipped files and offers trust', async () => {
    await h.host({ type: 'showMcp' });
    await h.host({ type: 'mcp', status: { servers: [], skipped: ['.govibe/mcp.json'] } });
    expect(h.q('mcp-skipped')!.textContent).toContain('.govibe/mcp.json');
    h.q('mcp-trust')!.click();
    await flush();
    expect(h.posted).toContainEqual({ type: 'command', command: 'trustWorkspace' });
  });

  test('a refused request is shown', async () => {
    await h.host({ type: 'showMcp' });
    await h.host({ type: 'mcp', error: 'no such server' });
    expect(h.q('mcp-panel')!.textContent).toContain('no such server');
  });
});

describe('the untrusted-workspace notice', () => {
  test('carries a Trust workspace button', async () => {
    await h.host({ type: 'notice', level: 'info', text: 'This workspace is not trusted: hooks (.govibe/hooks.json)', action: 'trustWorkspace' });
    const b = h.q('notice-action')!;
    expect(b.textContent).toContain('Trust workspace');
    b.click();
    await flush();
    expect(h.posted).toContainEqual({ type: 'command', command: 'trustWorkspace' });
    expect(h.q('host-notice')).toBeNull();
  });
});

describe('withdrawn notices', () => {
  test('trust granted elsewhere removes the untrusted-workspace notices and keeps the others', async () => {
    await h.host({ type: 'notice', level: 'info', text: 'This workspace is not trusted: hooks (.govibe/hooks.json)', action: 'trustWorkspace' });
    await h.host({ type: 'notice', level: 'warning', text: 'this workspace is not trusted: its GoVibe settings are ignored (model)', action: 'trustWorkspace' });
    await h.host({ type: 'notice', level: 'warning', text: 'moved a corrupt database aside', action: 'showLogs' });
    expect(h.qa('host-notice')).toHaveLength(3);
    await h.host({ type: 'withdrawNotices', action: 'trustWorkspace' });
    const left = h.qa('host-notice');
    expect(left).toHaveLength(1);
    expect(left[0].textContent).toContain('corrupt database');
  });
});

describe('MCP inputs', () => {
  test('a server waiting for inputs offers to enter them', async () => {
    await h.host({ type: 'showMcp' });
    await h.host({
      type: 'mcp',
      status: { servers: [{ name: 'gh', state: 'failed', kind: 'stdio', source: '.vscode/mcp.json', tools: 0, schemaTokens: 0, restarts: 0, error: 'needs inputs: token', needsInputs: [{ id: 'token', password: true }] }], skipped: [] },
    });
    const b = h.q('mcp-inputs')!;
    expect(b.textContent).toContain('token');
    b.click();
    await flush();
    expect(h.posted).toContainEqual({ type: 'mcp', action: 'inputs', name: 'gh' });
  });
});
