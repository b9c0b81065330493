// Hunk computation for per-hunk review of an edit proposal. Pure: no vscode
// import, so it runs under vitest. A hunk is a maximal run of removed and/or
// added lines with no unchanged line inside (zero context), numbered from 1
// in document order; that numbering is what confirm/resolve's rejectedHunks
// refers to.
import { diffLines } from 'diff';

export interface Hunk {
  /** 1-based number, in document order. */
  index: number;
  /** 0-based first line in the original. */
  oldStart: number;
  oldLines: number;
  /** 0-based first line in the proposal. */
  newStart: number;
  newLines: number;
  oldText: string;
  newText: string;
}

/** A segment is either text both sides share, or one hunk. */
type Segment = { same: string } | { hunk: Hunk };

export interface HunkDiff {
  readonly hunks: readonly Hunk[];
  readonly segments: readonly Segment[];
}

export function computeHunks(original: string, proposed: string): HunkDiff {
  const segments: Segment[] = [];
  const hunks: Hunk[] = [];
  let oldLine = 0;
  let newLine = 0;
  let open: Hunk | undefined;
  for (const change of diffLines(original, proposed)) {
    const lines = change.count ?? countLines(change.value);
    if (!change.added && !change.removed) {
      open = undefined;
      segments.push({ same: change.value });
      oldLine += lines;
      newLine += lines;
      continue;
    }
    if (!open) {
      open = {
        index: hunks.length + 1,
        oldStart: oldLine,
        oldLines: 0,
        newStart: newLine,
        newLines: 0,
        oldText: '',
        newText: '',
      };
      hunks.push(open);
      segments.push({ hunk: open });
    }
    if (change.removed) {
      open.oldText += change.value;
      open.oldLines += lines;
      oldLine += lines;
    } else {
      open.newText += change.value;
      open.newLines += lines;
      newLine += lines;
    }
  }
  return { hunks, segments };
}

/**
 * Applies the hunks not listed in `rejected` to the original. With no
 * rejections it yields the proposal; with every hunk rejected, the original.
 */
export function applyHunks(diff: HunkDiff, rejected: ReadonlySet<number>): string {
  let out = '';
  for (const seg of diff.segments) {
    if ('same' in seg) out += seg.same;
    else out += rejected.has(seg.hunk.index) ? seg.hunk.oldText : seg.hunk.newText;
  }
  return out;
}

/**
 * Where each hunk starts in the text applyHunks(diff, rejected) renders, so
 * CodeLenses can sit on the right line after some hunks were reverted.
 */
export function hunkLines(diff: HunkDiff, rejected: ReadonlySet<number>): Map<number, number> {
  const at = new Map<number, number>();
  let line = 0;
  for (const seg of diff.segments) {
    if ('same' in seg) {
      line += countLines(seg.same);
      continue;
    }
    at.set(seg.hunk.index, line);
    line += rejected.has(seg.hunk.index) ? seg.hunk.oldLines : seg.hunk.newLines;
  }
  return at;
}

export function countLines(text: string): number {
  if (text === '') return 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return text.endsWith('\n') ? n : n + 1;
}
