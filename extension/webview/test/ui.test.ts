import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { ConfirmRequest } from '../../src/protocol.gen';
import { type Harness, SID, ev, flush, key, message, resetSeq, snapshot, start, typeInto } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => {
  h.unmount();
  delete (window as unknown as { __pwned?: number }).__pwned;
});

const user = (id: string, text: string, turnId = 't1') => message({ id, role: 'user', turnId, parts: [{ type: 'text', text }] });

describe('startup', () => {
  test('posts ready with the saved session and seq', async () => {
    h.unmount();
    h = await start({ draft: 'half typed', lastSeq: 42, sessionId: 's9' });
    expect(h.posted[0]).toEqual({ type: 'ready', lastSeq: 42, sessionId: 's9' });
    expect(h.q<HTMLTextAreaElement>('chat-input')!.value).toBe('half typed');
  });
});

describe('resync', () => {
  test('a gap in seq asks the host for a fresh snapshot', async () => {
    await h.host(snapshot({ lastSeq: 10 }));
    await h.host({ type: 'event', event: { sessionId: SID, seq: 14, kind: 'textDelta', messageId: 'a1', text: 'x' } });
    expect(h.posted.at(-1)).toEqual({ type: 'ready', lastSeq: 10, sessionId: SID });
    expect(h.q('message-assistant')).toBeNull();
  });

  test('a short transcript with older pages asks for them without scrolling', async () => {
    await h.host(snapshot({ hasMore: true, messages: [user('u5', 'latest', 't5')].map((m) => ({ ...m, seq: 5 })) }));
    expect(h.posted).toContainEqual({ type: 'loadMore', sessionId: SID, beforeSeq: 5 });
    expect(h.posted.filter((p) => p.type === 'loadMore').length).toBe(1);
  });
});

