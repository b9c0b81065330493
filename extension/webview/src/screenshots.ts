// Browser screenshots shown inline in a tool card. The path comes from a
// tool result's meta, so it is untrusted: only a .png inside the
// screenshot folder the host named gets a src, built from the folder's
// webview URI and the path's own segments (each encoded; '.', '..' and
// empty segments refused). The host also lets the webview load nothing
// else from disk (localResourceRoots), and opens the full-size file only
// after the same check (webviewHtml.ts isScreenshotPath).
import type { ScreenshotRoot } from '../../shared/webviewMessages';

/** Forward slashes, no trailing slash: Windows paths compare as POSIX ones. */
function norm(p: string): string {
  return p.replace(/\\/g, '/').replace(/\/+$/, '');
}

/**
 * The webview URI of path when it lies inside root.dir with no empty, '.'
 * or '..' segment, built from root.base and the path's own segments (each
 * encoded); undefined otherwise. The one check both kinds of inline image
 * go through (screenshots here, MCP tool images in mcpImages.ts).
 */
export function srcInside(path: string, root: ScreenshotRoot | undefined): { src: string; segs: string[] } | undefined {
  if (!root || !root.dir || !root.base) return undefined;
  const dir = norm(root.dir) + '/';
  const p = norm(path);
  // Drive letters differ in case between VS Code and Go on Windows.
  const inside = /^[a-z]:\//i.test(dir) ? p.toLowerCase().startsWith(dir.toLowerCase()) : p.startsWith(dir);
  if (!inside) return undefined;
  const segs = p.slice(dir.length).split('/');
  if (segs.some((s) => s === '' || s === '.' || s === '..')) return undefined;
  return { src: norm(root.base) + '/' + segs.map(encodeURIComponent).join('/'), segs };
}

/** The webview URI of a screenshot path, or undefined when it may not be shown. */
export function screenshotSrc(path: string, root: ScreenshotRoot | undefined): string | undefined {
  if (!/\.png$/i.test(path)) return undefined;
  return srcInside(path, root)?.src;
}
