// The event reducer: folds the sidecar's chat events into the transcript
// the view renders. Each change replaces only the message objects it
// touched, so memoised message views re-render only when their own
// message changed. It keeps three indexes over the transcript (message id
// → position, tool call → message, results whose call is not loaded yet);
// the store owns when events are applied (seq order, gaps), this module
// owns what they do.
import type { ChatEvent, ContextUse, Message, ModeState, Part, SessionInfo, SubAgentRun, TodoState } from '../../src/protocol.gen';
import {
  EventCompaction,
  EventError,
  EventHook,
  EventMessage,
  EventMode,
  EventNotice,
  EventReasoningDelta,
  EventReview,
  EventRetry,
  EventNotification,
  EventSnapshots,
  EventTextDelta,
  EventTitle,
  EventTodo,
  EventToolCall,
  EventToolResult,
  EventTurnFinished,
  EventTurnStarted,
  EventUsage,
} from '../../src/protocol.gen';
import { type Block, type ToolBlock, type ViewMessage, foldMessages, fromWire, noticeLevel, withResult } from './model';
import { prependRunPage, spliceSubAgents } from './subagents';

/** The part of the view state events change. */
export interface TranscriptState {
  messages: ViewMessage[];
  running: boolean;
  runningTurnId?: string;
  interrupted: boolean;
  todo?: TodoState;
  context?: ContextUse;
  sessions: SessionInfo[];
  session?: SessionInfo;
  /** The session's working mode (agent, plan, phases, reconcile). */
  mode?: string;
  /** The mode's record for its panel (Phases progress, the reconcile run). */
  modeState?: ModeState;
}

type Result = { ok: boolean; output?: string; display?: string; durationMs?: number; meta?: unknown; status?: string };

function partResult(p: Part): Result {
  return { ok: !!p.ok, output: p.output, display: p.display, meta: p.meta, status: p.status, durationMs: p.durationMs };
}

/**
 * Not thread-safe and need not be: the webview has one JS thread. The
 * transcript passed to each method must be the one it last returned.
 */
export class EventReducer {
  /** Message id → index in the transcript; rebuilt when indices shift. */
  private index = new Map<string, number>();
  /** Tool call id → id of the message holding its card. */
  private toolHome = new Map<string, string>();
  /** Results whose call has not been seen yet (older page not loaded). */
  private orphanResults = new Map<string, Part>();
  /**
   * A message that sub-agent rows were drawn after → the row carrying
   * what it says next (see continueAfterGroups).
   */
  private tails = new Map<string, string>();
  /** The transcript being built by the current reduce call. */
  private ms: ViewMessage[] = [];

  has(id: string): boolean {
    return this.index.has(id);
  }

  /** Starts over from a snapshot's page of wire messages (and the sub-agents that ran in it). */
  reset(wire: Message[], runs?: SubAgentRun[]): ViewMessage[] {
    this.orphanResults.clear();
    this.tails.clear();
    const folded = foldMessages(wire);
    for (const o of folded.orphans) this.orphanResults.set(o.toolCallId ?? '', o);
    const messages = spliceSubAgents(folded.messages, runs, this.tails);
    this.reindex(messages);
    return messages;
  }

  /** Merges an older page in front of the transcript. */
  prepend(current: ViewMessage[], wire: Message[], runs?: SubAgentRun[]): ViewMessage[] {
    const folded = foldMessages(wire.filter((m) => !this.index.has(m.id)));
    const orphans = folded.orphans;
    const older = spliceSubAgents(folded.messages, runs, this.tails);
    const merged = [...older, ...current];
    // Results in the newer pages may belong to calls from this older page.
    const stillOrphan = new Map(this.orphanResults);
    for (const o of orphans) stillOrphan.set(o.toolCallId ?? '', o);
    const callIndex = new Map<string, number>();
    older.forEach((m, i) => m.blocks.forEach((b) => b.kind === 'tool' && callIndex.set(b.callId, i)));
    for (const [id, p] of stillOrphan) {
      const i = callIndex.get(id);
      if (i === undefined) continue;
      merged[i] = mapTool(merged[i], id, (b) => withResult(b, partResult(p)));
      stillOrphan.delete(id);
    }
    this.orphanResults = stillOrphan;
    this.reindex(merged);
    return merged;
  }

  /** Merges an older page of a sub-agent run in front of its rows. */
  prependRun(current: ViewMessage[], childId: string, beforeSeq: number, wire: Message[], hasMore: boolean): ViewMessage[] {
    const merged = prependRunPage(current, childId, beforeSeq, wire, hasMore);
    if (merged !== current) this.reindex(merged);
    return merged;
  }