describe('streamed reply', () => {
  test('deltas render as markdown with a highlighted code block and a copy button', async () => {
    await h.host(snapshot({ messages: [user('u1', 'show me')] }));
    const userEl = h.q('message-user')!;
    await h.host(ev({ kind: 'turnStarted' }));
    await h.host(ev({ kind: 'textDelta', messageId: 'a1', text: 'Here is **code**:\n\n```ts\nconst x' }));
    const firstBlock = h.q('message-assistant')!.querySelector('.md-block')!;
    expect(h.q('message-assistant')!.querySelector('pre code.language-ts')?.textContent).toBe('const x');
    await h.host(ev({ kind: 'textDelta', messageId: 'a1', text: ' = 1;\n```\n\nDone.' }));
    const a = h.q('message-assistant')!;
    expect(a.querySelector('strong')?.textContent).toBe('code');
    const code = a.querySelector('pre code.language-ts')!;
    expect(code.textContent).toBe('const x = 1;');
    expect(code.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(a.textContent).toContain('Done.');
    // Only the changed tail was re-rendered; the user's message was not touched.
    expect(a.querySelector('.md-block')).toBe(firstBlock);
    expect(h.q('message-user')).toBe(userEl);

    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const copy = h.q('copy-code')!;
    copy.click();
    expect(writeText).toHaveBeenCalledWith('const x = 1;');
  });

  test('reasoning is shown collapsed under Thinking…', async () => {
    await h.host(snapshot());
    await h.host(ev({ kind: 'reasoningDelta', messageId: 'a1', text: 'secret plan' }));
    const d = h.q<HTMLDetailsElement>('reasoning')!;
    expect(d.open).toBe(false);
    expect(d.querySelector('summary')!.textContent).toContain('Thinking…');
    expect(d.textContent).not.toContain('secret plan');
  });

  test('retry drops the partial text on screen', async () => {
    await h.host(snapshot());
    await h.host(ev({ kind: 'textDelta', messageId: 'a1', text: 'The answer is fort' }));
    await h.host(ev({ kind: 'retry', messageId: 'a1' }));
    expect(h.q('message-assistant')!.textContent).not.toContain('fort');
    await h.host(ev({ kind: 'textDelta', messageId: 'a1', text: 'The answer is 42.' }));
    expect(h.q('message-assistant')!.textContent).toContain('The answer is 42.');
  });

  test('seq duplicates and other sessions leave the screen unchanged', async () => {
    await h.host(snapshot());
    await h.host(ev({ kind: 'textDelta', messageId: 'a1', text: 'one' }));
    await h.host({ type: 'event', event: { sessionId: SID, seq: 11, kind: 'textDelta', messageId: 'a1', text: 'one' } });
    await h.host({ type: 'event', event: { sessionId: 'elsewhere', seq: 12, kind: 'textDelta', messageId: 'a1', text: 'two' } });
    expect(h.q('message-assistant')!.textContent!.trim()).toBe('one');
  });
});

describe('sanitisation in the view', () => {
  test('no handler, script or frame survives and nothing runs', async () => {
    const payload = [
      '<img src=x onerror="window.__pwned=1">',
      '<script>window.__pwned=1</script>',
      '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
      '[a](javascript:window.__pwned=1) [b](data:text/html,hi) [c](command:evil) [d](vscode:evil)',
      '<details open ontoggle="window.__pwned=1">x</details>',
    ].join('\n\n');
    await h.host(snapshot({ messages: [message({ id: 'a1', parts: [{ type: 'text', text: payload }] })] }));
    await new Promise((r) => setTimeout(r, 30));
    const a = h.q('message-assistant')!;
    for (const el of Array.from(a.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) expect(attr.name).not.toMatch(/^on/i);
    }
    expect(a.querySelector('script, iframe')).toBeNull();
    expect(Array.from(a.querySelectorAll('a')).filter((x) => x.hasAttribute('href'))).toEqual([]);
    for (const link of Array.from(a.querySelectorAll('a'))) link.click();
    expect(h.posted.filter((p) => p.type === 'openLink')).toEqual([]);
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  test('clicking a safe link posts openLink and does not navigate', async () => {
    await h.host(snapshot({ messages: [message({ id: 'a1', parts: [{ type: 'text', text: 'See [docs](https://go.dev/doc/).' }] })] }));
    const link = h.root.querySelector<HTMLAnchorElement>('.markdown a')!;
    const e = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(e);
    expect(e.defaultPrevented).toBe(true);
    expect(h.posted).toContainEqual({ type: 'openLink', href: 'https://go.dev/doc/' });
  });
});

describe('composer', () => {
  test('every keystroke of a draft is saved at once, for a view VS Code disposes without warning', async () => {
    await h.host(snapshot());
    const input = h.q<HTMLTextAreaElement>('chat-input')!;
    typeInto(input, 'half a thought');
    // No timers run: the state VS Code keeps already holds the draft.
    expect((h.savedState() as { draft: string }).draft).toBe('half a thought');
  });

  test('Enter sends, Shift+Enter and IME composition do not', async () => {
    await h.host(snapshot());
    const input = h.q<HTMLTextAreaElement>('chat-input')!;
    typeInto(input, 'line one');
    expect(key(input, 'Enter', { shiftKey: true }).defaultPrevented).toBe(false);
    expect(key(input, 'Enter', { isComposing: true }).defaultPrevented).toBe(false);
    input.dispatchEvent(new CompositionEvent('compositionstart'));
    key(input, 'Enter');
    input.dispatchEvent(new CompositionEvent('compositionend'));
    expect(h.posted.filter((p) => p.type === 'send')).toEqual([]);
    expect(key(input, 'Enter').defaultPrevented).toBe(true);
    await flush();
    expect(h.posted).toContainEqual({ type: 'send', text: 'line one', sessionId: SID });
    expect(input.value).toBe('');
    expect((h.savedState() as { draft: string }).draft).toBe('');
  });

  test('Stop shows while a turn runs and input is accepted again after turnFinished', async () => {
    await h.host(snapshot());
    expect(h.q('stop')).toBeNull();
    await h.host(ev({ kind: 'turnStarted', messageId: 'a1', message: message({ id: 'a1', status: 'pending', turnId: 't1' }) }));
    expect(h.q('message-assistant')!.textContent).toContain('Working…');
    h.q('stop')!.click();
    expect(h.posted).toContainEqual({ type: 'stop', sessionId: SID });
    await h.host(ev({ kind: 'turnFinished', status: 'cancelled' }));
    expect(h.q('stop')).toBeNull();
    expect(h.q('turn-end')!.textContent).toContain('Stopped at your request.');
    const input = h.q<HTMLTextAreaElement>('chat-input')!;
    typeInto(input, 'next');
    await flush();
    expect(h.q('send')!.hasAttribute('disabled')).toBe(false);
    h.q('send')!.click();
    expect(h.posted).toContainEqual({ type: 'send', text: 'next', sessionId: SID });
  });

  test('a new chat (no session yet) has a working edit toggle: the host creates the session', async () => {
    await h.host({ type: 'snapshot', session: null, sessions: [], l10n: undefined, locale: 'en', serverState: 'ready', editEnabled: true });
    const t = h.q<HTMLButtonElement>('edit-toggle')!;
    expect(t.disabled).toBe(false);
    t.click();
    await flush();
    expect(h.posted).toContainEqual({ type: 'setEditEnabled', enabled: false });
    expect(h.q('edit-toggle')!.querySelector('.codicon-lock')).not.toBeNull();
    expect(h.q('empty')).not.toBeNull();
  });

  test('the edit toggle posts setEditEnabled', async () => {
    await h.host(snapshot({ editEnabled: false }));
    const t = h.q('edit-toggle')!;
    expect(t.querySelector('.codicon-lock')).not.toBeNull();
    t.click();
    await flush();
    expect(h.posted).toContainEqual({ type: 'setEditEnabled', sessionId: SID, enabled: true });
    expect(h.q('edit-toggle')!.querySelector('.codicon-unlock')).not.toBeNull();
    // No emoji anywhere in the view: they render as empty boxes without an emoji font.
    expect(h.root.textContent).not.toMatch(/[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}]/u);
  });
});

function req(p: Partial<ConfirmRequest> & { id: string; kind: string }): ConfirmRequest {
  return { sessionId: SID, turnId: 't1', toolCallId: `c-${p.id}`, ...p };
}

describe('confirmations', () => {
  test('an edit is rejected with a reason, then closed', async () => {
    await h.host(snapshot());
    await h.host({ type: 'confirm', request: req({ id: 'e1', kind: 'edit', path: '/w/a.go', relPath: 'a.go', original: 'a', proposed: 'b' }) });
    const card = h.q('confirm-card')!;
    expect(card.textContent).toContain('a.go');
    h.q<HTMLButtonElement>('confirm-open-diff')!.click();
    expect(h.posted).toContainEqual({ type: 'openDiff', confirmId: 'e1', path: '/w/a.go', before: 'a', after: 'b' });
    typeInto(h.q<HTMLInputElement>('confirm-reason')!, '  keep the old API ');
    await flush();
    h.q('confirm-deny')!.click();
    await flush();
    expect(h.posted).toContainEqual({ type: 'resolve', id: 'e1', decision: 'reject', reason: 'keep the old API' });
    expect(h.q('confirm-resolved')!.textContent).toContain('Rejected');
    expect(h.q('confirm-allow')).toBeNull();
    await h.host({ type: 'confirmClosed', closed: { id: 'e1', reason: 'resolved' } });
    expect(h.q('confirm-card')).toBeNull();
  });

  test('a shell command edited before allowing is sent back', async () => {
    await h.host(snapshot());
    await h.host({
      type: 'confirm',
      request: req({
        id: 's1',
        kind: 'shell',
        command: 'rm -rf build',
        analysis: { class: 'dangerous', reasons: ['deletes files recursively'] },
        review: { kind: 'shell', approved: false, problems: [{ severity: 'high', message: 'wipes build output' }], durationMs: 900 },
      }),
    });
    expect(h.q('shell-class')!.textContent).toBe('dangerous');
    expect(h.q('confirm-card')!.textContent).toContain('deletes files recursively');
    expect(h.q('review-card')!.textContent).toContain('wipes build output');
    const cmd = h.q<HTMLTextAreaElement>('confirm-command')!;
    expect(cmd.value).toBe('rm -rf build');
    typeInto(cmd, 'rm -rf build/tmp');
    await flush();
    expect(h.q('confirm-allow')!.textContent).toContain('Run edited command');
    h.q('confirm-allow')!.click();
    expect(h.posted).toContainEqual({ type: 'resolve', id: 's1', decision: 'accept', command: 'rm -rf build/tmp' });
  });

  test('a question is answered by option or free text', async () => {
    await h.host(snapshot());
    await h.host({ type: 'confirm', request: req({ id: 'q1', kind: 'question', question: 'Which DB?', options: ['sqlite', 'postgres'] }) });
    await h.host({ type: 'confirm', request: req({ id: 'q2', kind: 'question', question: 'Name?' }) });
    const [c1, c2] = h.qa('confirm-card');
    expect(c1.textContent).toContain('Which DB?');
    (c1.querySelectorAll('[data-testid="confirm-option"]')[1] as HTMLElement).click();
    expect(h.posted).toContainEqual({ type: 'resolve', id: 'q1', decision: 'accept', answer: 'postgres' });
    typeInto(c2.querySelector<HTMLTextAreaElement>('[data-testid="confirm-answer"]')!, ' govibe ');
    await flush();
    (c2.querySelector('[data-testid="confirm-allow"]') as HTMLElement).click();
    expect(h.posted).toContainEqual({ type: 'resolve', id: 'q2', decision: 'accept', answer: 'govibe' });
  });

  test('several edits in one turn get a review list with Review all', async () => {
    await h.host(snapshot());
    await h.host({ type: 'confirm', request: req({ id: 'e1', kind: 'edit', path: 'a.go' }) });
    await h.host({ type: 'confirm', request: req({ id: 'e2', kind: 'edit', path: 'b.go' }) });
    const list = h.q('review-list')!;
    expect(list.textContent).toContain('2 file changes are waiting for your review');
    expect(list.querySelectorAll('[data-testid="confirm-card"]').length).toBe(2);
    h.q('review-all')!.click();
    expect(h.posted).toContainEqual({ type: 'reviewAll', confirmIds: ['e1', 'e2'] });
    (list.querySelectorAll('[data-testid="confirm-allow"]')[1] as HTMLElement).click();
    expect(h.posted).toContainEqual({ type: 'resolve', id: 'e2', decision: 'accept' });
  });

  test('auto-accept counts down and can be stopped', async () => {
    await h.host(snapshot());
    await h.host({ type: 'confirm', request: req({ id: 'e1', kind: 'edit', path: 'a.go', autoAcceptMs: 300 }) });
    await h.host({ type: 'confirm', request: req({ id: 'e2', kind: 'edit', path: 'b.go', turnId: 't2', autoAcceptMs: 300 }) });
    const stops = h.qa('countdown-stop');
    expect(stops.length).toBe(2);
    stops[1].click();
    await new Promise((r) => setTimeout(r, 700));
    await flush();
    const resolves = h.posted.filter((p) => p.type === 'resolve');
    expect(resolves).toEqual([{ type: 'resolve', id: 'e1', decision: 'accept' }]);
  });
});

describe('transcript', () => {
  test('tool cards show status, summary, errors and Open diff for applied edits', async () => {
    await h.host(snapshot());
    await h.host(ev({ kind: 'toolCall', messageId: 'a1', tool: { callId: 'c1', name: 'edit', arguments: '{"path":"main.go"}', ok: false } }));
    let card = h.q('tool-card')!;
    expect(card.dataset.status).toBe('running');
    expect(card.textContent).toContain('main.go');
    await h.host(
      ev({
        kind: 'toolResult',
        messageId: 'a1',
        tool: { callId: 'c1', name: 'edit', ok: true, output: 'applied', durationMs: 1500, meta: { path: 'main.go', before: 'old', after: 'new' } },
      }),
    );
    card = h.q('tool-card')!;
    expect(card.dataset.status).toBe('done');
    expect(card.textContent).toContain('1.5 s');
    // A mouse click opens the diff and leaves no focus ring on the button.
    const openDiff = h.q('open-diff')!;
    openDiff.tabIndex = 0;
    openDiff.focus();
    expect(document.activeElement).toBe(openDiff);
    openDiff.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }));
    await flush();
    expect(h.posted).toContainEqual({ type: 'openDiff', path: 'main.go', before: 'old', after: 'new' });
    expect(document.activeElement).not.toBe(openDiff);
    await h.host(ev({ kind: 'toolCall', messageId: 'a1', tool: { callId: 'c2', name: 'shell', arguments: '{"command":"go test"}', ok: false } }));
    await h.host(ev({ kind: 'toolResult', messageId: 'a1', tool: { callId: 'c2', name: 'shell', ok: false, output: 'FAIL pkg' } }));
    const failed = h.qa('tool-card')[1];
    expect(failed.dataset.status).toBe('error');
    expect(failed.querySelector('details')!.open).toBe(true);
    expect(failed.querySelector('[data-testid="tool-output"]')!.textContent).toBe('FAIL pkg');
  });

  test('a browser_sub_agent card offers its screenshots', async () => {
    await h.host(snapshot());
    await h.host(ev({ kind: 'toolCall', messageId: 'a1', tool: { callId: 'b1', name: 'browser_sub_agent', arguments: '{"task":"check"}', ok: false } }));
    const meta = { status: 'success', screenshots: ['/s/browser/c/one.png', '/s/browser/c/two.png'] };
    await h.host(ev({ kind: 'toolResult', messageId: 'a1', tool: { callId: 'b1', name: 'browser_sub_agent', ok: true, output: '{}', meta } }));
    const shots = h.qa('open-screenshot');
    expect(shots.length).toBe(2);
    shots[1].click();
    expect(h.posted).toContainEqual({ type: 'openImage', path: '/s/browser/c/two.png' });
  });

  test('an error with an action offers its button', async () => {
    await h.host(snapshot());
    await h.host(ev({ kind: 'error', error: { message: 'No API key is set for OpenAI.', action: 'setApiKey' } }));
    expect(h.q('error')!.textContent).toContain('No API key is set for OpenAI.');
    h.q('error-action')!.click();
    expect(h.posted).toContainEqual({ type: 'command', command: 'setApiKey' });
  });

  test('roll back shows only on a turn with a before-snapshot, live or loaded, and posts rollbackTurn', async () => {
    const snaps = [{ root: '/ws', id: 'abc' }];
    await h.host(snapshot({ messages: [user('u1', 'just chat', 'u1'), message({ id: 'u2', role: 'user', turnId: 'u2', snapshots: snaps, parts: [{ type: 'text', text: 'do it' }] })] }));
    expect(h.qa('rollback')).toHaveLength(1);
    expect(h.q('rollback')!.closest('[data-id]')!.getAttribute('data-id')).toBe('u2');
    h.q('rollback')!.click();
    // The host states what will change and asks; the webview just asks it to.
    expect(h.posted).toContainEqual({ type: 'rollbackTurn', sessionId: SID, turnId: 'u2' });
    // A live turn gains the link when its snapshots event arrives.
    await h.host(ev({ kind: 'message', turnId: 'u3', messageId: 'u3', message: message({ id: 'u3', role: 'user', turnId: 'u3', parts: [{ type: 'text', text: 'again' }] }) }));
    expect(h.qa('rollback')).toHaveLength(1);
    await h.host(ev({ kind: 'snapshots', turnId: 'u3', messageId: 'u3', snapshots: snaps }));
    expect(h.qa('rollback')).toHaveLength(2);
  });

  test('sub-agent messages fold under a header; btw and compaction are marked', async () => {
    await h.host(
      snapshot({
        todo: { goal: 'g', current: 1, phase: 'scheduling', items: Array.from({ length: 5 }, (_, i) => ({ title: `i${i}`, status: 'pending' })) },
        messages: [
          message({ id: 'c0', role: 'event', parts: [{ type: 'notice', level: 'info', meta: { kind: 'compaction', savedTokens: 12000 } }, { type: 'text', text: 'We fixed **x**.' }] }),
          message({ id: 'x1', subAgentTag: 'executor:2', parts: [{ type: 'tool_call', toolCallId: 'k1', name: 'read', arguments: '{}' }] }),
          message({ id: 'x2', subAgentTag: 'executor:2', parts: [{ type: 'tool_call', toolCallId: 'k2', name: 'read', arguments: '{}' }, { type: 'text', text: 'inner' }] }),
          message({ id: 'b1', role: 'user', btw: true, parts: [{ type: 'text', text: 'also check y' }] }),
        ],
      }),
    );
    const header = h.q('subagent-group')!;
    expect(header.textContent).toContain('Item 2/5 · executor · 2 tool calls');
    expect(h.root.textContent).not.toContain('inner');
    header.click();
    await flush();
    expect(h.root.textContent).toContain('inner');
    expect(h.q('btw-label')).not.toBeNull();
    const comp = h.q('compaction')!;
    expect(comp.textContent).toContain('Earlier messages were summarised (saved 12k tokens)');
    h.q('compaction-toggle')!.click();
    await flush();
    expect(h.q('compaction')!.querySelector('strong')!.textContent).toBe('x');
  });

  test('5,000 messages render a bounded window that follows scrolling', async () => {
    const messages = Array.from({ length: 5000 }, (_, i) =>
      message({ id: `m${i}`, seq: i + 1, role: i % 2 ? 'assistant' : 'user', parts: [{ type: 'text', text: `message number ${i}` }] }),
    );
    await h.host(snapshot({ messages, hasMore: true }));
    const count = () => h.root.querySelectorAll('[data-testid^="message-"]').length;
    expect(count()).toBeGreaterThan(0);
    expect(count()).toBeLessThan(80);
    expect(h.root.querySelectorAll('*').length).toBeLessThan(1500);
    // Stuck to the bottom: the newest message is on screen.
    expect(h.root.textContent).toContain('message number 4999');
    const list = h.q('transcript')!;
    list.scrollTop = 2500 * 44;
    list.dispatchEvent(new Event('scroll'));
    await flush();
    expect(h.root.textContent).not.toContain('message number 4999');
    const ids = Array.from(h.root.querySelectorAll<HTMLElement>('[data-testid^="message-"]')).map((e) => Number(e.dataset.id!.slice(1)));
    expect(Math.min(...ids)).toBeGreaterThan(1000);
    expect(Math.max(...ids)).toBeLessThan(4000);
    expect(count()).toBeLessThan(80);
    list.scrollTop = 0;
    list.dispatchEvent(new Event('scroll'));
    await flush();
    expect(h.posted).toContainEqual({ type: 'loadMore', sessionId: SID, beforeSeq: 1 });
    expect(h.root.textContent).toContain('message number 0');
  });
});

