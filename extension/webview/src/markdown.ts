// Markdown → sanitised HTML, block by block. A streamed reply only changes
// its last block, so earlier blocks come from the cache and only the tail
// is parsed, highlighted and sanitised again.
import DOMPurify from 'dompurify';
import { Marked, type Token, type Tokens } from 'marked';
import { escapeHtml, highlight } from './highlight';

const SAFE_LINK = /^(https?:|mailto:)/i;
const SAFE_IMG = /^https:/i;

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }: Tokens.Code): string {
      const name = (lang ?? '').trim().split(/\s+/)[0];
      const cls = name.replace(/[^\w+#.-]/g, '');
      return `<pre><code class="hljs${cls ? ` language-${cls}` : ''}">${highlight(text, name)}</code></pre>`;
    },
  },
});

let hooked = false;

function installHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    const el = node as Element;
    if (typeof el.getAttribute !== 'function') return;
    // HTML tag names are upper case, SVG ones keep their case ("a",
    // "image", "feImage"): compare lower-cased, or SVG links slip through.
    const tag = el.nodeName.toLowerCase();
    const inSvg = el.namespaceURI === SVG_NS;
    el.removeAttribute('target');
    if (tag === 'a') {
      // Only web and mail links may be followed (and only through the host);
      // relative, javascript:, data:, command: and vscode: links stay as text.
      keepIf(el, 'href', SAFE_LINK);
    } else if (tag === 'img' || tag === 'image' || tag === 'feimage') {
      // Both attributes, whatever the namespace: an SVG <image src> is
      // inert in browsers today, but no data: URL should leave the
      // sanitizer on any image.
      keepIf(el, 'src', SAFE_IMG);
      keepIf(el, 'href', SAFE_IMG);
    } else if (inSvg) {
      // <use>, <textPath>, <animate>, <set>, <pattern>, gradients and
      // filters may all point elsewhere; nothing in a reply needs that.
      el.removeAttribute('href');
    }
    // xlink:href is forbidden outright, in case the config ever changes.
    el.removeAttributeNS(XLINK_NS, 'href');
    el.removeAttribute('xlink:href');
  });
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

function keepIf(el: Element, attr: string, safe: RegExp): void {
  const v = el.getAttribute(attr);
  if (v !== null && !safe.test(v.trim())) el.removeAttribute(attr);
}

export function sanitize(html: string): string {
  installHooks();
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'link', 'meta', 'base'],
    FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'xlink:href'],
    ALLOW_DATA_ATTR: false,
  });
}

/**
 * Closes a code fence the stream has opened but not yet closed, so the
 * partial block renders as code instead of flipping the rest into prose.
 */
export function closeOpenFence(text: string): string {
  let open: { ch: string; len: number } | null = null;
  for (const line of text.split('\n')) {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!m) continue;
    const fence = m[1];
    if (!open) {
      // A backtick fence's info string cannot contain backticks.
      if (fence[0] === '`' && m[2].includes('`')) continue;
      open = { ch: fence[0], len: fence.length };
    } else if (fence[0] === open.ch && fence.length >= open.len && m[2].trim() === '') {
      open = null;
    }
  }
  if (!open) return text;
  return `${text}${text.endsWith('\n') ? '' : '\n'}${open.ch.repeat(open.len)}\n`;
}

export interface RenderedBlock {
  /** Stable within one text: the block's position. */
  key: number;
  raw: string;
  html: string;
}

const cache = new Map<string, string>();
const CACHE_MAX = 2000;

function cached(raw: string, render: () => string): string {
  const hit = cache.get(raw);
  if (hit !== undefined) return hit;
  const html = render();
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(raw, html);
  return html;
}

/**
 * Finished texts whole, so a message scrolled out of the virtual list and
 * back in is not lexed again (its blocks would come from `cache`, but the
 * lexer runs over the whole text first).
 */
const finished = new Map<string, RenderedBlock[]>();
const FINISHED_MAX = 500;

/** Renders markdown as a list of independently sanitised top-level blocks. */
export function renderBlocks(text: string, streaming: boolean): RenderedBlock[] {
  if (streaming) return lexAndRender(text, true);
  const hit = finished.get(text);
  if (hit) {
    // Most recently used last, so the oldest is dropped first.
    finished.delete(text);
    finished.set(text, hit);
    return hit;
  }
  const out = lexAndRender(text, false);
  if (finished.size >= FINISHED_MAX) finished.delete(finished.keys().next().value!);
  finished.set(text, out);
  return out;
}

function lexAndRender(text: string, streaming: boolean): RenderedBlock[] {
  const src = streaming ? closeOpenFence(text) : text;
  const tokens = marked.lexer(src);
  const links = tokens.links;
  const hasRefs = Object.keys(links).length > 0;
  const out: RenderedBlock[] = [];
  tokens.forEach((tok: Token) => {
    if (tok.type === 'space') return;
    const one = Object.assign([tok], { links }) as unknown as Token[];
    const render = () => sanitize(marked.parser(one) as string);
    // Reference-style links resolve against the whole text, so such blocks
    // are not cached by their raw source alone.
    const html = hasRefs ? render() : cached(tok.raw, render);
    out.push({ key: out.length, raw: tok.raw, html });
  });
  return out;
}

/** Renders a whole markdown text to one sanitised HTML string. */
export function renderMarkdown(text: string): string {
  return renderBlocks(text, false)
    .map((b) => b.html)
    .join('');
}

export { escapeHtml };

/** Elements after whose text a space keeps words apart in plainText. */
const BLOCKS = 'p,li,h1,h2,h3,h4,h5,h6,pre,blockquote,tr,td,th,br,div,hr';

/**
 * Markdown as one line of plain text ("**Which** db?" → "Which db?"), for
 * places where a rendered block cannot go (a card's one-line summary). It
 * goes through the same parser and sanitiser as the chat, so what it shows
 * is what the rendered text says; DOMParser loads nothing it parses.
 */
export function plainText(md: string): string {
  const doc = new DOMParser().parseFromString(renderMarkdown(md), 'text/html');
  for (const el of Array.from(doc.body.querySelectorAll(BLOCKS))) el.after(doc.createTextNode(' '));
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * A search snippet as a person reads it: the stored message is Markdown,
 * and the snippet a window cut out of it, so markers may be unbalanced at
 * its edges. It is rendered to plain text, and the backticks and bold
 * markers the cut left unpaired are dropped.
 */
export function snippetText(md: string): string {
  return plainText(md).replace(/`+/g, '').replace(/\*\*|__/g, '');
}