  /** Removes a turn's messages (its user message and every row of the turn). */
  dropTurn(current: ViewMessage[], turnId: string): ViewMessage[] {
    const kept = current.filter((m) => m.id !== turnId && m.turnId !== turnId);
    if (kept.length === current.length) return current;
    this.reindex(kept);
    return kept;
  }

  /** Applies one event; returns the fields it changed (nothing when none). */
  reduce(s: TranscriptState, ev: ChatEvent): Partial<TranscriptState> {
    this.ms = s.messages;
    const patch: Partial<TranscriptState> = {};
    if (ev.context) patch.context = ev.context;
    switch (ev.kind) {
      case EventTurnStarted:
        patch.running = true;
        patch.runningTurnId = ev.turnId;
        patch.interrupted = false;
        // The server names the reply's message up front, so "Working…" shows at once.
        // A run resumed after a restart (a parked question answered) names
        // the message it already wrote into: that message keeps what it
        // shows (the intro, the cards before the question) and only becomes
        // pending again.
        if (ev.message && this.index.has(this.tailOf(ev.message.id))) {
          this.update(this.tailOf(ev.message.id), (m) => (m.status === 'pending' ? m : { ...m, status: 'pending' }));
        } else if (ev.message) this.upsertWire(ev);
        break;
      case EventTextDelta:
      case EventReasoningDelta: {
        const kind = ev.kind === EventTextDelta ? 'text' : 'reasoning';
        this.upsertStreaming(ev, (m) => ({ ...m, blocks: appendText(m.blocks, kind, ev.text ?? '') }));
        break;
      }
      case EventRetry:
        this.update(this.tailOf(streamId(ev)), (m) => ({ ...m, blocks: dropPartial(m.blocks) }));
        break;
      case EventToolCall:
        this.toolCall(ev);
        break;
      case EventToolResult:
        this.toolResult(ev);
        break;
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
      case EventUsage:
        if (ev.usage && ev.messageId) this.update(ev.messageId, (m) => ({ ...m, usage: ev.usage }));
        break;
      case EventTitle:
        if (ev.text !== undefined) {
          const title = ev.text;
          patch.sessions = s.sessions.map((x) => (x.id === ev.sessionId ? { ...x, title } : x));
          if (s.session) patch.session = { ...s.session, title };
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
      case EventHook:
        if (ev.hook) this.addBlock(ev, { kind: 'hook', run: ev.hook });
        break;
      case EventMode:
        // A mode switch (a bare record) or the mode's progress.
        if (ev.mode) {
          patch.mode = ev.mode.mode;
          patch.modeState = ev.mode;
        }
        break;
      case EventSnapshots:
        // The turn's before-snapshots were taken: its user message now
        // offers "Roll back to before this turn". Once the turn is rolled
        // back, it no longer does (nor after a reload: session/load leaves
        // its snapshots out).
        if (ev.messageId && ev.status === 'rolledBack') {
          this.update(ev.messageId, (m) => ({ ...m, snapshots: undefined }));
        } else if (ev.messageId && ev.snapshots) {
          const snapshots = ev.snapshots;
          this.update(ev.messageId, (m) => ({ ...m, snapshots }));
        }
        break;
      case EventNotification:
        // Shown by the host as a VS Code notification; the tool's card
        // (show_notification) is the transcript's record of it.
        break;
      default: {
        // A kind added to protocol/kinds without a case here fails to compile.
        const unhandled: never = ev.kind;
        void unhandled;
      }
    }
    if (this.ms !== s.messages) patch.messages = this.ms;
    return patch;
  }

  private toolCall(ev: ChatEvent): void {
    const t = ev.tool;
    if (!t) return;
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
      this.update(home, (m) => mapTool(m, t.callId, (b) => ({ ...b, ...card, status: b.status })));
    } else {
      const id = this.upsertStreaming(ev, (m) => ({ ...m, blocks: [...m.blocks, card] }));
      this.toolHome.set(t.callId, id);
    }
  }

  private toolResult(ev: ChatEvent): void {
    const t = ev.tool;
    if (!t) return;
    const res = { ok: t.ok, output: t.output, display: t.display, durationMs: t.durationMs, meta: t.meta, status: ev.status };
    const home = this.toolHome.get(t.callId);
    if (home) {
      this.update(home, (m) => mapTool(m, t.callId, (b) => withResult({ ...b, summary: t.summary ?? b.summary }, res)));
    } else {
      const card: ToolBlock = withResult(
        { kind: 'tool', callId: t.callId, name: t.name, args: t.arguments ?? '', summary: t.summary, status: 'running' },
        res,
      );
      const id = this.upsertStreaming(ev, (m) => ({ ...m, blocks: [...m.blocks, card] }));
      this.toolHome.set(t.callId, id);
    }
  }

