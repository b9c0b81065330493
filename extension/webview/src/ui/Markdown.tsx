import * as l10n from '@vscode/l10n';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { renderBlocks } from '../markdown';

/** Raw source each block element was rendered from, to skip unchanged ones. */
const rendered = new WeakMap<Element, string>();

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
      el.innerHTML = b.html;
      decorateCode(el);
      rendered.set(el, b.raw);
    });
    while (root.children.length > blocks.length) root.lastElementChild!.remove();
  }, [text, streaming]);
  return <div class={streaming ? 'markdown streaming' : 'markdown'} ref={ref} />;
}

/** Wraps each code block with a header carrying its language and a copy button. */
function decorateCode(el: HTMLElement): void {
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
