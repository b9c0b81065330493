import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, isExternalLink, isMcpImagePath, isScreenshotPath, makeNonce, webviewHtml } from '../src/webviewHtml';
import { isRemedy } from '../src/errorActions';

describe('webview HTML', () => {
  it('has a strict nonce-based CSP without unsafe-eval or inline scripts', () => {
    const csp = contentSecurityPolicy('vscode-resource:', 'N1');
    expect(csp).toBe(
      "default-src 'none'; script-src 'nonce-N1'; style-src vscode-resource: 'nonce-N1'; font-src vscode-resource:; img-src vscode-resource: https: data:;",
    );
    const html = webviewHtml({ cspSource: 'vscode-resource:', nonce: 'N1', scriptUri: 's.js', styleUri: 'm.css', codiconUri: 'c.css', lang: 'zh-cn' });
    expect(html).toContain('<script type="module" nonce="N1" src="s.js"></script>');
    expect(html).toContain('<link rel="stylesheet" id="vscode-codicon-stylesheet" href="c.css" nonce="N1">');
    expect(html).toContain('<html lang="zh-cn">');
    expect(html).not.toMatch(/unsafe-(eval|inline)/);
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it('escapes attribute values', () => {
    const html = webviewHtml({ cspSource: 'x', nonce: 'n', scriptUri: 'a"><script>alert(1)</script>', styleUri: 'm', codiconUri: 'c', lang: 'en' });
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('a&quot;&gt;&lt;script&gt;');
  });

  it('makes fresh, long nonces', () => {
    const a = makeNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{24}$/);
    expect(makeNonce()).not.toBe(a);
  });

  it('lets only http(s) links out', () => {
    expect(isExternalLink('https://example.com/x')).toBe(true);
    expect(isExternalLink('http://localhost:3000')).toBe(true);
    for (const bad of ['command:workbench.action.terminal.new', 'file:///etc/passwd', 'javascript:alert(1)', 'vscode://x', 'not a url', '']) {
      expect(isExternalLink(bad), bad).toBe(false);
    }
  });

  it('knows the remedies the server can name', () => {
    for (const a of ['setApiKey', 'showLogs', 'restartServer', 'openSettings', 'continue']) expect(isRemedy(a)).toBe(true);
    expect(isRemedy('rm -rf')).toBe(false);
    expect(isRemedy(undefined)).toBe(false);
  });
});

describe('screenshots opened from the chat', () => {
  it('opens only PNGs the browser sub-agent saved under the storage directory', () => {
    expect(isScreenshotPath('/s/browser/sess/browser-1.png', '/s')).toBe(true);
    expect(isScreenshotPath('/s/browser/../sessions.db', '/s')).toBe(false);
    expect(isScreenshotPath('/s/browser/x/../../../etc/x.png', '/s')).toBe(false);
    expect(isScreenshotPath('/s/other/x.png', '/s')).toBe(false);
    expect(isScreenshotPath('/s/browser/sess/notes.txt', '/s')).toBe(false);
    expect(isScreenshotPath('/home/u/.ssh/id.png', '/s')).toBe(false);
  });
});

describe('MCP images opened from the chat', () => {
  const h = 'a'.repeat(64);
  it('opens only images the sidecar saved in storageDir/mcp-images, named by their hash', () => {
    for (const ext of ['png', 'jpg', 'gif', 'webp']) expect(isMcpImagePath(`/s/mcp-images/${h}.${ext}`, '/s')).toBe(true);
    for (const p of [
      `/s/mcp-images/../${h}.png`,
      `/s/mcp-images/sub/${h}.png`,
      `/s/browser/${h}.png`,
      `/s/mcp-images/${h}.svg`,
      `/s/mcp-images/${h}.png.html`,
      `/s/mcp-images/${'A'.repeat(64)}.png`,
      '/s/mcp-images/short.png',
      '/s/mcp-images',
      '/etc/passwd',
    ]) {
      expect(isMcpImagePath(p, '/s'), p).toBe(false);
    }
  });
});
