import { expect, test } from 'vitest';
import { renderMarkdown } from '../src/markdown';

// Issue 13's acceptance vectors for SVG and MathML links, written after
// the sanitizer hooks and not in markdown.test.ts: spellings of unsafe
// schemes, other linking elements and attributes, protocol-relative and
// relative targets. Nothing may keep a link the HTML policy would drop
// (SAFE_LINK: http, https, mailto; images https only),
// run a handler, or set a global.
const vectors = [
  '<svg><a href=" javascript:window.__pwned=1"><text>lead-space</text></a></svg>',
  '<svg><a href="JaVaScRiPt:window.__pwned=1"><text>mixed-case</text></a></svg>',
  '<svg><a href="&#106;avascript:window.__pwned=1"><text>entity</text></a></svg>',
  '<svg><a href="java&#x09;script:window.__pwned=1"><text>tab</text></a></svg>',
  '<svg><a href="vbscript:msgbox(1)"><text>vb</text></a></svg>',
  '<svg><a href="data:text/html,<script>window.__pwned=1</script>"><text>data-html</text></a></svg>',
  '<svg><a href="//evil.example/p"><text>proto-rel</text></a></svg>',
  '<svg><image href="//evil.example/i.png"></image></svg>',
  '<svg><image src="data:image/png;base64,AAAA"></image></svg>',
  '<svg><image href="https://ok.example/i.png" onerror="window.__pwned=1"></image></svg>',
  '<svg><feImage xlink:href="http://evil.example/f.png"></feImage></svg>',
  '<svg><tref xlink:href="https://evil.example/t.svg#t"></tref></svg>',
  '<svg><mpath href="https://evil.example/m.svg#m"></mpath></svg>',
  '<svg><cursor xlink:href="https://evil.example/c.svg"></cursor></svg>',
  '<svg><font-face-uri xlink:href="https://evil.example/f.svg"></font-face-uri></svg>',
  '<svg><foreignObject><a href="javascript:window.__pwned=1">fo</a></foreignObject></svg>',
  '<svg><a xml:base="javascript:window.__pwned=1//" href="x"><text>base</text></a></svg>',
  '<svg><script href="https://evil.example/s.js"></script></svg>',
  '<svg><style>@import url(https://evil.example/s.css);</style></svg>',
  '<svg><a><animate attributeName="xlink:href" values="javascript:window.__pwned=1"></animate><text>values</text></a></svg>',
  '<svg><a><animate attributeName="href" from="javascript:window.__pwned=1"></animate><text>from</text></a></svg>',
  '<svg><image HREF="data:image/svg+xml;base64,PHN2Zy8+"></image></svg>',
  '<math href="javascript:window.__pwned=1"><mi>m</mi></math>',
  '<math><maction actiontype="statusline" xlink:href="javascript:window.__pwned=1"><mi>x</mi></maction></math>',
];

function linkAttrs(root: Element): string[] {
  const out: string[] = [];
  for (const el of Array.from(root.querySelectorAll('*'))) {
    for (const a of Array.from(el.attributes)) {
      const allowed = /href$|^src$/i.test(a.name) && a.value.startsWith('https://ok.example/');
      if (!allowed && /href$|^src$|^to$|^values$|^from$|^xml:base$|^on/i.test(a.name)) out.push(`${el.nodeName.toLowerCase()} ${a.name}=${a.value}`);
    }
  }
  return out;
}

test('unseen SVG and MathML vectors keep no unsafe link, handler or script', async () => {
  for (const v of vectors) {
    const d = document.createElement('div');
    d.innerHTML = renderMarkdown(v);
    document.body.appendChild(d);
    await new Promise((r) => setTimeout(r, 5));
    expect(linkAttrs(d), v).toEqual([]);
    expect(d.querySelector('script, style, foreignObject, foreignobject'), v).toBeNull();
    d.remove();
  }
  expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
});
