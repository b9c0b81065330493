// ChatStore applies host messages to the view state: snapshots, pages,
// confirmations, notices, and chat events in seq order (a gap asks for a
// fresh snapshot). What each event does to the transcript is the
// reducer's business (reducer.ts).
import type { HostMessage, ModelStatus, ScreenshotRoot, ServerState } from '../../shared/webviewMessages';
import {
  type ChatEvent,
  type CommandInfo,
  type ConfirmRequest,
  type ContextUse,
  ClosedReplied,
  EventTurnFinished,
  type FileCompletion,
  type MCPStatusResult,
  type ModeState,
  type SessionInfo,
  type SessionLoadResult,
  type SessionSearchHit,
  type SkillInfo,
  type TodoState,
} from '../../src/protocol.gen';
import type { ViewMessage } from './model';
import { EventReducer } from './reducer';

export interface ConfirmView {
  request: ConfirmRequest;
  /** Set once the user answered here; the card stays until confirmClosed. */
  resolved?: 'accept' | 'reject';
  /**
   * A question answered with a reply (Send or a choice, not Done or
   * Cancel). When the sidecar closes it as "replied" its dialog stays,
   * showing the reply, until the agent's follow-up (same dialogId) takes
   * its place or the sidecar ends the dialog ("ended").
   */
  reply?: string;
  /** The sidecar closed the question; the card only shows the exchange. */
  closed?: boolean;
}

export interface HostNotice {
  id: number;
  level: 'info' | 'warning' | 'error';
  text: string;
  action?: string;
}

export interface ChatState {
  sessionId?: string;
  session?: SessionInfo;
  sessions: SessionInfo[];
  messages: ViewMessage[];
  hasMore: boolean;
  loadingMore: boolean;
  running: boolean;
  runningTurnId?: string;
  confirms: ConfirmView[];
  todo?: TodoState;
  context?: ContextUse;
  /** The session's working mode and its panel's record. */
  mode?: string;
  modeState?: ModeState;
  editEnabled: boolean;
  interrupted: boolean;
  serverState: ServerState;
  serverDetail?: string;
  notices: HostNotice[];
  locale: string;
  /** Bumped when a new l10n bundle is loaded, to re-render every string. */
  l10nVersion: number;
  /** Bumped by the host's focusInput. */
  focusTick: number;
  /** Bumped by each send, so the transcript scrolls to the new turn. */
  sendTick: number;
  /** Enter was pressed in the page's composer before the view mounted: the composer sends what it adopted. */
  sendOnMount?: boolean;
  /** Text an example of the empty chat puts in the input (tick: each pick). */
  prefill?: { text: string; tick: number };
  /** The active model and its key/endpoint status, from the host. */
  model?: ModelStatus;
  /** The workspace the session list belongs to. */
  workspace?: string;
  /** Where browser screenshots are shown inline from (the snapshot's). */
  screenshots?: ScreenshotRoot;
  /** Where MCP tool images are shown inline from (the snapshot's). */
  mcpImages?: ScreenshotRoot;
  /** The latest full-text search answer for the history menu. */
  search?: { query: string; hits: SessionSearchHit[] };
  /** Answers to the chat input's lookups, tagged with their request number. */
  commands?: { reqId: number; list: CommandInfo[] };
  files?: { reqId: number; items: FileCompletion[]; partial: boolean };
  /** The skill catalog with the session's active skills (skills picker). */
  skills?: SkillInfo[];
  skillsError?: string;
  /** The MCP status view: open or not, and the last status (or error). */
  mcpOpen: boolean;
  mcp?: { status?: MCPStatusResult; error?: string };
}

export interface StoreOptions {
  /** Called when an event arrives past a gap: the view needs a fresh snapshot. */
  onGap?: (sessionId: string, lastSeq: number) => void;
  /** Called with each l10n bundle a snapshot carries. */
  onL10n?: (contents: Record<string, string> | undefined) => void;
}

const initial: ChatState = {
  sessions: [],
  messages: [],
  hasMore: false,
  loadingMore: false,
  running: false,
  confirms: [],
  editEnabled: false,
  interrupted: false,
  serverState: 'starting',
  notices: [],
  locale: 'en',
  l10nVersion: 0,
  focusTick: 0,
  sendTick: 0,
  mcpOpen: false,
};

/**
 * The webview's single source of UI truth. Not thread-safe and need not be:
 * the webview has one JS thread and messages arrive as separate tasks.
 */