describe('todo panel', () => {
  test('shows the plan and posts controls', async () => {
    await h.host(
      snapshot({
        runningTurnId: 't1',
        todo: {
          goal: 'Ship the parser',
          current: 1,
          phase: 'scheduling',
          items: [
            { title: 'Design', status: 'done', agent: 'planner', turns: 3 },
            { title: 'Build', status: 'running', agent: 'executor', turns: 7 },
            { title: 'Test', status: 'failed', agent: 'evaluator', turns: 2, attempts: 2 },
            { title: 'Docs', status: 'skipped' },
            { title: 'Release', status: 'interrupted' },
            { title: 'Party', status: 'pending' },
          ],
        },
      }),
    );
    const panel = h.q('todo-panel')!;
    expect(h.q('todo-goal')!.textContent).toBe('Ship the parser');
    expect(panel.textContent).toContain('1/6 done');
    const items = h.qa('todo-item');
    expect(items.map((i) => i.dataset.status)).toEqual(['done', 'running', 'failed', 'skipped', 'interrupted', 'pending']);
    expect(items[1].textContent).toContain('executor');
    expect(items[1].textContent).toContain('7 turns');
    items[1].querySelector<HTMLElement>('[data-testid="todo-skip"]')!.click();
    items[2].querySelector<HTMLElement>('[data-testid="todo-retry"]')!.click();
    h.q('todo-stop')!.click();
    expect(h.posted).toContainEqual({ type: 'todoControl', sessionId: SID, action: 'skip', index: 1 });
    expect(h.posted).toContainEqual({ type: 'todoControl', sessionId: SID, action: 'retry', index: 2 });
    expect(h.posted).toContainEqual({ type: 'todoControl', sessionId: SID, action: 'stop' });
    expect(items[0].querySelector('[data-testid="todo-retry"], [data-testid="todo-skip"]')).toBeNull();
  });
});

