import { describe, expect, it } from 'vitest';
import { absoluteCodiconFont, contentSecurityPolicy, inlineSafe, isExternalLink, isMcpImagePath, isScreenshotPath, makeNonce, webviewHtml } from '../src/webviewHtml';
import { isRemedy } from '../src/errorActions';

describe('webview HTML', () => {
  it('has a strict nonce-based CSP without unsafe-eval or inline scripts', () => {
    const csp = contentSecurityPolicy('vscode-resource:', 'N1');
    expect(csp).toBe(
      "default-src 'none'; script-src 'nonce-N1'; style-src vscode-resource: 'nonce-N1'; font-src vscode-resource:; img-src vscode-resource: https: data:;",
    );
    const html = webviewHtml({ cspSource: 'vscode-resource:', nonce: 'N1', script: 'run()', style: 'b{}', codiconStyle: '.c{}', lang: 'zh-cn' });
    // The bundle and the styles are inline, each carrying the nonce.
    expect(html).toContain('<script type="module" nonce="N1">run()</script>');
    expect(html).toContain('<style nonce="N1">.c{}</style>');
    expect(html).toContain('<style nonce="N1">b{}</style>');
    expect(html).toContain('<html lang="zh-cn">');
    expect(html).not.toMatch(/unsafe-(eval|inline)/);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html.match(/<style/g)).toHaveLength(2);
  });

  it('escapes attribute values', () => {
    const html = webviewHtml({ cspSource: 'x', nonce: 'n"><script>alert(1)</script>', script: '', style: '', codiconStyle: '', lang: 'en' });
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('n&quot;&gt;&lt;script&gt;');
  });

  it('keeps inlined text inside its element', () => {
    // A closing tag in the bundle (a string, a regular expression) would end
    // the element early and run the rest as markup.
    const script = 'const s = "</script><script>alert(1)</script>"; const r = /<\/SCRIPT>/;';
    const html = webviewHtml({ cspSource: 'x', nonce: 'n', script, style: 'a::after{content:"</style><b>x</b>"}', codiconStyle: '', lang: 'en' });
    expect(html.match(/<\/script>/gi)).toHaveLength(1);
    expect(html.match(/<\/style>/gi)).toHaveLength(2);
    // What the script reads is unchanged: `<\/` is `</` in a JS string.
    const escaped = inlineSafe(script, 'script');
    expect(new Function(`${escaped}; return s;`)()).toBe('</script><script>alert(1)</script>');
  });

  it('points the inlined codicon font at its webview URI', () => {
    const css = '@font-face{font-family:"codicon";src:url("./codicon.ttf?721d") format("truetype")}';
    expect(absoluteCodiconFont(css, 'https://file+.vscode-resource/x/codicon.ttf')).toBe(
      '@font-face{font-family:"codicon";src:url("https://file+.vscode-resource/x/codicon.ttf?721d") format("truetype")}',
    );
  });

  it('carries the start-up moments as data the page parses back', () => {
    const html = webviewHtml({ cspSource: 'x', nonce: 'n', script: '', style: '', codiconStyle: '', lang: 'en', startMoments: { activate: 1700000000123, resolve: 1700000000456 } });
    const attr = /<body data-start="([^"]*)">/.exec(html)?.[1] ?? '';
    const unescaped = attr.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    expect(JSON.parse(unescaped)).toEqual({ activate: 1700000000123, resolve: 1700000000456 });
    expect(webviewHtml({ cspSource: 'x', nonce: 'n', script: '', style: '', codiconStyle: '', lang: 'en' })).toContain('<body data-start="{}">');
  });

  it('writes a composer usable before the script runs, the draft kept inside it', () => {
    const draft = '\nfix </textarea><script>alert(1)</script> & go';
    const html = webviewHtml({ cspSource: 'x', nonce: 'N1', script: 'run()', style: '', codiconStyle: '', lang: 'en', boot: { draft, placeholder: 'Ask "it"', label: 'Message' } });
    // Its own small script (Enter is kept for the mounted composer) carries the nonce too.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<script nonce="N1">/g)).toHaveLength(1);
    // The draft cannot end the textarea; the newline HTML drops after the tag is doubled.
    expect(html.match(/<\/textarea>/g)).toHaveLength(1);
    expect(html).toContain('>\n\nfix &lt;/textarea>&lt;script>alert(1)&lt;/script> &amp; go</textarea>');
    expect(html).toContain('placeholder="Ask &quot;it&quot;"');
    expect(html).toContain('data-testid="chat-input"');
    // Before the module script, so it is on the page while the bundle is parsed.
    expect(html.indexOf('id="boot-input"')).toBeLessThan(html.indexOf('<script type="module"'));
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
