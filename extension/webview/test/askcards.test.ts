// Questions from ask_human and MCP tool calls waiting for approval: each
// answer goes back through the same resolve message as the other cards.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ConfirmRequest } from '../../src/protocol.gen';
import { splitToolName } from '../src/ui/AskCards';
import { type Harness, SID, flush, key, resetSeq, snapshot, start, typeInto } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => h.unmount());

function req(p: Partial<ConfirmRequest> & { id: string; kind: string }): ConfirmRequest {
  return { sessionId: SID, turnId: 't1', toolCallId: `c-${p.id}`, ...p };
}

function resolves() {
  return h.posted.filter((p) => p.type === 'resolve');
}

async function ask(p: Partial<ConfirmRequest> = {}) {
  await h.host(snapshot());
  await h.host({ type: 'confirm', request: req({ id: 'q1', kind: 'question', question: 'Which **database**?', options: ['Postgres', 'SQLite'], ...p }) });
}

describe('a question from the agent', () => {
  test('shows the question as markdown and one button per option; an option is the answer', async () => {
    await ask();
    const card = h.q('confirm-card')!;
    expect(card.dataset.kind).toBe('question');
    expect(h.q('confirm-question')!.querySelector('strong')!.textContent).toBe('database');
    const options = h.qa('confirm-option');
    expect(options.map((o) => o.textContent)).toEqual(['Postgres', 'SQLite']);
    options[1].click();
    await flush();
    expect(resolves()).toEqual([{ type: 'resolve', id: 'q1', decision: 'accept', answer: 'SQLite' }]);
    // The dialog stays with the reply (the agent may follow up).
    expect(h.q('confirm-reply')!.textContent).toContain('You replied: SQLite');
  });

  test('the question text is sanitised', async () => {
    await ask({ question: 'Pick one <img src=x onerror="alert(1)"><script>alert(2)</script>' });
    const q = h.q('confirm-question')!;
    expect(q.querySelector('script')).toBeNull();
    expect(q.querySelector('[onerror]')).toBeNull();
    expect(q.textContent).toContain('Pick one');
  });

  test('Enter in the text box sends the typed answer; Shift+Enter does not', async () => {
    await ask();
    const box = h.q<HTMLTextAreaElement>('confirm-answer')!;
    typeInto(box, '  MySQL, please  ');
    await flush();
    expect(key(box, 'Enter', { shiftKey: true }).defaultPrevented).toBe(false);
    expect(resolves()).toEqual([]);
    expect(key(box, 'Enter').defaultPrevented).toBe(true);
    expect(resolves()).toEqual([{ type: 'resolve', id: 'q1', decision: 'accept', answer: 'MySQL, please' }]);
  });

  test('Send is refused while the answer is empty', async () => {
    await ask();
    const box = h.q<HTMLTextAreaElement>('confirm-answer')!;
    typeInto(box, '   ');
    await flush();
    key(box, 'Enter');
    h.q('confirm-allow')!.click();
    await flush();
    expect(resolves()).toEqual([]);
    expect(h.q('confirm-answer')).not.toBeNull();
  });

  test('Send accepts with the answer', async () => {
    await ask();
    typeInto(h.q<HTMLTextAreaElement>('confirm-answer')!, 'Postgres 16');
    await flush();
    h.q('confirm-allow')!.click();
    expect(resolves()).toEqual([{ type: 'resolve', id: 'q1', decision: 'accept', answer: 'Postgres 16' }]);
  });

  test('Done accepts with the answer and the reason "done"', async () => {
    await ask();
    typeInto(h.q<HTMLTextAreaElement>('confirm-answer')!, 'that is all');
    await flush();
    h.q('confirm-done')!.click();
    expect(resolves()).toEqual([{ type: 'resolve', id: 'q1', decision: 'accept', answer: 'that is all', reason: 'done' }]);
  });

  test('Cancel rejects, and so does Alt+R', async () => {
    await ask();
    h.q('confirm-deny')!.click();
    expect(resolves()).toEqual([{ type: 'resolve', id: 'q1', decision: 'reject' }]);
    await h.host({ type: 'confirm', request: req({ id: 'q2', kind: 'question', question: 'Again?' }) });
    window.dispatchEvent(new KeyboardEvent('keydown', { code: 'KeyR', altKey: true, bubbles: true, cancelable: true }));
    expect(resolves()).toContainEqual({ type: 'resolve', id: 'q2', decision: 'reject' });
  });
});