describe('header', () => {
  test('context bar, session search, switch and delete with confirmation', async () => {
    const s2 = { id: 's2', title: 'Write docs', created: 0, updated: 0, model: 'm', messageCount: 1, status: 'idle', running: false };
    const snap = snapshot({
      messages: [message({ id: 'u0', role: 'user', parts: [{ type: 'text', text: 'hi' }] })],
      context: { usedTokens: 50_000, windowTokens: 200_000, sessionCost: 0.1234, sessionUsage: { promptTokens: 40000, completionTokens: 2000, cachedTokens: 1000, cost: 0.12 } },
    });
    if (snap.type === 'snapshot') snap.sessions.push(s2);
    await h.host(snap);
    const bar = h.q('context-bar')!;
    expect(bar.title).toContain('Context: 50k of 200k tokens (25%)');
    expect(bar.title).toContain('Session cost: $0.12');
    expect(h.q('session-cost')!.textContent).toBe('$0.12');
    h.q('session-menu')!.click();
    await flush();
    expect(h.qa('session-item').length).toBe(2);
    typeInto(h.q<HTMLInputElement>('session-search')!, 'docs');
    await flush();
    expect(h.qa('session-item').length).toBe(1);
    h.q('session-delete')!.click();
    await flush();
    expect(h.posted.some((p) => p.type === 'deleteSession')).toBe(false);
    h.q('session-delete-confirm')!.click();
    expect(h.posted).toContainEqual({ type: 'deleteSession', sessionId: 's2' });
    await flush();
    h.q('session-rename')!.click();
    await flush();
    const field = h.q<HTMLInputElement>('session-rename-input')!;
    field.value = '  Write better docs ';
    key(field, 'Enter');
    field.dispatchEvent(new FocusEvent('blur'));
    await flush();
    expect(h.posted.filter((p) => p.type === 'renameSession')).toEqual([{ type: 'renameSession', sessionId: 's2', title: 'Write better docs' }]);
    h.q('session-item')!.querySelector<HTMLElement>('.session-pick')!.click();
    expect(h.posted).toContainEqual({ type: 'switchSession', sessionId: 's2' });
  });
});
