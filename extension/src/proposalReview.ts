// The review state of one edit proposal: which hunks the user accepted or
// rejected and what text to send back. Pure; the diff editor adapter in
// host/proposals.ts renders it. Not shared between async tasks beyond the
// extension host's single thread, so it needs no locking.
import { applyHunks, computeHunks, hunkLines, type Hunk, type HunkDiff } from './hunks';

export type HunkDecision = 'accepted' | 'rejected';

export interface ReviewOutcome {
  decision: 'accept' | 'reject';
  /** Final text; undefined when rejecting the whole proposal. */
  content?: string;
  rejectedHunks: number[];
  /** True when the content is the user's own edit of the proposal. */
  userEdited: boolean;
}

export class ProposalReview {
  readonly diff: HunkDiff;
  private readonly decisions = new Map<number, HunkDecision>();

  constructor(
    readonly original: string,
    readonly proposed: string,
  ) {
    this.diff = computeHunks(original, proposed);
  }

  get hunks(): readonly Hunk[] {
    return this.diff.hunks;
  }

  decision(index: number): HunkDecision | undefined {
    return this.decisions.get(index);
  }

  decide(index: number, decision: HunkDecision): void {
    if (!this.diff.hunks.some((h) => h.index === index)) {
      throw new Error(`no hunk ${index} (the proposal has ${this.diff.hunks.length})`);
    }
    this.decisions.set(index, decision);
  }

  rejected(): Set<number> {
    const out = new Set<number>();
    for (const [i, d] of this.decisions) if (d === 'rejected') out.add(i);
    return out;
  }

  /** The proposal with rejected hunks reverted: what the proposal document shows. */
  rendered(): string {
    return applyHunks(this.diff, this.rejected());
  }

  /** Undecided hunks with the line where each starts in rendered(). */
  openHunks(): Array<{ hunk: Hunk; line: number }> {
    const lines = hunkLines(this.diff, this.rejected());
    return this.diff.hunks
      .filter((h) => !this.decisions.has(h.index))
      .map((hunk) => ({ hunk, line: lines.get(hunk.index) ?? 0 }));
  }

  /** Every hunk has a decision (a proposal with no hunks is complete). */
  complete(): boolean {
    return this.diff.hunks.every((h) => this.decisions.has(h.index));
  }

  /**
   * The answer when the user accepts: undecided hunks count as accepted.
   * `documentText` is the proposal document's current text; when it differs
   * from rendered() the user typed into it and their text wins.
   */
  accept(documentText: string): ReviewOutcome {
    const rejectedHunks = [...this.rejected()].sort((a, b) => a - b);
    const rendered = this.rendered();
    if (documentText !== rendered) {
      return { decision: 'accept', content: documentText, rejectedHunks, userEdited: true };
    }
    if (this.diff.hunks.length > 0 && rejectedHunks.length === this.diff.hunks.length) {
      return { decision: 'reject', rejectedHunks, userEdited: false };
    }
    return { decision: 'accept', content: rendered, rejectedHunks, userEdited: false };
  }
}
