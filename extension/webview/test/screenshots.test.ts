// Browser screenshots inline in the chat: only a .png inside the folder
// the host named is given a src (its webview URI), so a tool result's
// meta cannot point the webview at any other file; the card shows it as
// wide as the sidebar allows and a click asks the host for the full size.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { screenshotSrc } from '../src/screenshots';
import { type Harness, ev, resetSeq, snapshot, start } from './harness';

const root = { dir: '/s/browser', base: 'https://file+.vscode-resource.vscode-cdn.net/s/browser' };

describe('screenshotSrc', () => {
  test('a screenshot in the folder gets its webview URI, each segment encoded', () => {
    expect(screenshotSrc('/s/browser/c1/browser-1.png', root)).toBe(`${root.base}/c1/browser-1.png`);
    expect(screenshotSrc('/s/browser/c 1/a#b?.PNG', root)).toBe(`${root.base}/c%201/a%23b%3F.PNG`);
    expect(screenshotSrc('/s/browser/c1/x.png', { ...root, dir: '/s/browser/', base: root.base + '/' })).toBe(`${root.base}/c1/x.png`);
  });

  test('anything else gets none', () => {
    for (const p of [
      '/s/browser/../sessions.db.png',
      '/s/browser/c1/../../x.png',
      '/s/browser/./x.png',
      '/s/browser//x.png',
      '/s/browserx/x.png',
      '/s/other/x.png',
      '/home/u/.ssh/id.png',
      '/s/browser/c1/notes.txt',
      '/s/browser/c1/x.png.svg',
      '/s/browser',
      'https://evil.example/x.png',
      'javascript:alert(1)//.png',
    ]) {
      expect(screenshotSrc(p, root), p).toBeUndefined();
    }
    expect(screenshotSrc('/s/browser/c1/x.png', undefined)).toBeUndefined();
    expect(screenshotSrc('/s/browser/c1/x.png', { dir: '', base: root.base })).toBeUndefined();
  });

  test('Windows paths: either slash, the drive letter in any case', () => {
    const win = { dir: 'c:\\Users\\me\\storage\\browser', base: 'https://file+.vscode-resource.vscode-cdn.net/c%3A/Users/me/storage/browser' };
    expect(screenshotSrc('C:\\Users\\me\\storage\\browser\\c1\\shot.png', win)).toBe(`${win.base}/c1/shot.png`);
    expect(screenshotSrc('C:\\Users\\me\\storage\\browser\\..\\x.png', win)).toBeUndefined();
    expect(screenshotSrc('D:\\Users\\me\\storage\\browser\\c1\\shot.png', win)).toBeUndefined();
  });
});

describe('browser_sub_agent card', () => {
  let h: Harness;
  beforeEach(async () => {
    resetSeq(10);
    h = await start();
  });
  afterEach(() => h.unmount());

  async function browserRun(screenshots: string[]) {
    await h.host(ev({ kind: 'toolCall', messageId: 'a1', tool: { callId: 'b1', name: 'browser_sub_agent', arguments: '{"task":"check"}', ok: false } }));
    await h.host(ev({ kind: 'toolResult', messageId: 'a1', tool: { callId: 'b1', name: 'browser_sub_agent', ok: true, output: '{}', meta: { status: 'success', screenshots } } }));
  }

  test('shows its screenshots inline, outside the collapsed details; a click opens one full size', async () => {
    await h.host(snapshot({}, { screenshots: root }));
    await browserRun(['/s/browser/c/one.png', '/s/browser/c/two.png']);
    const card = h.q('tool-card')!;
    expect(card.querySelector('details')!.open).toBe(false);
    const shots = h.qa<HTMLButtonElement>('screenshot');
    expect(shots.length).toBe(2);
    const imgs = shots.map((b) => b.querySelector('img')!);
    expect(imgs.map((i) => i.getAttribute('src'))).toEqual([`${root.base}/c/one.png`, `${root.base}/c/two.png`]);
    expect(imgs.map((i) => i.alt)).toEqual(['Screenshot 1', 'Screenshot 2']);
    expect(shots.every((b) => !b.closest('details'))).toBe(true);
    expect(shots[0].title).toBe('Open full size');
    expect(h.q('open-screenshot')).toBeNull();
    shots[1].click();
    expect(h.posted).toContainEqual({ type: 'openImage', path: '/s/browser/c/two.png' });
  });

  test('a path outside the screenshot folder is never loaded: it stays a button the host checks', async () => {
    await h.host(snapshot({}, { screenshots: root }));
    await browserRun(['/s/browser/c/ok.png', '/etc/secret.png']);
    expect(h.qa('screenshot').length).toBe(1);
    expect(h.q('tool-card')!.querySelectorAll('img').length).toBe(1);
    const fallback = h.qa('open-screenshot');
    expect(fallback.length).toBe(1);
    fallback[0].click();
    expect(h.posted).toContainEqual({ type: 'openImage', path: '/etc/secret.png' });
  });

  test('without a screenshot folder (an older host) the screenshots are buttons', async () => {
    await h.host(snapshot());
    await browserRun(['/s/browser/c/one.png']);
    expect(h.q('screenshot')).toBeNull();
    expect(h.qa('open-screenshot').length).toBe(1);
  });
});
