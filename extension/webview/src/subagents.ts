// Sub-agent groups of a reopened session. Live, a sub-agent's rows are
// appended while the message that called it stays open, and what that
// message says afterwards moves to a continuation row after them
// (reducer.ts continueAfterGroups). Its messages live in a hidden child
// session, so session/load returns them apart (SessionLoadResult.subAgents,
// each anchored at the parent message and tool call that started it);
// this puts them back where they ran, split the same way.
import type { SubAgentRun } from '../../src/protocol.gen';
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
    const rows = foldMessages(run.messages ?? []).messages.map(
      (m): ViewMessage => ({ ...m, seq: -1, subAgentTag: m.subAgentTag || run.tag, turnId: undefined }),
    );
    if (rows.length === 0) continue;
    let anchorId = run.anchorMessageId;
    for (let next = tails.get(anchorId); next; next = tails.get(anchorId)) anchorId = next;
    const i = out.findIndex((m) => m.id === anchorId);
    if (i < 0) continue;
    const anchor = out[i];
    const at = run.callId ? anchor.blocks.findIndex((b) => b.kind === 'tool' && b.callId === run.callId) : -1;
    // Without its call (a reconcile step) the group follows the whole message.
    const cut = at < 0 ? anchor.blocks.length : at + 1;
    const head: ViewMessage = { ...anchor, blocks: anchor.blocks.slice(0, cut), usage: cut < anchor.blocks.length ? undefined : anchor.usage };
    const rest = anchor.blocks.slice(cut);
    const replaced: ViewMessage[] = [head, ...rows.map((r) => ({ ...r, turnId: anchor.turnId }))];
    if (rest.length > 0) {
      const tail: ViewMessage = { ...anchor, id: `${anchor.id}~${run.sessionId}`, seq: -1, blocks: rest };
      tails.set(anchor.id, tail.id);
      replaced.push(tail);
    }
    out = [...out.slice(0, i), ...replaced, ...out.slice(i + 1)];
  }
  return out;
}
