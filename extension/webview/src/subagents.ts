// Sub-agent groups of a reopened session. Live, a sub-agent's rows are
// appended while the message that called it stays open, and what that
// message says afterwards moves to a continuation row after them
// (reducer.ts continueAfterGroups). Its messages live in a hidden child
// session, so session/load returns them apart (SessionLoadResult.subAgents,
// each anchored at the parent message and tool call that started it);
// this puts them back where they ran, split the same way.
import type { Message, SubAgentRun } from '../../src/protocol.gen';
import { type ViewMessage, foldMessages } from './model';

/**
 * Inserts each run's rows after its call in its anchor message. The part
 * of the anchor after the call becomes a continuation row (id in
 * `tails`, anchor id → row id), so later runs of the same message and live
 * events find it. Runs whose anchor is not in `messages` are skipped (an
 * older page brings them).
 */
export function spliceSubAgents(messages: ViewMessage[], runs: SubAgentRun[] | undefined, tails: Map<string, string>): ViewMessage[] {
  if (!runs || runs.length === 0) return messages;
  let out = messages;
  for (const run of runs) {
    const head = trimHead(run.messages ?? [], run.earlier ?? 0);
    const rows = runRows(head.wire, run.tag, undefined);
    if (rows.length === 0) continue;
    if (head.earlier > 0) rows[0] = { ...rows[0], more: { childId: run.sessionId, beforeSeq: head.wire[0].seq, earlier: head.earlier } };
    let anchorId = run.anchorMessageId;
    for (let next = tails.get(anchorId); next; next = tails.get(anchorId)) anchorId = next;
    const i = out.findIndex((m) => m.id === anchorId);
    if (i < 0) continue;
    const anchor = out[i];
    const at = run.callId ? anchor.blocks.findIndex((b) => b.kind === 'tool' && b.callId === run.callId) : -1;
    // Without its call (a reconcile step) the group follows the whole message.
    const cut = at < 0 ? anchor.blocks.length : at + 1;
    const before: ViewMessage = { ...anchor, blocks: anchor.blocks.slice(0, cut), usage: cut < anchor.blocks.length ? undefined : anchor.usage };
    const rest = anchor.blocks.slice(cut);
    const replaced: ViewMessage[] = [before, ...rows.map((r) => ({ ...r, turnId: anchor.turnId }))];
    if (rest.length > 0) {
      const tail: ViewMessage = { ...anchor, id: `${anchor.id}~${run.sessionId}`, seq: -1, blocks: rest };
      tails.set(anchor.id, tail.id);
      replaced.push(tail);
    }
    out = [...out.slice(0, i), ...replaced, ...out.slice(i + 1)];
  }
  return out;
}

/**
 * A page that has older messages before it may start with tool results
 * whose calls are in that older page: they are left for it (counted as
 * earlier), so a result is never split from its call.
 */
function trimHead(wire: Message[], earlier: number): { wire: Message[]; earlier: number } {
  if (earlier <= 0) return { wire, earlier: 0 };
  let i = 0;
  while (i < wire.length - 1 && wire[i].role === 'tool') i++;
  return { wire: wire.slice(i), earlier: earlier + i };
}

function runRows(wire: Message[], tag: string, turnId: string | undefined): ViewMessage[] {
  return foldMessages(wire).messages.map((m): ViewMessage => ({ ...m, seq: -1, subAgentTag: m.subAgentTag || tag, turnId }));
}

/**
 * Puts an older page of a sub-agent's child session in front of its rows
 * (the answer to "N earlier messages hidden — show"). A page for a
 * position the run is no longer at (a second click answered twice) changes
 * nothing.
 */
export function prependRunPage(messages: ViewMessage[], childId: string, beforeSeq: number, page: Message[], hasMore: boolean): ViewMessage[] {
  const i = messages.findIndex((m) => m.more?.childId === childId);
  if (i < 0 || messages[i].more!.beforeSeq !== beforeSeq) return messages;
  const first = messages[i];
  const more = first.more!;
  const head = hasMore ? trimHead(page, 1) : { wire: page, earlier: 0 };
  const rows = runRows(head.wire, first.subAgentTag ?? '', first.turnId);
  const earlier = hasMore ? Math.max(1, more.earlier - head.wire.length) : 0;
  const next = earlier > 0 && head.wire.length > 0 ? { childId, beforeSeq: head.wire[0].seq, earlier } : undefined;
  // The group keeps its key (and so stays open) with new rows in front.
  if (rows.length > 0) rows[0] = { ...rows[0], more: next, groupKey: first.groupKey ?? first.id };
  const rest: ViewMessage = { ...first, more: rows.length === 0 ? next : undefined };
  return [...messages.slice(0, i), ...rows, rest, ...messages.slice(i + 1)];
}
