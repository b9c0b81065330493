// The chat webview's HTML shell. Pure so the CSP can be unit tested.
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { BOOT_ID, BOOT_INPUT_ID, BOOT_SEND_ATTR, type BootText } from '../shared/bootInput';

export interface WebviewHtmlInput {
  cspSource: string;
  nonce: string;
  /**
   * The bundle and its styles, inlined (webviewAssets): each file a
   * webview loads goes through the editor's resource loader, and the
   * three round trips were most of the time between the view's document
   * and its script on start-up (issue 33 §6).
   */
  script: string;
  style: string;
  /** codicon.css with its font's URL made absolute (the font still loads from disk). */
  codiconStyle: string;
  lang: string;
  /**
   * Moments of the start-up before the webview existed, in epoch ms (the
   * extension host's start, the extension's activation, the view's
   * resolution): the start-up benchmark reads them beside the webview's
   * own marks to say where the time went.
   */
  startMoments?: Record<string, number>;
  /**
   * The chat input the page shows before its script runs
   * (shared/bootInput.ts): the draft the view saved, and the composer's
   * placeholder and label in the view's language.
   */
  boot?: BootText;
}

export function makeNonce(): string {
  return randomBytes(18).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} https: data:`,
  ].join('; ') + ';';
}

export function webviewHtml(i: WebviewHtmlInput): string {
  const a = (s: string) => escapeAttr(s);
  return `<!DOCTYPE html>
<html lang="${a(i.lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${a(contentSecurityPolicy(i.cspSource, i.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${a(i.nonce)}">${inlineSafe(i.codiconStyle, 'style')}</style>
<style nonce="${a(i.nonce)}">${inlineSafe(i.style, 'style')}</style>
<title>GoVibe</title>
</head>
<body data-start="${a(JSON.stringify(i.startMoments ?? {}))}">
<div id="root"></div>${i.boot ? bootComposer(i.boot, i.nonce) : ''}
<script type="module" nonce="${a(i.nonce)}">${inlineSafe(i.script, 'script')}</script>
</body>
</html>
`;
}

/**
 * The page's own composer: a textarea where the mounted one will be, usable
 * while the bundle is parsed. Enter (not Shift+Enter, not an IME's) is
 * kept for the mounted composer to send, not typed as a newline; the
 * mark govibe/input says when it was first painted (the start-up bench). The
 * newline after <textarea> is the one HTML drops, so a draft that starts
 * with a newline keeps it.
 */
function bootComposer(b: BootText, nonce: string): string {
  const a = (s: string) => escapeAttr(s);
  return `
<footer id="${BOOT_ID}" class="composer boot-composer"><textarea id="${BOOT_INPUT_ID}" class="chat-input" data-testid="chat-input" rows="3" placeholder="${a(b.placeholder)}" aria-label="${a(b.label)}">
${escapeText(b.draft)}</textarea><div class="composer-bar"></div></footer>
<script nonce="${a(nonce)}">requestAnimationFrame(() => performance.mark('govibe/input'));
document.getElementById(${JSON.stringify(BOOT_INPUT_ID)}).addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || e.shiftKey || e.isComposing || e.keyCode === 229) return;
  e.preventDefault();
  e.currentTarget.setAttribute(${JSON.stringify(BOOT_SEND_ATTR)}, '1');
});</script>`;
}

/**
 * Text safe inside a <script> or <style> element: a closing tag in it
 * would end the element early. In a script `<\/` is the same string or
 * regular expression as `</`; CSS reads `\/` as `/`.
 */
export function inlineSafe(text: string, tag: 'script' | 'style'): string {
  return text.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1');
}

/**
 * codicon.css as shipped links its font relatively ("./codicon.ttf?…");
 * inlined, that must be the font's webview URI.
 */
export function absoluteCodiconFont(css: string, fontUri: string): string {
  return css.replace(/url\((["']?)\.\/codicon\.ttf(\?[^"')]*)?\1\)/g, (_m, q: string, query: string | undefined) => `url(${q}${fontUri}${query ?? ''}${q})`);
}

/** Text content of an element (a textarea's is raw text: only & and < matter). */
function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Only http(s) links leave the webview; everything else is refused. */
export function isExternalLink(href: string): boolean {
  try {
    const u = new URL(href);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The folder of the storage directory where the sidecar keeps MCP tool images. */
export const MCP_IMAGE_DIR = 'mcp-images';

/**
 * An image an MCP tool returned, as the sidecar saved it: directly in
 * storageDir/mcp-images, named by its SHA-256 with the extension of one
 * of the four raster types it keeps (server/internal/workspace/mcpclient/images.go).
 */
export function isMcpImagePath(p: string, storageDir: string): boolean {
  const rel = path.relative(path.join(storageDir, MCP_IMAGE_DIR), path.resolve(p));
  return /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/.test(rel);
}

/** A screenshot the browser sub-agent saved: a .png inside storageDir/browser. */
export function isScreenshotPath(p: string, storageDir: string): boolean {
  const rel = path.relative(path.join(storageDir, 'browser'), path.resolve(p));
  return p.toLowerCase().endsWith('.png') && rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
