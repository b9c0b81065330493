// The chat webview's HTML shell. Pure so the CSP can be unit tested.
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';

export interface WebviewHtmlInput {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  lang: string;
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
<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${a(i.codiconUri)}" nonce="${a(i.nonce)}">
<link rel="stylesheet" href="${a(i.styleUri)}" nonce="${a(i.nonce)}">
<title>GoVibe</title>
</head>
<body>
<div id="root"></div>
<script type="module" nonce="${a(i.nonce)}" src="${a(i.scriptUri)}"></script>
</body>
</html>
`;
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
 * of the four raster types it keeps (server/internal/mcpclient/images.go).
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
