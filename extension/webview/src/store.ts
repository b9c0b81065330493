// ChatStore applies host messages to the view state as deltas: each change
// replaces only the message objects it touched, so memoised message views
// re-render only when their own message changed.
import type { HostMessage, ServerState } from '../../shared/webviewMessages';
import type {
  ChatEvent,
  ConfirmRequest,
  ContextUse,
  Part,
  SessionInfo,
  SessionLoadResult,
  TodoState,
} from '../../src/protocol.gen';
import {
  EventCompaction,
  EventError,
  EventMessage,
  EventNotice,
  EventReasoningDelta,
  EventReview,
  EventRetry,
  EventTextDelta,
  EventSnapshots,
  EventTitle,
  EventMode,
  EventTodo,
  EventToolCall,
  EventToolResult,
  EventTurnFinished,
  EventTurnStarted,
  EventUsage,
} from '../../src/protocol.gen';
import {
  type Block,
  type ToolBlock,
  type ViewMessage,
  foldMessages,
  fromWire,
  noticeLevel,
  withResult,
} from './model';

export interface ConfirmView {
  request: ConfirmRequest;
  /** Set once the user answered here; the card stays until confirmClosed. */
  resolved?: 'accept' | 'reject';
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
  /** Message id → index in s.messages; rebuilt when indices shift. */
  private index = new Map<string, number>();
  /** Tool call id → id of the message holding its card. */
  private toolHome = new Map<string, string>();
  /** Results whose call has not been seen yet (older page not loaded). */
  private orphanResults = new Map<string, Part>();
  private gapReported = false;
  private noticeId = 0;
  private l10nKey: string | undefined;

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
      case 'event':
        return this.event(msg.event);
      case 'confirm':
        if (msg.request.sessionId !== this.s.sessionId) return;
        if (this.s.confirms.some((c) => c.request.id === msg.request.id)) return;
        return this.set({ confirms: [...this.s.confirms, { request: msg.request }] });
      case 'confirmClosed':
        return this.set({ confirms: this.s.confirms.filter((c) => c.request.id !== msg.closed.id) });
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
      case 'snapshotCreated':
        return;
      case 'focusInput':
        return this.set({ focusTick: this.s.focusTick + 1 });
    }
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

  setLoadingMore(v: boolean): void {
    this.set({ loadingMore: v });
  }

  setEditEnabled(v: boolean): void {
    this.set({ editEnabled: v });
  }

  private snapshot(msg: Extract<HostMessage, { type: 'snapshot' }>): void {
    const key = msg.l10n ? JSON.stringify(msg.l10n) : '';
    let l10nVersion = this.s.l10nVersion;
    if (key !== this.l10nKey) {
      this.l10nKey = key;
      this.opts.onL10n?.(msg.l10n);
      l10nVersion++;
    }
    this.index.clear();
    this.toolHome.clear();
    this.orphanResults.clear();
    this.gapReported = false;
    const r = msg.session;
    const base: Partial<ChatState> = {
      sessions: msg.sessions,
      locale: msg.locale,
      l10nVersion,
      serverState: msg.serverState,
      editEnabled: r ? r.editEnabled : msg.editEnabled,
      loadingMore: false,
    };
    if (!r) {
      this.set({
        ...base,
        sessionId: undefined,
        session: undefined,
        messages: [],
        hasMore: false,
        running: false,
        runningTurnId: undefined,
        confirms: [],
        todo: undefined,
        context: undefined,
        interrupted: false,
      });
      return;
    }
    this.lastSeq.set(r.session.id, r.lastSeq);
    const { messages, orphans } = foldMessages(r.messages ?? []);
    for (const o of orphans) this.orphanResults.set(o.toolCallId ?? '', o);
    this.reindex(messages);
    this.set({
      ...base,
      sessionId: r.session.id,
      session: r.session,
      messages,
      hasMore: r.hasMore,
      running: !!r.runningTurnId,
      runningTurnId: r.runningTurnId,
      confirms: (r.pending ?? []).map((request) => ({ request })),
      todo: r.todo,
      context: r.context,
      interrupted: r.interrupted,
    });
  }

  private page(sessionId: string, r: SessionLoadResult): void {
    if (sessionId !== this.s.sessionId) return;
    const { messages: older, orphans } = foldMessages((r.messages ?? []).filter((m) => !this.index.has(m.id)));
    let merged = [...older, ...this.s.messages];
    // Results in the newer pages may belong to calls from this older page.
    const stillOrphan = new Map(this.orphanResults);
    for (const o of orphans) stillOrphan.set(o.toolCallId ?? '', o);
    const callIndex = new Map<string, number>();
    older.forEach((m, i) => m.blocks.forEach((b) => b.kind === 'tool' && callIndex.set(b.callId, i)));
    for (const [id, p] of stillOrphan) {
      const i = callIndex.get(id);
      if (i === undefined) continue;
      merged[i] = mapTool(merged[i], id, (b) =>
        withResult(b, { ok: !!p.ok, output: p.output, meta: p.meta, status: p.status }),
      );
      stillOrphan.delete(id);
    }
    this.orphanResults = stillOrphan;
    this.reindex(merged);
    this.set({ messages: merged, hasMore: r.hasMore, loadingMore: false });
  }

  private reindex(ms: ViewMessage[]): void {
    this.index.clear();
    this.toolHome.clear();
    ms.forEach((m, i) => {
      this.index.set(m.id, i);
      for (const b of m.blocks) if (b.kind === 'tool') this.toolHome.set(b.callId, m.id);
    });
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
    const patch: Partial<ChatState> = {};
    if (ev.context) patch.context = ev.context;
    switch (ev.kind) {
      case EventTurnStarted:
        patch.running = true;
        patch.runningTurnId = ev.turnId;
        patch.interrupted = false;
        // The server names the reply's message up front, so "Working…" shows at once.
        if (ev.message) this.upsertWire(ev);
        break;
      case EventTextDelta:
      case EventReasoningDelta: {
        const kind = ev.kind === EventTextDelta ? 'text' : 'reasoning';
        this.upsertStreaming(ev, (m) => ({ ...m, blocks: appendText(m.blocks, kind, ev.text ?? '') }));
        break;
      }
      case EventRetry:
        this.updateIfExists(streamId(ev), (m) => ({ ...m, blocks: dropPartial(m.blocks) }));
        break;
      case EventToolCall: {
        const t = ev.tool;
        if (!t) break;
        const home = this.toolHome.get(t.callId);
        const card: ToolBlock = {
          kind: 'tool',
          callId: t.callId,
          name: t.name,
          args: t.arguments ?? '',
          summary: t.summary,
          status: ev.status === 'pending' ? 'pending' : 'running',
        };
        if (home) {
          this.updateIfExists(home, (m) => mapTool(m, t.callId, (b) => ({ ...b, ...card, status: b.status })));
        } else {
          const id = this.upsertStreaming(ev, (m) => ({ ...m, blocks: [...m.blocks, card] }));
          this.toolHome.set(t.callId, id);
        }
        break;
      }
      case EventToolResult: {
        const t = ev.tool;
        if (!t) break;
        const res = { ok: t.ok, output: t.output, durationMs: t.durationMs, meta: t.meta, status: ev.status };
        const home = this.toolHome.get(t.callId);
        if (home) {
          this.updateIfExists(home, (m) =>
            mapTool(m, t.callId, (b) => withResult({ ...b, summary: t.summary ?? b.summary }, res)),
          );
        } else {
          const card: ToolBlock = withResult(
            { kind: 'tool', callId: t.callId, name: t.name, args: t.arguments ?? '', summary: t.summary, status: 'running' },
            res,
          );
          const id = this.upsertStreaming(ev, (m) => ({ ...m, blocks: [...m.blocks, card] }));
          this.toolHome.set(t.callId, id);
        }
        break;
      }
      case EventNotice:
        this.addBlock(ev, { kind: 'notice', level: noticeLevel(ev.status), text: ev.text ?? '' });
        break;
      case EventError:
        this.addBlock(ev, { kind: 'error', error: ev.error ?? { message: ev.text ?? '' } });
        break;
      case EventReview:
        if (ev.review) this.addBlock(ev, { kind: 'review', card: ev.review });
        break;
      case EventCompaction:
        if (ev.message) this.upsertWire(ev);
        else
          this.addBlock(
            { ...ev, messageId: undefined },
            { kind: 'compaction', summary: ev.text ?? '', savedTokens: ev.usage?.promptTokens },
          );
        break;
      case EventMessage:
        if (ev.message) this.upsertWire(ev);
        break;
      case EventTodo:
        patch.todo = ev.todo;
        break;
      case EventSnapshots:
        // The turn's before-snapshots were taken: its user message now
        // offers "Roll back to before this turn".
        if (ev.messageId && ev.snapshots) {
          const snapshots = ev.snapshots;
          this.updateIfExists(ev.messageId, (m) => ({ ...m, snapshots }));
        }
        break;
      case EventUsage:
        if (ev.usage && ev.messageId) this.updateIfExists(ev.messageId, (m) => ({ ...m, usage: ev.usage }));
        break;
      case EventTitle:
        if (ev.text !== undefined) {
          const title = ev.text;
          patch.sessions = this.s.sessions.map((x) => (x.id === ev.sessionId ? { ...x, title } : x));
          if (this.s.session) patch.session = { ...this.s.session, title };
        }
        break;
      case EventTurnFinished: {
        patch.running = false;
        patch.runningTurnId = undefined;
        const status = ev.status ?? 'done';
        this.finishTurn(ev.turnId, status);
        if (status === 'cancelled' || status === 'max_turns') {
          this.addBlock({ ...ev, messageId: undefined }, { kind: 'turnEnd', status });
        }
        break;
      }
      case EventMode:
        // Working-mode progress (Phases); the mode panel is not built yet.
        break;
      default: {
        // A kind added to protocol/kinds without a case here fails to compile.
        const unhandled: never = ev.kind;
        void unhandled;
      }
    }
    if (Object.keys(patch).length) this.set(patch);
  }

  private finishTurn(turnId: string | undefined, status: string): void {
    const final = status === 'done' || status === 'max_turns' ? 'done' : status;
    let changed = false;
    const ms = this.s.messages.map((m) => {
      if (m.status !== 'pending' || (turnId && m.turnId && m.turnId !== turnId)) return m;
      changed = true;
      return { ...m, status: final };
    });
    if (changed) this.set({ messages: ms });
  }

  /** Applies fn to the message the streaming event targets, creating it first. */
  private upsertStreaming(ev: ChatEvent, fn: (m: ViewMessage) => ViewMessage): string {
    const id = streamId(ev);
    if (this.index.has(id)) {
      this.updateIfExists(id, fn);
      return id;
    }
    const fresh: ViewMessage = {
      id,
      seq: -1,
      turnId: ev.turnId,
      role: 'assistant',
      status: 'pending',
      subAgentTag: ev.subAgentTag,
      btw: false,
      created: Date.now(),
      blocks: [],
    };
    this.append(fn(fresh));
    return id;
  }

  /** Adds a block to the event's message, or as a row of its own. */
  private addBlock(ev: ChatEvent, block: Block): void {
    if (ev.messageId && this.index.has(ev.messageId)) {
      this.updateIfExists(ev.messageId, (m) => ({ ...m, blocks: [...m.blocks, block] }));
      return;
    }
    this.append({
      id: `ev:${ev.seq}`,
      seq: -1,
      turnId: ev.turnId,
      role: 'event',
      status: 'done',
      subAgentTag: ev.subAgentTag,
      btw: false,
      created: Date.now(),
      blocks: [block],
    });
  }

  private upsertWire(ev: ChatEvent): void {
    const { message, results } = fromWire(ev.message!);
    for (const r of results) {
      const id = r.toolCallId ?? '';
      const home = this.toolHome.get(id);
      const res = { ok: !!r.ok, output: r.output, meta: r.meta, status: r.status };
      if (home) this.updateIfExists(home, (m) => mapTool(m, id, (b) => withResult(b, res)));
      else this.orphanResults.set(id, r);
    }
    if (message.blocks.length === 0 && results.length > 0) return;
    if (this.index.has(message.id)) {
      // The final form of a streamed message keeps results already folded in.
      const old = this.s.messages[this.index.get(message.id)!];
      const done = new Map<string, ToolBlock>();
      for (const b of old.blocks) if (b.kind === 'tool') done.set(b.callId, b);
      const blocks = message.blocks.map((b) => {
        if (b.kind !== 'tool') return b;
        const prev = done.get(b.callId);
        return prev && prev.ok !== undefined ? { ...prev, name: b.name, args: b.args || prev.args } : b;
      });
      this.updateIfExists(message.id, () => ({ ...message, blocks }));
    } else {
      this.append(message);
    }
    for (const b of message.blocks) if (b.kind === 'tool') this.toolHome.set(b.callId, message.id);
  }

  private append(m: ViewMessage): void {
    this.index.set(m.id, this.s.messages.length);
    this.set({ messages: [...this.s.messages, m] });
  }

  private updateIfExists(id: string, fn: (m: ViewMessage) => ViewMessage): void {
    const i = this.index.get(id);
    if (i === undefined) return;
    const ms = this.s.messages.slice();
    ms[i] = fn(ms[i]);
    this.set({ messages: ms });
  }
}

function streamId(ev: ChatEvent): string {
  return ev.messageId ?? `turn:${ev.turnId ?? ''}:${ev.subAgentTag ?? ''}`;
}

function appendText(blocks: Block[], kind: 'text' | 'reasoning', text: string): Block[] {
  const last = blocks[blocks.length - 1];
  if (last && last.kind === kind) {
    return [...blocks.slice(0, -1), { kind, text: last.text + text }];
  }
  return [...blocks, { kind, text }];
}

/** Drops text and reasoning streamed since the last tool call or result. */
function dropPartial(blocks: Block[]): Block[] {
  let end = blocks.length;
  while (end > 0 && (blocks[end - 1].kind === 'text' || blocks[end - 1].kind === 'reasoning')) end--;
  return blocks.slice(0, end);
}

function mapTool(m: ViewMessage, callId: string, fn: (b: ToolBlock) => ToolBlock): ViewMessage {
  return { ...m, blocks: m.blocks.map((b) => (b.kind === 'tool' && b.callId === callId ? fn(b) : b)) };
}
