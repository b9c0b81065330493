// The page's own composer (shared/bootInput.ts): usable before the script
// runs, and what it holds is the mounted composer's.
import { describe, expect, test } from 'vitest';
import { BOOT_ID, BOOT_INPUT_ID, BOOT_LABEL, BOOT_PLACEHOLDER } from '../../shared/bootInput';
import { webviewHtml } from '../../src/webviewHtml';
import { flush, load, snapshot, start } from './harness';

/**
 * Puts the host's page composer (the markup and script webviewHtml writes)
 * into doc and runs its script, as the webview's page would.
 */
function pageComposer(doc: Document, draft: string): HTMLTextAreaElement {
  const html = webviewHtml({ cspSource: 'x', nonce: 'n', script: '', style: '', codiconStyle: '', lang: 'en', boot: { draft, placeholder: BOOT_PLACEHOLDER, label: BOOT_LABEL } });
  const page = new DOMParser().parseFromString(html, 'text/html');
  const footer = page.getElementById(BOOT_ID)!;
  doc.body.appendChild(doc.importNode(footer, true));
  const script = footer.nextElementSibling as HTMLScriptElement;
  expect(script.tagName).toBe('SCRIPT');
  new Function(script.textContent!)();
  return doc.getElementById(BOOT_INPUT_ID) as HTMLTextAreaElement;
}

const enter = (el: Element, init: KeyboardEventInit = {}) => {
  const e = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true, ...init });
  el.dispatchEvent(e);
  return e;
};

describe('the page composer before the script', () => {
  test('holds the saved draft, a leading newline and markup included', async () => {
    let boot: HTMLTextAreaElement | undefined;
    await start(undefined, (doc) => {
      boot = pageComposer(doc, '\nfirst line </textarea><b>x</b> & more');
      expect(boot.value).toBe('\nfirst line </textarea><b>x</b> & more');
      expect(boot.placeholder).toBe(BOOT_PLACEHOLDER);
      expect(boot.getAttribute('aria-label')).toBe(BOOT_LABEL);
    });
    expect(boot).toBeDefined();
  });

  test('what was typed, the caret and the focus become the mounted composer’s', async () => {
    const h = await start({ draft: 'old draft' }, (doc) => {
      const boot = pageComposer(doc, 'old draft');
      boot.value = 'typed before the script';
      boot.focus();
      boot.setSelectionRange(5, 11);
    });
    const inputs = document.querySelectorAll<HTMLTextAreaElement>('[data-testid="chat-input"]');
    expect(inputs.length).toBe(1);
    expect(document.getElementById(BOOT_ID)).toBeNull();
    const input = inputs[0];
    expect(h.root.contains(input)).toBe(true);
    expect(input.value).toBe('typed before the script');
    expect(document.activeElement).toBe(input);
    expect([input.selectionStart, input.selectionEnd]).toEqual([5, 11]);
    h.bridge.flush();
    expect((h.savedState() as { draft: string }).draft).toBe('typed before the script');
    expect(h.posted.filter((m) => m.type === 'send')).toEqual([]);
  });

  test('Enter pressed before the script is sent once mounted, and only once', async () => {
    const h = await start(undefined, (doc) => {
      const boot = pageComposer(doc, '');
      boot.value = 'fix the tests';
      expect(enter(boot, { shiftKey: true }).defaultPrevented).toBe(false);
      expect(enter(boot, { isComposing: true }).defaultPrevented).toBe(false);
      expect(enter(boot).defaultPrevented).toBe(true);
    });
    await flush();
    expect(h.posted.filter((m) => m.type === 'send')).toEqual([{ type: 'send', text: 'fix the tests' }]);
    const input = h.q<HTMLTextAreaElement>('chat-input')!;
    expect(input.value).toBe('');
    await flush();
    expect(h.posted.filter((m) => m.type === 'send').length).toBe(1);
  });

  test('Shift+Enter before the script is a newline: nothing is sent', async () => {
    const h = await start(undefined, (doc) => {
      const boot = pageComposer(doc, '');
      boot.value = 'two\nlines';
      enter(boot, { shiftKey: true });
    });
    expect(h.posted.filter((m) => m.type === 'send')).toEqual([]);
    expect(h.q<HTMLTextAreaElement>('chat-input')!.value).toBe('two\nlines');
  });

  test('the mounted composer shows the strings the page composer is given', async () => {
    const h = await start();
    const input = h.q<HTMLTextAreaElement>('chat-input')!;
    expect(input.placeholder).toBe(BOOT_PLACEHOLDER);
    expect(input.getAttribute('aria-label')).toBe(BOOT_LABEL);
  });
});

describe('typing while the first snapshot arrives', () => {
  const typeInto = (el: HTMLTextAreaElement, text: string) => {
    el.focus();
    el.value = text;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.setSelectionRange(3, 5);
  };

  test('a first snapshot in English leaves the input as it is: the same element, focused', async () => {
    const h = await start();
    const input = h.q<HTMLTextAreaElement>('chat-input')!;
    typeInto(input, 'typed early');
    await h.host(snapshot(load()));
    expect(h.q('chat-input')).toBe(input);
    expect(document.activeElement).toBe(input);
    expect(input.value).toBe('typed early');
  });

  test('a language bundle rebuilds the view; the input keeps its text, focus and selection', async () => {
    const h = await start();
    typeInto(h.q<HTMLTextAreaElement>('chat-input')!, 'typed early');
    await h.host(snapshot(load(), { l10n: { Send: '发送' }, locale: 'zh-cn' }));
    const input = h.q<HTMLTextAreaElement>('chat-input')!;
    expect(h.q('send')!.textContent).toContain('发送');
    expect(input.value).toBe('typed early');
    expect(document.activeElement).toBe(input);
    expect([input.selectionStart, input.selectionEnd]).toEqual([3, 5]);
  });

  test('an input that was not focused does not take the focus when the view is rebuilt', async () => {
    const h = await start();
    h.q<HTMLTextAreaElement>('chat-input')!.blur();
    await h.host(snapshot(load(), { l10n: { Send: '发送' }, locale: 'zh-cn' }));
    expect(document.activeElement).not.toBe(h.q('chat-input'));
  });
});
