// The chat as a new user meets it: the empty state (what to type, which
// model), the header (the whole title on hover; the mode only once known),
// notices with their icon beside the text, and prose summaries of tool
// cards shown as text rather than raw markdown.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ModelStatus } from '../../shared/webviewMessages';
import { summarizeArgs } from '../src/format';
import { plainText } from '../src/markdown';
import { type Harness, ev, flush, pickMode, resetSeq, snapshot, start } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => h.unmount());

const model: ModelStatus = { label: 'deepseek', model: 'deepseek-reasoner', baseUrl: 'https://api.deepseek.com', key: 'set', profiles: ['deepseek'] };

describe('empty chat', () => {
  test('says what GoVibe does, offers examples that fill the input, and names the model', async () => {
    await h.host(snapshot({}, { session: null, sessions: [] }));
    await h.host({ type: 'model', status: model });
    const empty = h.q('empty')!;
    expect(empty.querySelector('.empty-title')!.textContent).toBe('What should we work on?');
    expect(h.q('empty-model')!.textContent).toContain('Answered by deepseek');
    const examples = h.qa('empty-example');
    expect(examples.length).toBe(3);
    examples[1].click();
    await flush();
    const input = h.q<HTMLTextAreaElement>('chat-input')!;
    expect(input.value).toBe('Find the failing test and fix it');
    expect(document.activeElement).toBe(input);
    // Not sent: the user edits or sends it.
    expect(h.posted.some((m) => m.type === 'send')).toBe(false);
    // The draft is kept like typed text, so a reload keeps it.
    expect((h.savedState() as { draft?: string }).draft).toBe('Find the failing test and fix it');
    h.q('empty-pick-model')!.click();
    expect(h.posted).toContainEqual({ type: 'command', command: 'pickModel' });
  });

  test('without a model status it offers to choose one', async () => {
    await h.host(snapshot({}, { session: null, sessions: [] }));
    expect(h.q('empty-model')!.textContent).toContain('No model chosen yet');
    expect(h.q('empty-pick-model')!.textContent).toBe('Choose model');
  });
});

describe('header', () => {
  test('the title has its row to itself and shows in full on hover', async () => {
    const title = 'Refactor the parser so that errors carry their line and column';
    await h.host(snapshot({ session: { id: 's1', title, created: 0, updated: 0, model: 'm', messageCount: 0, status: 'idle', running: false } }));
    const el = h.q('session-title')!;
    expect(el.textContent).toBe(title);
    expect(el.title).toBe(title);
    // The mode picker is in the second row, with the model.
    expect(h.q('mode-picker')!.closest('.session-row')).toBeNull();
    expect(h.q('mode-picker')!.closest('.model-bar')).not.toBeNull();
  });

  test('the mode picker shows nothing until the session is known, then its stored mode', async () => {
    // Before the first snapshot the mode is unknown: no "Agent" flash.
    expect(h.q('mode-picker')).toBeNull();
    await h.host(snapshot({ mode: 'reconcile' }));
    expect(h.q('mode-picker')!.dataset.value).toBe('reconcile');
    // A new chat (no session yet) starts in the default mode.
    await h.host(snapshot({}, { session: null, sessions: [] }));
    expect(h.q('mode-picker')!.dataset.value).toBe('agent');
  });

  test('a mode picked before the first message survives a re-sent empty snapshot', async () => {
    await h.host(snapshot({}, { session: null, sessions: [] }));
    await pickMode(h, 'plan');
    expect(h.posted).toContainEqual({ type: 'setMode', mode: 'plan' });
    await h.host(snapshot({}, { session: null, sessions: [] }));
    expect(h.q('mode-picker')!.dataset.value).toBe('plan');
  });
});

describe('notices', () => {
  test('the icon and the text are side by side, the text in a box of its own that wraps', async () => {
    await h.host(snapshot());
    await h.host(ev({ kind: 'notice', text: 'A long informational notice that wraps in a narrow sidebar.' }));
    await h.host({ type: 'notice', level: 'info', text: 'A host notice' });
    await h.host(ev({ kind: 'error', error: { message: 'boom' } }));
    for (const n of [...h.qa('notice'), ...h.qa('host-notice'), ...h.qa('error')]) {
      const [icon, text] = Array.from(n.children);
      expect(icon.classList.contains('codicon')).toBe(true);
      expect(text.classList.contains('notice-text') || text.classList.contains('banner-text')).toBe(true);
    }
    expect(h.q('notice')!.querySelector('.notice-text')!.textContent).toBe('A long informational notice that wraps in a narrow sidebar.');
  });
});

describe('prose in tool card summaries', () => {
  test("ask_human's question is shown as text, not markdown; commands stay verbatim", async () => {
    await h.host(snapshot());
    await h.host(
      ev({ kind: 'toolCall', messageId: 'a1', tool: { callId: 'c1', name: 'ask_human', arguments: '{"question":"Which **database** should I use? See `db.go`."}', ok: false } }),
    );
    await h.host(ev({ kind: 'toolCall', messageId: 'a1', tool: { callId: 'c2', name: 'run_shell_command', arguments: '{"command":"rm -f *_test.go **/x"}', ok: false } }));
    const summaries = h.root.querySelectorAll('.tool-summary');
    expect(summaries[0].textContent).toBe('Which database should I use? See db.go.');
    expect(summaries[1].textContent).toBe('rm -f *_test.go **/x');
  });

  test('plainText keeps words apart across blocks and never yields markup', () => {
    expect(plainText('# Title\n\n- one\n- two\n\n**bold** and _em_ [link](https://x.y)')).toBe('Title one two bold and em link');
    expect(plainText('<img src=x onerror=alert(1)>hi <script>alert(2)</script>')).toBe('hi');
    expect(plainText('a &lt; b')).toBe('a < b');
    expect(plainText('')).toBe('');
  });

  test('a call whose arguments hold only a list of texts is summed up by them, not by its JSON', () => {
    expect(summarizeArgs(JSON.stringify({ steps: ['fix Add in calc.go', 'run the tests'] }))).toBe('fix Add in calc.go; run the tests');
    expect(summarizeArgs(JSON.stringify({ n: 3 }))).toBe('{"n":3}');
  });

  test('markup is stripped before the summary is cut short, so no half markup is left', () => {
    const q = `**${'word '.repeat(30).trim()}**`;
    const s = summarizeArgs(JSON.stringify({ question: q }), 40, plainText);
    expect(s).not.toContain('*');
    expect(s.length).toBeLessThanOrEqual(40);
  });
});
