// The view model: wire messages folded into blocks the UI renders. Tool
// results are merged into their calls so one card shows both, wherever the
// server stored the result.
import type { Attachment, ErrorInfo, HookRun, Message, Part, ReviewCard, TurnSnapshot, Usage } from '../../src/protocol.gen';
import { declinedOf, withheldOf } from './toolMeta';

/**
 * 'declined': the user said no; a choice, not a failure. 'withheld': the
 * mode (or the agent's role) does not run this tool; not a failure either.
 */
export type ToolStatus = 'pending' | 'running' | 'done' | 'error' | 'cancelled' | 'declined' | 'withheld';
export type NoticeLevel = 'info' | 'warn' | 'error';

export interface ToolBlock {
  kind: 'tool';
  callId: string;
  name: string;
  args: string;
  summary?: string;
  status: ToolStatus;
  ok?: boolean;
  output?: string;
  /** A refusal translated for people; shown instead of the model-facing output. */
  display?: string;
  durationMs?: number;
  meta?: unknown;
}

/** What a compaction re-sent word for word after its summary (the wire's meta.kept). */
export interface KeptCounts {
  request?: boolean;
  todos?: number;
  todosDone?: number;
  decisions?: number;
}

export interface CompactionBlock {
  kind: 'compaction';
  summary: string;
  savedTokens?: number;
  /** How many messages the summary replaced. */
  summarised?: number;
  kept?: KeptCounts;
  /** The kept block as the model reads it. */
  keptText?: string;
}

export type Block =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  | ToolBlock
  | { kind: 'notice'; level: NoticeLevel; text: string }
  | { kind: 'hook'; run: HookRun }
  | { kind: 'error'; error: ErrorInfo }
  | { kind: 'review'; card: ReviewCard }
  | CompactionBlock
  | { kind: 'turnEnd'; status: string };

export interface ViewMessage {
  id: string;
  /** Message seq from the server, or -1 for one assembled from deltas. */
  seq: number;
  turnId?: string;
  role: string;
  status: string;
  subAgentTag?: string;
  btw: boolean;
  created: number;
  blocks: Block[];
  usage?: Usage;
  /** On a user message: the snapshots holding the workspace as before its turn. */
  snapshots?: TurnSnapshot[];
  /** On a user message: what its @mentions attached, and the context files sent with it. */
  attachments?: Attachment[];
  contextFiles?: string[];
  /** On a user message the engine wrote: who (plan-final, control...); never shown as the user's words. */
  origin?: string;
  /**
   * On the first row of a reopened sub-agent run that has older messages
   * not loaded: its child session, the seq to page before, and how many.
   */
  more?: { childId: string; beforeSeq: number; earlier: number };
  /** On the first row of a sub-agent group: the key its open state is kept under, when not its id (older rows were paged in front). */
  groupKey?: string;
}

export function noticeLevel(s: string | undefined): NoticeLevel {
  if (s === 'warn' || s === 'warning') return 'warn';
  if (s === 'error') return 'error';
  return 'info';
}

function toolStatus(s: string | undefined, ok?: boolean): ToolStatus {
  switch (s) {
    case 'pending':
    case 'running':
    case 'done':
    case 'error':
    case 'cancelled':
      return s;
  }
  if (ok === undefined) return 'running';
  return ok ? 'done' : 'error';
}

export function toolBlockFromCall(p: Part): ToolBlock {
  return {
    kind: 'tool',
    callId: p.toolCallId ?? '',
    name: p.name ?? '',
    args: p.arguments ?? '',
    status: toolStatus(p.status),
  };
}

/** Folds a result into its card; the result's own status wins. */
export function withResult(
  b: ToolBlock,
  r: { ok: boolean; output?: string; display?: string; durationMs?: number; meta?: unknown; status?: string },
): ToolBlock {
  const meta = r.meta ?? b.meta;
  let status: ToolStatus = r.status ? toolStatus(r.status, r.ok) : r.ok ? 'done' : 'error';
  if (status === 'error' && declinedOf(meta)) status = 'declined';
  if (status === 'error' && withheldOf(meta)) status = 'withheld';
  return {
    ...b,
    ok: r.ok,
    output: r.output ?? b.output,
    display: r.display ?? b.display,
    durationMs: r.durationMs ?? b.durationMs,
    meta,
    status,
  };
}

