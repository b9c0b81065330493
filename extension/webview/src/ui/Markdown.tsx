import * as l10n from '@vscode/l10n';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { renderBlocks } from '../markdown';

/** Raw source each block element was rendered from, to skip unchanged ones. */
const rendered = new WeakMap<Element, string>();

/**
 * Finished blocks parsed once into inert templates (code blocks already
 * decorated), newest use last: a row scrolled back into a long session
 * clones its blocks instead of parsing their HTML again, which is most of
 * what mounting a row cost while scrolling.
 */
const parsed = new Map<string, HTMLTemplateElement>();
const PARSED_MAX = 600;

function fragment(html: string, keep: boolean): DocumentFragment {
  let t = parsed.get(html);
  if (t) {
    parsed.delete(html);
    parsed.set(html, t);
  } else {
    t = document.createElement('template');
    t.innerHTML = html;
    decorateCode(t.content);
    if (keep) {
      parsed.set(html, t);
      if (parsed.size > PARSED_MAX) parsed.delete(parsed.keys().next().value!);
    }
  }
  return t.content.cloneNode(true) as DocumentFragment;
}

/**
 * Renders markdown into its own element, touching only blocks whose source
 * changed: during streaming that is the last block alone.
 */
export function Markdown({ text, streaming }: { text: string; streaming?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const root = ref.current;
    if (!root) return;
    const blocks = renderBlocks(text, !!streaming);
    blocks.forEach((b, i) => {
      let el = root.children[i] as HTMLElement | undefined;
      if (el && rendered.get(el) === b.raw) return;
      if (!el) {
        el = document.createElement('div');
        el.className = 'md-block';
        root.appendChild(el);
      }
      // A block still being written changes with each delta: not kept.
      el.replaceChildren(fragment(b.html, !streaming || i < blocks.length - 1));
      rendered.set(el, b.raw);
    });
    while (root.children.length > blocks.length) root.lastElementChild!.remove();
  }, [text, streaming]);
  return <div class={streaming ? 'markdown streaming' : 'markdown'} ref={ref} />;
}

/** Wraps each code block with a header carrying its language and a copy button. */
function decorateCode(el: ParentNode): void {
  for (const pre of Array.from(el.querySelectorAll('pre'))) {
    const code = pre.querySelector('code');
    const lang = /language-([\w+#.-]+)/.exec(code?.className ?? '')?.[1] ?? '';
    const wrap = document.createElement('div');
    wrap.className = 'code-block';
    const bar = document.createElement('div');
    bar.className = 'code-bar';
    const label = document.createElement('span');
    label.className = 'code-lang';
    label.textContent = lang;
    const copy = document.createElement('button');
    copy.className = 'copy-btn';
    copy.type = 'button';
    copy.title = l10n.t('Copy code');
    copy.setAttribute('aria-label', l10n.t('Copy code'));
    copy.setAttribute('data-testid', 'copy-code');
    const icon = document.createElement('span');
    icon.className = 'codicon codicon-copy';
    copy.appendChild(icon);
    bar.append(label, copy);
    pre.replaceWith(wrap);
    wrap.append(bar, pre);
  }
}