describe('an MCP tool call waiting for approval', () => {
  const args = JSON.stringify({ owner: 'govibe', repo: 'govibe', title: 'x'.repeat(400) });

  async function call() {
    await h.host(snapshot());
    await h.host({ type: 'confirm', request: req({ id: 't1', kind: 'tool', command: 'mcp__github__create_issue', question: args }) });
  }

  test('names the server and the tool and shows all arguments as pretty JSON', async () => {
    await call();
    expect(h.q('confirm-card')!.dataset.kind).toBe('tool');
    expect(h.q('confirm-tool-title')!.textContent).toBe('Call create_issue on the MCP server github?');
    const pre = h.q('confirm-tool-args')!;
    expect(pre.textContent).toBe(JSON.stringify(JSON.parse(args), null, 2));
    expect(pre.classList.contains('tool-args')).toBe(true);
  });

  test('Allow accepts with the optional reason', async () => {
    await call();
    typeInto(h.q<HTMLInputElement>('confirm-reason')!, 'fine once');
    await flush();
    h.q('confirm-allow')!.click();
    await flush();
    expect(resolves()).toEqual([{ type: 'resolve', id: 't1', decision: 'accept', reason: 'fine once' }]);
    expect(h.q('confirm-resolved')!.textContent).toContain('Accepted');
    // The arguments stay readable after the decision.
    expect(h.q('confirm-tool-args')).not.toBeNull();
  });

  test('Deny rejects with the reason; Alt+A is bound to the first open card', async () => {
    await call();
    typeInto(h.q<HTMLInputElement>('confirm-reason')!, 'not this repo');
    await flush();
    h.q('confirm-deny')!.click();
    expect(resolves()).toEqual([{ type: 'resolve', id: 't1', decision: 'reject', reason: 'not this repo' }]);
    await h.host({ type: 'confirm', request: req({ id: 't2', kind: 'tool', command: 'mcp__fs__read', question: '{}' }) });
    expect(h.q('confirm-allow')!.textContent).toContain('Alt+A');
    window.dispatchEvent(new KeyboardEvent('keydown', { code: 'KeyA', altKey: true, bubbles: true, cancelable: true }));
    expect(resolves()).toContainEqual({ type: 'resolve', id: 't2', decision: 'accept' });
  });

  test('arguments that are not JSON are shown as sent', async () => {
    await h.host(snapshot());
    await h.host({ type: 'confirm', request: req({ id: 't3', kind: 'tool', command: 'mcp__x__y', question: '{"cut": "abc…' }) });
    expect(h.q('confirm-tool-args')!.textContent).toBe('{"cut": "abc…');
  });
});

describe('a browser_sub_agent run waiting for approval', () => {
  test('says a browser will open web pages, shows the task and URL, and offers Always allow', async () => {
    const args = JSON.stringify({ task: 'Read the heading', url: 'https://example.com/' });
    await h.host(snapshot());
    await h.host({
      type: 'confirm',
      request: req({ id: 'b1', kind: 'tool', command: 'browser_sub_agent', question: args, allowRules: ['browser_sub_agent'] }),
    });
    expect(h.q('confirm-tool-title')!.textContent).toBe('Let the browser agent (browser_sub_agent) open web pages?');
    expect(h.q('confirm-tool-args')!.textContent).toContain('https://example.com/');
    expect(h.q('confirm-card')!.querySelector('.codicon-globe')).not.toBeNull();
    h.q('confirm-allow')!.click();
    expect(resolves()).toEqual([{ type: 'resolve', id: 'b1', decision: 'accept' }]);
  });
});

describe('splitToolName', () => {
  test('splits mcp__server__tool and keeps other names whole', () => {
    expect(splitToolName('mcp__github__create_issue')).toEqual({ server: 'github', tool: 'create_issue' });
    expect(splitToolName('mcp__my_srv__a__b')).toEqual({ server: 'my_srv', tool: 'a__b' });
    expect(splitToolName('web_fetch')).toEqual({ tool: 'web_fetch' });
    expect(splitToolName('')).toEqual({ tool: '' });
  });
});