function isCompaction(m: Message): boolean {
  return m.role === 'event' && m.parts.some((p) => metaKind(p.meta) === 'compaction');
}

function metaKind(meta: unknown): string | undefined {
  if (meta && typeof meta === 'object' && 'kind' in meta) {
    const k = (meta as { kind: unknown }).kind;
    return typeof k === 'string' ? k : undefined;
  }
  return undefined;
}

/**
 * Reads a divider: its notice's meta (saved tokens, messages summarised,
 * what was kept), then its text parts, the summary and, when the
 * compaction kept anything, the kept block.
 */
function compactionBlock(m: Message): CompactionBlock {
  const block: CompactionBlock = { kind: 'compaction', summary: '' };
  for (const p of m.parts) {
    const meta = p.meta as { savedTokens?: unknown; summarisedMessages?: unknown; kept?: unknown } | undefined;
    if (!meta || metaKind(meta) !== 'compaction') continue;
    if (typeof meta.savedTokens === 'number') block.savedTokens = meta.savedTokens;
    if (typeof meta.summarisedMessages === 'number') block.summarised = meta.summarisedMessages;
    if (meta.kept && typeof meta.kept === 'object') block.kept = meta.kept as KeptCounts;
  }
  const texts = m.parts.filter((p) => p.type === 'text').map((p) => p.text ?? '');
  block.summary = texts[0] ?? '';
  if (texts.length > 1) block.keptText = texts.slice(1).join('\n');
  return block;
}

/**
 * Converts one wire message. Tool results are returned separately: the
 * caller folds them into whichever message holds the matching call.
 */
export function fromWire(m: Message): { message: ViewMessage; results: Part[] } {
  const results: Part[] = [];
  const blocks: Block[] = [];
  if (isCompaction(m)) {
    blocks.push(compactionBlock(m));
  } else {
    for (const p of m.parts) {
      switch (p.type) {
        case 'text':
        case 'reasoning':
          if (p.text) blocks.push({ kind: p.type, text: p.text });
          break;
        case 'tool_call':
          blocks.push(toolBlockFromCall(p));
          break;
        case 'tool_result':
          results.push(p);
          break;
        case 'notice':
          blocks.push({ kind: 'notice', level: noticeLevel(p.level), text: p.text ?? '' });
          break;
      }
    }
  }
  return {
    message: {
      id: m.id,
      seq: m.seq,
      turnId: m.turnId,
      role: m.role,
      status: m.status,
      subAgentTag: m.subAgentTag,
      btw: !!m.btw,
      created: m.created,
      blocks,
      usage: m.usage,
      snapshots: m.snapshots,
      attachments: m.attachments,
      contextFiles: m.contextFiles,
      origin: m.origin || undefined,
    },
    results,
  };
}

/**
 * Converts a page of wire messages, folding results into calls from the
 * same page; results whose call is elsewhere come back in `orphans`.
 */
export function foldMessages(ms: Message[]): { messages: ViewMessage[]; orphans: Part[] } {
  const out: ViewMessage[] = [];
  const where = new Map<string, number>();
  const orphans: Part[] = [];
  const pending: Part[] = [];
  for (const m of ms) {
    const { message, results } = fromWire(m);
    message.blocks.forEach((b) => {
      if (b.kind === 'tool') where.set(b.callId, out.length);
    });
    pending.push(...results);
    // A tool message that only carries results has nothing of its own to show.
    if (message.blocks.length > 0 || results.length === 0) out.push(message);
  }
  for (const r of pending) {
    const i = where.get(r.toolCallId ?? '');
    if (i === undefined) {
      orphans.push(r);
      continue;
    }
    const m = out[i];
    out[i] = {
      ...m,
      blocks: m.blocks.map((b) =>
        b.kind === 'tool' && b.callId === r.toolCallId
          ? withResult(b, { ok: !!r.ok, output: r.output, display: r.display, meta: r.meta, status: r.status, durationMs: r.durationMs })
          : b,
      ),
    };
  }
  return { messages: out, orphans };
}

export function toolCount(m: ViewMessage): number {
  let n = 0;
  for (const b of m.blocks) if (b.kind === 'tool') n++;
  return n;
}
