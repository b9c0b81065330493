// jsdom's ElementInternals covers ARIA only; vscode-elements' form-associated
// controls also call these members, which matter only inside a <form>.
const proto = (globalThis as unknown as { ElementInternals?: { prototype: object } }).ElementInternals?.prototype;
if (proto) {
  for (const name of ['setFormValue', 'setValidity']) {
    if (!(name in proto)) Object.defineProperty(proto, name, { value() {} });
  }
  if (!('form' in proto)) Object.defineProperty(proto, 'form', { get: () => null });
}
if (!('attachInternals' in HTMLElement.prototype)) {
  Object.defineProperty(HTMLElement.prototype, 'attachInternals', {
    value() {
      return { form: null, setFormValue() {}, setValidity() {} };
    },
  });
}

// The real page links the codicon font with this id (webviewHtml.ts);
// vscode-icon inside buttons looks it up and warns without it.
const codicons = document.createElement('link');
codicons.id = 'vscode-codicon-stylesheet';
codicons.rel = 'stylesheet';
codicons.href = 'codicon.css';
document.head.appendChild(codicons);

// Preact runs effects and their cleanups after a paint: a requestAnimationFrame
// raced by a 35 ms timer, which calls cancelAnimationFrame. A file whose last
// test unmounted a tree must let those timers fire before jsdom's globals
// are removed, or they throw "cancelAnimationFrame is not defined".
import { afterAll } from 'vitest';
afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, 100)));
