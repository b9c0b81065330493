import { describe, expect, test } from 'vitest';
import { closeOpenFence, renderBlocks, renderMarkdown } from '../src/markdown';

function dom(html: string): HTMLElement {
  const d = document.createElement('div');
  d.innerHTML = html;
  return d;
}

function handlerAttrs(root: Element): string[] {
  const out: string[] = [];
  for (const el of Array.from(root.querySelectorAll('*'))) {
    for (const a of Array.from(el.attributes)) if (/^on/i.test(a.name)) out.push(`${el.tagName}.${a.name}`);
  }
  return out;
}

describe('closeOpenFence', () => {
  test('closes an open backtick fence with the same length', () => {
    expect(closeOpenFence('a\n````go\nx := 1')).toBe('a\n````go\nx := 1\n````\n');
  });
  test('closes tilde fences and leaves balanced text alone', () => {
    expect(closeOpenFence('~~~\ncode')).toBe('~~~\ncode\n~~~\n');
    const done = '```js\nx\n```\ntext';
    expect(closeOpenFence(done)).toBe(done);
  });
  test('a shorter fence inside does not close a longer one', () => {
    expect(closeOpenFence('````\n```\n')).toBe('````\n```\n````\n');
  });
});

describe('renderBlocks', () => {
  test('highlights a fenced code block by language', () => {
    const html = renderMarkdown('Intro\n\n```go\nfunc main() {}\n```\n');
    const d = dom(html);
    const code = d.querySelector('pre code.language-go')!;
    expect(code).not.toBeNull();
    expect(code.querySelector('.hljs-keyword')?.textContent).toBe('func');
    expect(code.textContent).toBe('func main() {}');
  });

  test('an unterminated fence renders as code while streaming', () => {
    const blocks = renderBlocks('Look:\n\n```python\ndef f():\n    return 1', true);
    const d = dom(blocks.map((b) => b.html).join(''));
    expect(d.querySelector('pre code.language-python')?.textContent).toContain('return 1');
  });

  test('earlier blocks keep their source while the tail grows', () => {
    const a = renderBlocks('# Title\n\nfirst para\n\nsec', true);
    const b = renderBlocks('# Title\n\nfirst para\n\nsecond para grows', true);
    expect(a[0].raw).toBe(b[0].raw);
    expect(a[1].raw).toBe(b[1].raw);
    expect(a[2].raw).not.toBe(b[2].raw);
  });
});

describe('sanitisation', () => {
  const nasty = [
    '<img src="x" onerror="window.__pwned=1">',
    '<script>window.__pwned=1</script>',
    '<iframe src="https://example.com" onload="window.__pwned=1"></iframe>',
    '<a href="javascript:window.__pwned=1">js</a>',
    '[js md](javascript:window.__pwned=1)',
    '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[cmd](command:workbench.action.terminal.new)',
    '[vs](vscode:extension/foo)',
    '[rel](../secrets.txt)',
    '<svg><g onload="window.__pwned=1"></g></svg>',
    '<div onclick="window.__pwned=1" style="color:red">x</div>',
    '<form action="https://evil"><input name=a></form>',
    '<a href="https://ok.example/" target="_blank" onclick="window.__pwned=1">ok</a>',
  ].join('\n\n');

  test('strips scripts, frames, handlers and unsafe links', async () => {
    const html = renderMarkdown(nasty);
    const d = dom(html);
    document.body.appendChild(d);
    await new Promise((r) => setTimeout(r, 20));
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    expect(handlerAttrs(d)).toEqual([]);
    expect(d.querySelector('script, iframe, form, input, style')).toBeNull();
    expect(d.querySelector('[style]')).toBeNull();
    const hrefs = Array.from(d.querySelectorAll('a')).map((a) => a.getAttribute('href'));
    expect(hrefs.filter((h) => h !== null)).toEqual(['https://ok.example/']);
    expect(d.querySelector('a[target]')).toBeNull();
    // The link texts survive as inert text.
    for (const t of ['js md', 'data', 'cmd', 'vs', 'rel']) expect(d.textContent).toContain(t);
    d.remove();
  });

  test('keeps http, https and mailto links', () => {
    const d = dom(renderMarkdown('[a](http://a.example) [b](https://b.example) [c](mailto:x@y.example) <https://auto.example>'));
    expect(Array.from(d.querySelectorAll('a')).map((a) => a.getAttribute('href'))).toEqual([
      'http://a.example',
      'https://b.example',
      'mailto:x@y.example',
      'https://auto.example',
    ]);
  });

  test('only https images keep their source', () => {
    const d = dom(renderMarkdown('![a](http://x.example/a.png) ![b](data:image/png;base64,AAAA)'));
    for (const img of Array.from(d.querySelectorAll('img'))) expect(img.getAttribute('src')).toBeNull();
  });
});

