import type { HostMessage, WebviewMessage } from '../../shared/webviewMessages';
import type { ChatEvent, Message, SessionLoadResult } from '../../src/protocol.gen';
import { type Mounted, mount } from '../src/mount';

export interface Harness extends Mounted {
  root: HTMLElement;
  posted: WebviewMessage[];
  savedState: () => unknown;
  host(msg: HostMessage): Promise<void>;
  q<T extends Element = HTMLElement>(testid: string): T | null;
  qa<T extends Element = HTMLElement>(testid: string): T[];
}

/**
 * Lets Preact's batched renders and effects run: the app renders once per
 * animation frame, and effects run after the frame that rendered them.
 */
export async function flush(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 0));
  }
  for (let i = 0; i < 2; i++) {
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
    await new Promise((r) => setTimeout(r, 0));
  }
}

/** beforeMount: what the page holds besides the root before the script runs (boot.test.ts). */
export async function start(initialState?: unknown, beforeMount?: (doc: Document) => void): Promise<Harness> {
  document.body.innerHTML = '';
  const root = document.createElement('div');
  document.body.appendChild(root);
  beforeMount?.(document);
  const posted: WebviewMessage[] = [];
  let state = initialState;
  const api = {
    postMessage: (m: unknown) => posted.push(m as WebviewMessage),
    getState: () => state,
    setState: (s: unknown) => {
      state = s;
    },
  };
  const m = mount(root, api);
  await flush();
  return {
    ...m,
    root,
    posted,
    savedState: () => state,
    async host(msg) {
      window.dispatchEvent(new MessageEvent('message', { data: msg }));
      await flush();
    },
    q: (id) => root.querySelector(`[data-testid="${id}"]`),
    qa: (id) => Array.from(root.querySelectorAll(`[data-testid="${id}"]`)),
  };
}

export const SID = 's1';

export function message(p: Partial<Message> & { id: string }): Message {
  return {
    sessionId: SID,
    seq: 1,
    role: 'assistant',
    status: 'done',
    parts: [],
    created: 0,
    ...p,
  };
}

export function load(over: Partial<SessionLoadResult> = {}): SessionLoadResult {
  return {
    session: { id: SID, title: 'Fix the parser', created: 0, updated: 0, model: 'm', messageCount: 0, status: 'idle', running: false },
    messages: [],
    hasMore: false,
    lastSeq: 10,
    pending: [],
    editEnabled: false,
    interrupted: false,
    mode: 'agent',
    ...over,
  };
}

export function snapshot(over: Partial<SessionLoadResult> = {}, extra: Partial<Extract<HostMessage, { type: 'snapshot' }>> = {}): HostMessage {
  const session = load(over);
  return {
    type: 'snapshot',
    session,
    sessions: [session.session],
    l10n: undefined,
    locale: 'en',
    serverState: 'ready',
    editEnabled: false,
    ...extra,
  };
}

let seq = 10;
export function resetSeq(n = 10): void {
  seq = n;
}

/** An event with the next seq for SID. */
export function ev(p: Partial<ChatEvent> & { kind: string }): HostMessage {
  return { type: 'event', event: { sessionId: SID, seq: ++seq, turnId: 't1', ...p } };
}

export function typeInto(el: HTMLTextAreaElement | HTMLInputElement, value: string): void {
  el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

export function key(el: Element, k: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const e = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init });
  el.dispatchEvent(e);
  return e;
}

/** Opens the header's mode menu and picks m. */
export async function pickMode(h: Harness, m: string): Promise<void> {
  h.q('mode-picker')!.click();
  await flush();
  h.qa('mode-option').find((o) => o.dataset.mode === m)!.click();
  await flush();
}