export class ChatStore {
  private s: ChatState = initial;
  private listeners = new Set<() => void>();
  /** Last applied event seq per session. */
  private lastSeq = new Map<string, number>();
  private reducer = new EventReducer();
  private gapReported = false;
  private noticeId = 0;
  // '' is English (no bundle): a first snapshot in English changes nothing,
  // so the view is not rebuilt under the user's fingers as it arrives.
  private l10nKey = '';

  constructor(private opts: StoreOptions = {}) {}

  get state(): ChatState {
    return this.s;
  }

  lastSeqFor(sessionId: string | undefined): number | undefined {
    return sessionId ? this.lastSeq.get(sessionId) : undefined;
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private set(patch: Partial<ChatState>): void {
    this.s = { ...this.s, ...patch };
    for (const fn of this.listeners) fn();
  }

  apply(msg: HostMessage): void {
    switch (msg.type) {
      case 'snapshot':
        return this.snapshot(msg);
      case 'page':
        return this.page(msg.sessionId, msg.result);
      case 'subAgentPage':
        if (msg.sessionId !== this.s.sessionId) return;
        return this.set({ messages: this.reducer.prependRun(this.s.messages, msg.childId, msg.beforeSeq, msg.result.messages ?? [], msg.result.hasMore) });
      case 'event':
        return this.event(msg.event);
      case 'confirm':
        if (msg.request.sessionId !== this.s.sessionId) return;
        if (this.s.confirms.some((c) => c.request.id === msg.request.id)) return;
        // The agent's next question takes the place of the answered one.
        return this.set({ confirms: [...this.s.confirms.filter((c) => !c.closed), { request: msg.request }] });
      case 'confirmClosed':
        // The sidecar decides whether the dialog stays: only "replied"
        // keeps the card; "ended", "resolved" and "cancelled" remove it.
        return this.set({
          confirms: this.s.confirms.flatMap((c) =>
            c.request.id !== msg.closed.id ? [c] : msg.closed.reason === ClosedReplied ? [{ ...c, reply: c.reply ?? '', closed: true }] : [],
          ),
        });
      case 'sessions': {
        const cur = msg.sessions.find((x) => x.id === this.s.sessionId);
        return this.set({ sessions: msg.sessions, session: cur ?? this.s.session });
      }
      case 'serverState':
        return this.set({ serverState: msg.state, serverDetail: msg.detail });
      case 'notice':
        return this.set({
          notices: [...this.s.notices, { id: ++this.noticeId, level: msg.level, text: msg.text, action: msg.action }],
        });
      case 'withdrawNotices':
        return this.set({ notices: this.s.notices.filter((n) => n.action !== msg.action) });
      case 'snapshotCreated':
        return;
      case 'focusInput':
        return this.set({ focusTick: this.s.focusTick + 1 });
      case 'model':
        return this.set({ model: msg.status });
      case 'searchResults':
        return this.set({ search: { query: msg.query, hits: msg.hits } });
      // Answers to the composer's asks may overtake each other (the host
      // and the sidecar answer concurrently); request ids only grow, so an
      // answer older than the one kept is dropped rather than replacing it.
      case 'commands':
        if (this.s.commands && msg.reqId < this.s.commands.reqId) return;
        return this.set({ commands: { reqId: msg.reqId, list: msg.commands } });
      case 'files':
        if (this.s.files && msg.reqId < this.s.files.reqId) return;
        return this.set({ files: { reqId: msg.reqId, items: msg.items, partial: msg.partial } });
      case 'skills':
        return this.set({ skills: msg.skills, skillsError: msg.error });
      case 'mcp':
        return this.set({ mcp: { status: msg.status, error: msg.error } });
      case 'showMcp':
        return this.set({ mcpOpen: true });
    }
  }

  setMcpOpen(open: boolean): void {
    this.set({ mcpOpen: open });
  }

  dismissNotice(id: number): void {
    this.set({ notices: this.s.notices.filter((n) => n.id !== id) });
  }

  /** Records the user's answer so the card shows it until the host closes it. */
  markResolved(id: string, decision: 'accept' | 'reject'): void {
    this.set({
      confirms: this.s.confirms.map((c) => (c.request.id === id ? { ...c, resolved: decision } : c)),
    });
  }

  /** The user replied to a question (Send or a choice): its dialog stays after it closes. */
  markReplied(id: string, reply: string): void {
    this.set({ confirms: this.s.confirms.map((c) => (c.request.id === id ? { ...c, reply } : c)) });
  }

  /** Puts text in the chat input for the user to edit or send. */
  prefill(text: string): void {
    this.set({ prefill: { text, tick: (this.s.prefill?.tick ?? 0) + 1 } });
  }

  /** A Retry replaces the failed turn: its messages leave the transcript at once. */
  dropTurn(turnId: string): void {
    this.set({ messages: this.reducer.dropTurn(this.s.messages, turnId) });
  }

  /** Asks the composer to send what it holds as it mounts (boot.ts). */
  sendOnMount(): void {
    this.set({ sendOnMount: true });
  }

  /** The user sent a message: the transcript follows the new turn again. */
  markSent(): void {
    this.set({ sendTick: this.s.sendTick + 1, sendOnMount: false });
  }

  setLoadingMore(v: boolean): void {
    this.set({ loadingMore: v });
  }

  setEditEnabled(v: boolean): void {
    this.set({ editEnabled: v });
  }

  /** The picker's choice, shown at once; the sidecar's mode event confirms it. */
  setMode(mode: string): void {
    this.set({ mode, modeState: { mode, state: '', step: 0 } });
  }

  /**
   * The user clicked New chat: the view empties at once, so what they type
   * next is not shown under, nor sent to, the chat they left (a send with no
   * session goes to the new chat once the host has made it).
   */
  startNewChat(): void {
    this.clearSession();
  }

  private clearSession(patch: Partial<ChatState> = {}): void {
    this.reducer.reset([]);
    this.set({
      ...patch,
      sessionId: undefined,
      session: undefined,
      messages: [],
      hasMore: false,
      running: false,
      runningTurnId: undefined,
      confirms: [],
      todo: undefined,
      context: undefined,
      // A new chat starts in the default mode unless one is picked first.
      mode: this.s.sessionId === undefined && this.s.mode ? this.s.mode : 'agent',
      modeState: undefined,
      interrupted: false,
    });
  }

  private snapshot(msg: Extract<HostMessage, { type: 'snapshot' }>): void {
    const key = msg.l10n ? JSON.stringify(msg.l10n) : '';
    let l10nVersion = this.s.l10nVersion;
    if (key !== this.l10nKey) {
      this.l10nKey = key;
      this.opts.onL10n?.(msg.l10n);
      l10nVersion++;
    }
    this.gapReported = false;
    const r = msg.session;
    const base: Partial<ChatState> = {
      sessions: msg.sessions,
      locale: msg.locale,
      l10nVersion,
      serverState: msg.serverState,
      editEnabled: r ? r.editEnabled : msg.editEnabled,
      loadingMore: false,
      workspace: msg.workspace,
      screenshots: msg.screenshots,
      mcpImages: msg.mcpImages,
    };
    if (!r) {
      this.clearSession(base);
      return;
    }
    this.lastSeq.set(r.session.id, r.lastSeq);
    const messages = this.reducer.reset(r.messages ?? [], r.subAgents);
    this.set({
      ...base,
      sessionId: r.session.id,
      session: r.session,
      messages,
      hasMore: r.hasMore,
      running: !!r.runningTurnId,
      runningTurnId: r.runningTurnId,
      // Dialogs the user replied in that wait for the agent come back too.
      confirms: [
        ...(r.dialogs ?? []).map((d) => ({ request: d.question, reply: d.reply, closed: true })),
        ...(r.pending ?? []).map((request) => ({ request })),
      ],
      todo: r.todo,
      context: r.context,
      mode: r.mode || 'agent',
      modeState: r.modeState,
      interrupted: r.interrupted,
    });
  }

  private page(sessionId: string, r: SessionLoadResult): void {
    if (sessionId !== this.s.sessionId) return;
    const merged = this.reducer.prepend(this.s.messages, r.messages ?? [], r.subAgents);
    this.set({ messages: merged, hasMore: r.hasMore, loadingMore: false });
  }

  private event(ev: ChatEvent): void {
    if (!this.s.sessionId || ev.sessionId !== this.s.sessionId) return;
    const last = this.lastSeq.get(ev.sessionId) ?? 0;
    if (ev.seq <= last) return;
    if (ev.seq > last + 1 && !this.gapReported) {
      // Deltas were lost; applying later ones would garble text, so ask for
      // a fresh snapshot and keep what we have until it comes.
      this.gapReported = true;
      this.opts.onGap?.(ev.sessionId, last);
      return;
    }
    if (this.gapReported) return;
    this.lastSeq.set(ev.sessionId, ev.seq);
    this.applyEvent(ev);
  }

  private applyEvent(ev: ChatEvent): void {
    const patch: Partial<ChatState> = this.reducer.reduce(this.s, ev);
    // A question dialog kept open after a reply ends with its turn.
    if (ev.kind === EventTurnFinished && this.s.confirms.some((c) => c.closed)) {
      patch.confirms = this.s.confirms.filter((c) => !c.closed);
    }
    if (Object.keys(patch).length) this.set(patch);
  }
}