describe('SVG links and images', () => {
  const data = 'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+';
  const vectors = [
    `<svg><image href="${data}"></image></svg>`,
    `<svg><image xlink:href="${data}"></image></svg>`,
    `<svg><image href="http://plain.example/i.png"></image></svg>`,
    '<svg><a href="javascript:window.__pwned=1"><text>svg-js</text></a></svg>',
    '<svg><a xlink:href="javascript:window.__pwned=1"><text>svg-xlink</text></a></svg>',
    '<SVG><A HREF="javascript:window.__pwned=1"><TEXT>svg-upper</TEXT></A></SVG>',
    '<svg><a href="command:workbench.action.terminal.new"><text>svg-cmd</text></a></svg>',
    `<svg><use href="${data}#x"></use></svg>`,
    '<svg><use xlink:href="https://evil.example/sprite.svg#a"></use></svg>',
    `<svg><filter id="f"><feImage href="${data}"></feImage></filter></svg>`,
    '<svg><text><textPath href="https://evil.example/p.svg#p">t</textPath></text></svg>',
    '<svg><pattern id="p" href="https://evil.example/pat.svg#q"></pattern></svg>',
    '<svg><linearGradient id="g" href="https://evil.example/g.svg#g"></linearGradient></svg>',
    '<svg><a><animate attributeName="href" to="javascript:window.__pwned=1"></animate><text>anim</text></a></svg>',
    '<svg><a><set attributeName="href" to="javascript:window.__pwned=1"></set><text>set</text></a></svg>',
    '<math><mi xlink:href="javascript:window.__pwned=1">m</mi></math>',
    '<svg><a target="_blank" href="https://ok.example/svg"><text>svg-ok</text></a></svg>',
    '<svg><image href="https://ok.example/i.png"></image></svg>',
  ];

  function links(root: Element): { tag: string; name: string; value: string }[] {
    const out: { tag: string; name: string; value: string }[] = [];
    for (const el of Array.from(root.querySelectorAll('*'))) {
      for (const a of Array.from(el.attributes)) {
        if (/href$|^src$|^to$|^values$|^from$/i.test(a.name)) out.push({ tag: el.nodeName.toLowerCase(), name: a.name, value: a.value });
      }
    }
    return out;
  }

  test('only safe https/mailto targets survive, on a and image alone', async () => {
    const d = dom(renderMarkdown(vectors.join('\n\n')));
    document.body.appendChild(d);
    await new Promise((r) => setTimeout(r, 20));
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    expect(links(d)).toEqual([
      { tag: 'a', name: 'href', value: 'https://ok.example/svg' },
      { tag: 'image', name: 'href', value: 'https://ok.example/i.png' },
    ]);
    expect(d.querySelector('[target]')).toBeNull();
    expect(d.innerHTML).not.toContain('data:');
    expect(d.innerHTML).not.toContain('javascript:');
    expect(d.innerHTML).not.toContain('evil.example');
    expect(handlerAttrs(d)).toEqual([]);
    d.remove();
  });

  test('each vector alone is neutralised', () => {
    for (const v of vectors.slice(0, -2)) {
      const d = dom(renderMarkdown(v));
      expect(links(d), v).toEqual([]);
    }
  });
});