describe('the question dialog stays after a reply', () => {
  // The sidecar says whether the dialog stays: "replied" after Send or a
  // choice, "resolved" after Done or Cancel.
  const closed = (id: string, reason = 'resolved') => h.host({ type: 'confirmClosed', closed: { id, reason } });

  test('Send keeps the card with the reply until the agent asks again', async () => {
    await ask();
    typeInto(h.q<HTMLTextAreaElement>('confirm-answer')!, 'Postgres 16');
    await flush();
    h.q('confirm-allow')!.click();
    await flush();
    await closed('q1', 'replied');
    const card = h.q('confirm-card')!;
    expect(card.dataset.state).toBe('replied');
    expect(h.q('confirm-reply')!.textContent).toContain('You replied: Postgres 16');
    expect(h.q('confirm-answer')).toBeNull();
    // The follow-up takes its place: one card, the new question, answerable,
    // with the dialog's earlier exchange above it.
    await h.host({
      type: 'confirm',
      request: req({ id: 'q2', kind: 'question', question: 'Which version?', dialogId: 'd1', thread: [{ question: 'Which **database**?', reply: 'Postgres 16' }] }),
    });
    expect(h.qa('confirm-card').length).toBe(1);
    expect(h.q('confirm-question')!.textContent).toContain('Which version?');
    expect(h.q('confirm-thread')!.textContent).toContain('database');
    expect(h.q('confirm-thread')!.textContent).toContain('Postgres 16');
    expect(h.q('confirm-answer')).not.toBeNull();
  });

  test('Close ends a dialog waiting for the agent', async () => {
    await ask();
    h.qa('confirm-option')[1].click();
    await flush();
    expect(h.q('confirm-close-dialog')).toBeNull(); // not before the sidecar kept it
    await closed('q1', 'replied');
    h.q('confirm-close-dialog')!.click();
    await flush();
    expect(resolves().at(-1)).toEqual({ type: 'resolve', id: 'q1', decision: 'accept', reason: 'done' });
    await closed('q1');
    expect(h.q('confirm-card')).toBeNull();
  });

  test('a dialog the sidecar ends ("ended") closes', async () => {
    await ask();
    h.qa('confirm-option')[0].click();
    await flush();
    await closed('q1', 'replied');
    expect(h.q('confirm-card')!.dataset.state).toBe('replied');
    await closed('q1', 'ended');
    expect(h.q('confirm-card')).toBeNull();
  });

  test('a reply the sidecar closes as "resolved" (the plan question) does not keep the card', async () => {
    await ask();
    h.qa('confirm-option')[0].click();
    await flush();
    await closed('q1');
    expect(h.q('confirm-card')).toBeNull();
  });

  test('a reload shows an open dialog waiting for the agent', async () => {
    await h.host(
      snapshot({
        dialogs: [{ question: req({ id: 'q1', kind: 'question', question: 'Which database?', dialogId: 'd1' }), reply: 'Postgres' }],
      }),
    );
    expect(h.q('confirm-card')!.dataset.state).toBe('replied');
    expect(h.q('confirm-reply')!.textContent).toContain('You replied: Postgres');
    expect(h.q('confirm-answer')).toBeNull();
  });

  test('a choice keeps it too, and the end of the turn closes it', async () => {
    await ask();
    h.qa('confirm-option')[0].click();
    await flush();
    await closed('q1', 'replied');
    expect(h.q('confirm-reply')!.textContent).toContain('You replied: Postgres');
    await h.host({ type: 'event', event: { sessionId: SID, seq: 11, turnId: 't1', kind: 'turnFinished', status: 'done' } });
    expect(h.q('confirm-card')).toBeNull();
  });

  test('Done and Cancel end the dialog when the question closes', async () => {
    await ask();
    typeInto(h.q<HTMLTextAreaElement>('confirm-answer')!, 'SQLite');
    await flush();
    h.q('confirm-done')!.click();
    await flush();
    await closed('q1');
    expect(h.q('confirm-card')).toBeNull();
    await h.host({ type: 'confirm', request: req({ id: 'q2', kind: 'question', question: 'Sure?' }) });
    h.q('confirm-deny')!.click();
    await flush();
    await closed('q2');
    expect(h.q('confirm-card')).toBeNull();
  });

  test('a question withdrawn (timeout, Stop) closes even after a reply was typed and sent', async () => {
    await ask();
    h.qa('confirm-option')[1].click();
    await flush();
    await h.host({ type: 'confirmClosed', closed: { id: 'q1', reason: 'cancelled' } });
    expect(h.q('confirm-card')).toBeNull();
  });
});
