import type { WebviewMessage } from '../../shared/webviewMessages';

/** What survives a webview reload: UI state only, never the transcript. */
export interface UiState {
  draft: string;
  scrollTop: number;
  /** Stuck to the bottom: new output keeps scrolling into view. */
  atBottom: boolean;
  /** Explicit open/closed choices for cards and groups, by key. */
  open: Record<string, boolean>;
  lastSeq?: number;
  sessionId?: string;
}

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  // Injected by VS Code into every webview; callable exactly once.
  function acquireVsCodeApi(): VsCodeApi;
}

/**
 * Bridge is the one handle on the VS Code API. It is single-threaded (the
 * webview has one JS thread), so no locking; setState writes are coalesced
 * into one per frame because scrolling would otherwise write per pixel.
 */
export class Bridge {
  private api: VsCodeApi;
  private state: UiState;
  private pending = false;

  constructor(api: VsCodeApi = acquireVsCodeApi()) {
    this.api = api;
    this.state = normalizeState(api.getState());
  }

  post(msg: WebviewMessage): void {
    this.api.postMessage(msg);
  }

  get ui(): Readonly<UiState> {
    return this.state;
  }

  update(patch: Partial<UiState>): void {
    this.state = { ...this.state, ...patch };
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.api.setState(this.state);
    });
  }

  setOpen(key: string, open: boolean): void {
    this.update({ open: { ...this.state.open, [key]: open } });
  }
}

function normalizeState(raw: unknown): UiState {
  const s = (raw && typeof raw === 'object' ? raw : {}) as Partial<UiState>;
  return {
    draft: typeof s.draft === 'string' ? s.draft : '',
    scrollTop: typeof s.scrollTop === 'number' ? s.scrollTop : 0,
    atBottom: s.atBottom !== false,
    open: s.open && typeof s.open === 'object' ? s.open : {},
    lastSeq: typeof s.lastSeq === 'number' ? s.lastSeq : undefined,
    sessionId: typeof s.sessionId === 'string' ? s.sessionId : undefined,
  };
}