  private finishTurn(turnId: string | undefined, status: string): void {
    const final = status === 'done' || status === 'max_turns' ? 'done' : status;
    let changed = false;
    const ms = this.ms.map((m) => {
      if (m.status !== 'pending' || (turnId && m.turnId && m.turnId !== turnId)) return m;
      changed = true;
      return { ...m, status: final };
    });
    if (changed) this.ms = ms;
  }

  /** Applies fn to the message the streaming event targets, creating it first. */
  private upsertStreaming(ev: ChatEvent, fn: (m: ViewMessage) => ViewMessage): string {
    let id = this.tailOf(streamId(ev));
    if (this.index.has(id)) {
      id = this.continueAfterGroups(id);
      this.update(id, fn);
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
    const target = ev.messageId && this.tailOf(ev.messageId);
    if (target && this.index.has(target)) {
      this.update(this.continueAfterGroups(target), (m) => ({ ...m, blocks: [...m.blocks, block] }));
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
    // Older sidecars tagged only the event, not the message it carries.
    if (!message.subAgentTag && ev.subAgentTag) message.subAgentTag = ev.subAgentTag;
    for (const r of results) {
      const id = r.toolCallId ?? '';
      const home = this.toolHome.get(id);
      if (home) this.update(home, (m) => mapTool(m, id, (b) => withResult(b, partResult(r))));
      else this.orphanResults.set(id, r);
    }
    if (message.blocks.length === 0 && results.length > 0) return;
    if (this.index.has(message.id)) {
      // The final form of a streamed message keeps results already folded in.
      const old = this.ms[this.index.get(message.id)!];
      const done = new Map<string, ToolBlock>();
      for (const b of old.blocks) if (b.kind === 'tool') done.set(b.callId, b);
      const blocks = message.blocks.map((b) => {
        if (b.kind !== 'tool') return b;
        const prev = done.get(b.callId);
        return prev && prev.ok !== undefined ? { ...prev, name: b.name, args: b.args || prev.args } : b;
      });
      this.update(message.id, () => ({ ...message, blocks }));
    } else {
      this.append(message);
    }
    for (const b of message.blocks) if (b.kind === 'tool') this.toolHome.set(b.callId, message.id);
  }

  /** The row that now receives what message id says (itself unless continued). */
  private tailOf(id: string): string {
    for (let next = this.tails.get(id); next; next = this.tails.get(id)) id = next;
    return id;
  }

  /**
   * The transcript shows things in the order they happened. A sub-agent
   * (investigate, a custom agent, a reconcile loop's specifier or coder)
   * streams into rows of its own, appended while the message that started
   * it stays open; what that message says afterwards (the final answer,
   * the turn's error) must come after those rows, not inside the message
   * drawn above them. So new content for a message with sub-agent rows
   * after it goes to a continuation row at the end (an empty message just
   * moves there). Returns the id to write to.
   */
  private continueAfterGroups(id: string): string {
    const i = this.index.get(id)!;
    const m = this.ms[i];
    let after = false;
    for (let j = i + 1; j < this.ms.length && !after; j++) after = isSubAgentRow(this.ms[j], m);
    if (!after) return id;
    if (m.blocks.length === 0) {
      const ms = this.ms.slice(0, i).concat(this.ms.slice(i + 1), [m]);
      this.reindex(ms);
      this.ms = ms;
      return id;
    }
    const tail: ViewMessage = { ...m, id: `${m.id}~${this.ms.length}`, seq: -1, blocks: [], usage: undefined };
    // The part above the sub-agents is finished: no "Thinking…" on it.
    this.update(id, (x) => (x.status === 'pending' ? { ...x, status: 'done' } : x));
    this.append(tail);
    this.tails.set(id, tail.id);
    return tail.id;
  }

  private append(m: ViewMessage): void {
    this.index.set(m.id, this.ms.length);
    this.ms = [...this.ms, m];
  }

  private update(id: string, fn: (m: ViewMessage) => ViewMessage): void {
    const i = this.index.get(id);
    if (i === undefined) return;
    const ms = this.ms.slice();
    ms[i] = fn(ms[i]);
    this.ms = ms;
  }

  private reindex(ms: ViewMessage[]): void {
    this.index.clear();
    this.toolHome.clear();
    ms.forEach((m, i) => {
      this.index.set(m.id, i);
      for (const b of m.blocks) if (b.kind === 'tool') this.toolHome.set(b.callId, m.id);
    });
  }
}

/** A sub-agent's row (grouped in the view) that is not part of m's own agent. */
function isSubAgentRow(r: ViewMessage, m: ViewMessage): boolean {
  return !!r.subAgentTag && r.subAgentTag !== 'free' && r.subAgentTag !== m.subAgentTag && r.turnId === m.turnId;
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
