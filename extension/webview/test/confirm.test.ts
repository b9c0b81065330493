// Pending confirmations: whole content shown, keyboard shortcuts on the
// first open card only, and a neutral look for a choice.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ConfirmRequest } from '../../src/protocol.gen';
import { type Harness, SID, flush, resetSeq, snapshot, start } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => h.unmount());

function req(p: Partial<ConfirmRequest> & { id: string; kind: string }): ConfirmRequest {
  return { sessionId: SID, turnId: 't1', toolCallId: `c-${p.id}`, ...p };
}

function alt(code: string, target: EventTarget = window): KeyboardEvent {
  const e = new KeyboardEvent('keydown', { code, key: code.slice(3).toLowerCase(), altKey: true, bubbles: true, cancelable: true });
  target.dispatchEvent(e);
  return e;
}

describe('pending confirmations', () => {
  test('the whole command is in the card, and Alt+A allows it', async () => {
    await h.host(snapshot());
    const command = 'rm -f calc_test.go && echo removed && ' + 'x'.repeat(300);
    await h.host({ type: 'confirm', request: req({ id: 's1', kind: 'shell', command }) });
    expect(h.q<HTMLTextAreaElement>('confirm-command')!.value).toBe(command);
    expect(h.q('confirm-area')).not.toBeNull();
    expect(h.q('confirm-allow')!.textContent).toContain('Alt+A');
    const e = alt('KeyA');
    expect(e.defaultPrevented).toBe(true);
    expect(h.posted).toContainEqual({ type: 'resolve', id: 's1', decision: 'accept' });
    await flush();
    expect(h.q('confirm-resolved')!.textContent).toContain('Accepted');
  });

  test('an edit shows its line counts; Alt+D opens the diff and Alt+R rejects', async () => {
    await h.host(snapshot());
    await h.host({
      type: 'confirm',
      request: req({ id: 'e1', kind: 'edit', path: '/w/a.go', relPath: 'a.go', original: 'a\nb\nc\n', proposed: 'a\nB\nc\nd\n' }),
    });
    expect(h.q('diff-stat')!.textContent).toBe('+2 −1');
    alt('KeyD');
    expect(h.posted).toContainEqual({ type: 'openDiff', confirmId: 'e1', path: '/w/a.go', before: 'a\nb\nc\n', after: 'a\nB\nc\nd\n' });
    alt('KeyR', h.q('chat-input')!);
    expect(h.posted).toContainEqual({ type: 'resolve', id: 'e1', decision: 'reject' });
  });

  test('the edit that creates the project memory says so and where; other edits carry no such line', async () => {
    await h.host(snapshot());
    const notice = 'This creates the project memory in /w/.govibe/memory/: GoVibe\'s notes about this project.';
    await h.host({
      type: 'confirm',
      request: req({ id: 'm1', kind: 'edit', path: '/w/.govibe/memory/L1-purpose.md', relPath: '.govibe/memory/L1-purpose.md', isNew: true, proposed: '# Purpose\n', notice }),
    });
    await h.host({ type: 'confirm', request: req({ id: 'e2', kind: 'edit', path: '/w/b.go', relPath: 'b.go', isNew: true, proposed: 'x\n', turnId: 't2' }) });
    const cards = h.qa('confirm-card');
    expect(cards.length).toBe(2);
    const line = cards[0].querySelector('[data-testid="confirm-notice"]');
    expect(line?.textContent?.trim()).toBe(notice);
    expect(cards[1].querySelector('[data-testid="confirm-notice"]')).toBeNull();
  });

  test('one key press answers only the first open confirmation', async () => {
    await h.host(snapshot());
    await h.host({ type: 'confirm', request: req({ id: 's1', kind: 'shell', command: 'ls' }) });
    await h.host({ type: 'confirm', request: req({ id: 's2', kind: 'shell', command: 'pwd', turnId: 't2' }) });
    const [first, second] = h.qa('confirm-card');
    expect(first.classList.contains('primary')).toBe(true);
    expect(second.textContent).not.toContain('Alt+A');
    alt('KeyA');
    await flush();
    expect(h.posted.filter((p) => p.type === 'resolve')).toEqual([{ type: 'resolve', id: 's1', decision: 'accept' }]);
    // The next open card takes over the shortcuts.
    expect(h.qa('confirm-card')[1].textContent).toContain('Alt+A');
    alt('KeyR');
    expect(h.posted).toContainEqual({ type: 'resolve', id: 's2', decision: 'reject' });
  });

  test('plain letters and other modifiers do not answer', async () => {
    await h.host(snapshot());
    await h.host({ type: 'confirm', request: req({ id: 's1', kind: 'shell', command: 'ls' }) });
    window.dispatchEvent(new KeyboardEvent('keydown', { code: 'KeyA', key: 'a', bubbles: true }));
    window.dispatchEvent(new KeyboardEvent('keydown', { code: 'KeyA', key: 'a', altKey: true, ctrlKey: true, bubbles: true }));
    expect(h.posted.some((p) => p.type === 'resolve')).toBe(false);
  });
});
