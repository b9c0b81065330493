import * as l10n from '@vscode/l10n';
import { render } from 'preact';
import type { HostMessage } from '../../shared/webviewMessages';
import { restoreCaret, takeBootInput } from './boot';
import { ServicesContext } from './context';
import { installDocumentHandlers } from './docHandlers';
import './elements';
import { ChatStore } from './store';
import { App } from './ui/App';
import { Bridge } from './vscode';

export interface Mounted {
  store: ChatStore;
  bridge: Bridge;
  unmount(): void;
}

function isHostMessage(v: unknown): v is HostMessage {
  return !!v && typeof v === 'object' && typeof (v as { type?: unknown }).type === 'string';
}

/** Starts the chat view in container and tells the host it is ready. */
export function mount(container: HTMLElement, api?: ConstructorParameters<typeof Bridge>[0]): Mounted {
  // The view starts in English (the store's first language): a snapshot
  // brings another language's bundle.
  l10n.config({ contents: {} });
  const bridge = new Bridge(api);
  const store = new ChatStore({
    onGap: (sessionId, lastSeq) => bridge.post({ type: 'ready', lastSeq, sessionId }),
    onL10n: (contents) => l10n.config({ contents: contents ?? {} }),
  });
  store.subscribe(() => {
    const s = store.state;
    if (s.sessionId !== bridge.ui.sessionId || store.lastSeqFor(s.sessionId) !== bridge.ui.lastSeq) {
      bridge.update({ sessionId: s.sessionId, lastSeq: store.lastSeqFor(s.sessionId) });
    }
  });
  let painted = false;
  const onMessage = (e: MessageEvent) => {
    if (!isHostMessage(e.data)) return;
    const first = !painted && e.data.type === 'snapshot' && !!e.data.session;
    if (first) {
      painted = true;
      performance.mark('govibe/snapshot');
    }
    store.apply(e.data);
    if (first) requestAnimationFrame(() => performance.mark('govibe/painted'));
  };
  window.addEventListener('message', onMessage);
  const removeHandlers = installDocumentHandlers(container.ownerDocument, bridge);
  // What was typed into the page's own composer while the script loaded.
  const boot = takeBootInput(container.ownerDocument);
  if (boot) {
    bridge.update({ draft: boot.text });
    if (boot.send) store.sendOnMount();
  }
  render(
    <ServicesContext.Provider value={{ bridge, store }}>
      <App />
    </ServicesContext.Provider>,
    container,
  );
  if (boot) restoreCaret(container.querySelector<HTMLTextAreaElement>('textarea.chat-input'), boot);
  bridge.post({ type: 'ready', lastSeq: bridge.ui.lastSeq, sessionId: bridge.ui.sessionId });
  performance.mark('govibe/mounted');
  return {
    store,
    bridge,
    unmount() {
      window.removeEventListener('message', onMessage);
      removeHandlers();
      render(null, container);
    },
  };
}
