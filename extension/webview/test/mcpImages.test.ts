// MCP tool images inline in the chat: only a file directly in the MCP
// image folder the host named, with the sidecar's <sha256>.<ext> name,
// gets a src (its webview URI), so a tool result's meta cannot point the
// webview at any other file; the card shows it as wide as the sidebar
// allows and a click asks the host for the full size.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { mcpImageSrc, mcpImagesFromMeta } from '../src/mcpImages';
import { type Harness, ev, resetSeq, snapshot, start } from './harness';

const root = { dir: '/s/mcp-images', base: 'https://file+.vscode-resource.vscode-cdn.net/s/mcp-images' };
const h1 = 'a'.repeat(64);
const h2 = '0123456789abcdef'.repeat(4);

describe('mcpImageSrc', () => {
  test('an image the sidecar saved gets its webview URI', () => {
    for (const ext of ['png', 'jpg', 'gif', 'webp']) expect(mcpImageSrc(`/s/mcp-images/${h1}.${ext}`, root)).toBe(`${root.base}/${h1}.${ext}`);
    expect(mcpImageSrc(`/s/mcp-images/${h2}.png`, { dir: '/s/mcp-images/', base: root.base + '/' })).toBe(`${root.base}/${h2}.png`);
  });

  test('anything else gets none', () => {
    for (const p of [
      `/s/mcp-images/../${h1}.png`,
      `/s/mcp-images/./${h1}.png`,
      `/s/mcp-images//${h1}.png`,
      `/s/mcp-images/sub/${h1}.png`,
      `/s/mcp-imagesx/${h1}.png`,
      `/s/browser/${h1}.png`,
      `/s/mcp-images/${h1}.svg`,
      `/s/mcp-images/${h1}.png.svg`,
      `/s/mcp-images/${h1}.PNG`,
      `/s/mcp-images/${'A'.repeat(64)}.png`,
      `/s/mcp-images/${h1.slice(1)}.png`,
      '/s/mcp-images/x.png',
      '/s/mcp-images',
      '/home/u/.ssh/id.png',
      `https://evil.example/${h1}.png`,
      `javascript:alert(1)//${h1}.png`,
    ]) {
      expect(mcpImageSrc(p, root), p).toBeUndefined();
    }
    expect(mcpImageSrc(`/s/mcp-images/${h1}.png`, undefined)).toBeUndefined();
    expect(mcpImageSrc(`/s/mcp-images/${h1}.png`, { dir: '', base: root.base })).toBeUndefined();
    expect(mcpImageSrc(`/s/mcp-images/${h1}.png`, { dir: root.dir, base: '' })).toBeUndefined();
  });

  test('Windows paths: either slash, the drive letter in any case', () => {
    const win = { dir: 'c:\\Users\\me\\storage\\mcp-images', base: 'https://file+.vscode-resource.vscode-cdn.net/c%3A/Users/me/storage/mcp-images' };
    expect(mcpImageSrc(`C:\\Users\\me\\storage\\mcp-images\\${h1}.png`, win)).toBe(`${win.base}/${h1}.png`);
    expect(mcpImageSrc(`C:\\Users\\me\\storage\\mcp-images\\..\\${h1}.png`, win)).toBeUndefined();
    expect(mcpImageSrc(`D:\\Users\\me\\storage\\mcp-images\\${h1}.png`, win)).toBeUndefined();
  });

  test('malformed meta entries are dropped', () => {
    expect(mcpImagesFromMeta(undefined)).toEqual([]);
    expect(mcpImagesFromMeta({ images: 'x' })).toEqual([]);
    expect(mcpImagesFromMeta({ images: [null, 3, { path: 1, mimeType: 'image/png' }, { path: '/p', mimeType: 'image/png', size: 'big' }] })).toEqual([
      { path: '/p', mimeType: 'image/png', size: undefined },
    ]);
  });
});

describe('MCP tool card', () => {
  let h: Harness;
  beforeEach(async () => {
    resetSeq(10);
    h = await start();
  });
  afterEach(() => h.unmount());

  async function mcpRun(images: unknown[], output = '[The tool returned an image (image/png, 10 bytes). It is shown to the user in the chat; its content is not available to the model.]') {
    await h.host(ev({ kind: 'toolCall', messageId: 'a1', tool: { callId: 'm1', name: 'mcp__echo__picture', arguments: '{}', ok: false } }));
    await h.host(ev({ kind: 'toolResult', messageId: 'a1', tool: { callId: 'm1', name: 'mcp__echo__picture', ok: true, output, meta: { server: 'echo', tool: 'picture', images } } }));
  }

  test('shows its images inline, outside the collapsed details; a click opens one full size', async () => {
    await h.host(snapshot({}, { mcpImages: root }));
    await mcpRun([
      { path: `/s/mcp-images/${h1}.png`, mimeType: 'image/png', size: 10 },
      { path: `/s/mcp-images/${h2}.webp`, mimeType: 'image/webp', size: 20 },
    ]);
    const card = h.q('tool-card')!;
    expect(card.querySelector('details')!.open).toBe(false);
    const shown = h.qa<HTMLButtonElement>('mcp-image');
    expect(shown.length).toBe(2);
    const imgs = shown.map((b) => b.querySelector('img')!);
    expect(imgs.map((i) => i.getAttribute('src'))).toEqual([`${root.base}/${h1}.png`, `${root.base}/${h2}.webp`]);
    expect(imgs.map((i) => i.alt)).toEqual(['Image from echo 1', 'Image from echo 2']);
    expect(shown.every((b) => !b.closest('details') && b.classList.contains('tool-shot'))).toBe(true);
    expect(shown[0].title).toBe('Open full size');
    expect(h.q('open-mcp-image')).toBeNull();
    shown[1].click();
    expect(h.posted).toContainEqual({ type: 'openImage', path: `/s/mcp-images/${h2}.webp` });
  });

  test('a path outside the image folder is never loaded: it stays a button the host checks', async () => {
    await h.host(snapshot({}, { mcpImages: root, screenshots: { dir: '/s/browser', base: 'https://x/s/browser' } }));
    await mcpRun([
      { path: `/s/mcp-images/${h1}.png`, mimeType: 'image/png' },
      { path: '/etc/secret.png', mimeType: 'image/png' },
      { path: `/s/browser/${h1}.png`, mimeType: 'image/png' },
    ]);
    expect(h.qa('mcp-image').length).toBe(1);
    expect(h.q('tool-card')!.querySelectorAll('img').length).toBe(1);
    const fallback = h.qa('open-mcp-image');
    expect(fallback.length).toBe(2);
    fallback[0].click();
    expect(h.posted).toContainEqual({ type: 'openImage', path: '/etc/secret.png' });
  });

  test('without an image folder (an older host) the images are buttons the host checks', async () => {
    await h.host(snapshot());
    await mcpRun([{ path: `/s/mcp-images/${h1}.png`, mimeType: 'image/png' }]);
    expect(h.q('mcp-image')).toBeNull();
    expect(h.qa('open-mcp-image').length).toBe(1);
  });
});
