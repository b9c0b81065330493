// Document-level delegation for content rendered outside Preact (markdown):
// link clicks go to the host, copy buttons copy their block's code; a tool
// card's button clicked with the mouse does not keep a focus ring.
import type { Bridge } from './vscode';

const SAFE_LINK = /^(https?:|mailto:)/i;

export function installDocumentHandlers(doc: Document, bridge: Bridge): () => void {
  const onClick = (e: MouseEvent) => {
    const target = e.target as Element | null;
    if (!target || typeof target.closest !== 'function') return;
    const copy = target.closest('.copy-btn');
    if (copy) {
      e.preventDefault();
      const code = copy.closest('.code-block')?.querySelector('pre code')?.textContent ?? '';
      void navigator.clipboard?.writeText(code).then(
        () => flash(copy),
        () => undefined,
      );
      return;
    }
    // A tool card's button (Open diff) clicked with the mouse gives its
    // focus back: vscode-button draws its focus ring on :focus, not
    // :focus-visible, so it stayed outlined after the diff opened.
    const cardButton = target.closest('.tool-card vscode-button');
    if (cardButton && e.detail > 0) {
      queueMicrotask(() => (cardButton as HTMLElement).blur());
      return;
    }
    const a = target.closest('a');
    if (!a || !a.closest('.markdown')) return;
    // The webview must never navigate itself; the host opens safe links.
    e.preventDefault();
    const href = a.getAttribute('href');
    if (href && SAFE_LINK.test(href.trim())) bridge.post({ type: 'openLink', href: href.trim() });
  };
  doc.addEventListener('click', onClick, true);
  return () => doc.removeEventListener('click', onClick, true);
}

function flash(btn: Element): void {
  const icon = btn.querySelector('.codicon');
  if (!icon) return;
  icon.classList.replace('codicon-copy', 'codicon-check');
  setTimeout(() => icon.classList.replace('codicon-check', 'codicon-copy'), 1200);
}
