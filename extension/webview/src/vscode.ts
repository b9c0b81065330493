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
  /** The session scrollTop/atBottom were saved in. */
  scrollSession?: string;
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

/** Trailing delay of coalesced state writes while scrolling. */
export const SAVE_DEBOUNCE_MS = 150;

/**
 * Bridge is the one handle on the VS Code API. It is single-threaded (the
 * webview has one JS thread), so no locking. setState writes are debounced
 * (scrolling would otherwise write per pixel), but the newest state is
 * always written within SAVE_DEBOUNCE_MS, and at once when the page is
 * hidden or unloaded: a reload must get back the last position reported,
 * not an older one.
 */
export class Bridge {
  private api: VsCodeApi;
  private state: UiState;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private dirty = false;

  constructor(api: VsCodeApi = acquireVsCodeApi()) {
    this.api = api;
    this.state = normalizeState(api.getState());
    if (typeof document !== 'undefined') {
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'hidden') this.flush();
      });
      window.addEventListener('pagehide', () => this.flush());
    }
  }

  /** Writes pending state now. */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return;
    this.dirty = false;
    this.api.setState(this.state);
  }

  post(msg: WebviewMessage): void {
    this.api.postMessage(msg);
  }

  get ui(): Readonly<UiState> {
    return this.state;
  }

  update(patch: Partial<UiState>): void {
    this.state = { ...this.state, ...patch };
    this.dirty = true;
    if (this.timer === undefined) this.timer = setTimeout(() => this.flush(), SAVE_DEBOUNCE_MS);
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
    scrollSession: typeof s.scrollSession === 'string' ? s.scrollSession : undefined,
  };
}
