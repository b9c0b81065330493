import { describe, expect, it } from 'vitest';
import { applyHunks, computeHunks, countLines, hunkLines } from '../src/hunks';
import { ProposalReview } from '../src/proposalReview';

const original = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].join('\n') + '\n';
// hunk 1 changes b, hunk 2 deletes e, hunk 3 appends h and i.
const proposed = ['a', 'B', 'c', 'd', 'f', 'g', 'h', 'i'].join('\n') + '\n';

describe('computeHunks', () => {
  it('numbers zero-context hunks in document order with line positions', () => {
    const d = computeHunks(original, proposed);
    expect(d.hunks.map(({ index, oldStart, oldLines, newStart, newLines, oldText, newText }) => ({ index, oldStart, oldLines, newStart, newLines, oldText, newText }))).toEqual([
      { index: 1, oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, oldText: 'b\n', newText: 'B\n' },
      { index: 2, oldStart: 4, oldLines: 1, newStart: 4, newLines: 0, oldText: 'e\n', newText: '' },
      { index: 3, oldStart: 7, oldLines: 0, newStart: 6, newLines: 2, oldText: '', newText: 'h\ni\n' },
    ]);
  });

  it('applies any subset of hunks exactly', () => {
    const d = computeHunks(original, proposed);
    expect(applyHunks(d, new Set())).toBe(proposed);
    expect(applyHunks(d, new Set([1, 2, 3]))).toBe(original);
    expect(applyHunks(d, new Set([2]))).toBe('a\nB\nc\nd\ne\nf\ng\nh\ni\n');
    expect(applyHunks(d, new Set([1, 3]))).toBe('a\nb\nc\nd\nf\ng\n');
  });

  it('has no hunks for identical text and one hunk for a new file', () => {
    expect(computeHunks(original, original).hunks).toEqual([]);
    const created = computeHunks('', 'x\ny');
    expect(created.hunks).toHaveLength(1);
    expect(applyHunks(created, new Set([1]))).toBe('');
    expect(applyHunks(created, new Set())).toBe('x\ny');
  });

  it('treats a missing final newline as a change of the last line', () => {
    const d = computeHunks('a\nb\n', 'a\nb');
    expect(d.hunks).toHaveLength(1);
    expect(applyHunks(d, new Set())).toBe('a\nb');
    expect(applyHunks(d, new Set([1]))).toBe('a\nb\n');
  });

  it('keeps CRLF line endings byte for byte', () => {
    const o = 'one\r\ntwo\r\nthree\r\n';
    const p = 'one\r\nTWO\r\nthree\r\nfour\r\n';
    const d = computeHunks(o, p);
    expect(d.hunks).toHaveLength(2);
    expect(applyHunks(d, new Set([2]))).toBe('one\r\nTWO\r\nthree\r\n');
  });

  it('places hunks in the rendered text after reverting some', () => {
    const d = computeHunks(original, proposed);
    expect([...hunkLines(d, new Set())]).toEqual([[1, 1], [2, 4], [3, 6]]);
    expect([...hunkLines(d, new Set([2]))]).toEqual([[1, 1], [2, 4], [3, 7]]);
  });

  it('counts lines with and without a final newline', () => {
    expect([countLines(''), countLines('a'), countLines('a\n'), countLines('a\nb')]).toEqual([0, 1, 1, 2]);
  });
});

describe('ProposalReview', () => {
  it('sends exactly the accepted hunks applied to the original', () => {
    const r = new ProposalReview(original, proposed);
    r.decide(2, 'rejected');
    r.decide(1, 'accepted');
    expect(r.complete()).toBe(false);
    expect(r.openHunks().map((h) => [h.hunk.index, h.line])).toEqual([[3, 7]]);
    const out = r.accept(r.rendered());
    expect(out).toEqual({ decision: 'accept', content: 'a\nB\nc\nd\ne\nf\ng\nh\ni\n', rejectedHunks: [2], userEdited: false });
  });

  it('sends the user edited document as content', () => {
    const r = new ProposalReview(original, proposed);
    r.decide(3, 'rejected');
    const edited = 'mine\n';
    expect(r.accept(edited)).toEqual({ decision: 'accept', content: edited, rejectedHunks: [3], userEdited: true });
  });

  it('turns rejecting every hunk into a rejection', () => {
    const r = new ProposalReview(original, proposed);
    for (const h of r.hunks) r.decide(h.index, 'rejected');
    expect(r.complete()).toBe(true);
    expect(r.rendered()).toBe(original);
    expect(r.accept(original)).toEqual({ decision: 'reject', rejectedHunks: [1, 2, 3], userEdited: false });
  });

  it('refuses a hunk number that does not exist', () => {
    const r = new ProposalReview(original, proposed);
    expect(() => r.decide(4, 'accepted')).toThrow('no hunk 4 (the proposal has 3)');
    expect(r.decision(4)).toBeUndefined();
    expect(r.rendered()).toBe(proposed);
  });
});
