import { describe, expect, test } from 'vitest';
import { diffStat } from '../src/diffstat';

describe('diffStat', () => {
  test('counts changed, added and removed lines', () => {
    expect(diffStat('a\nb\nc\n', 'a\nB\nc\n')).toEqual({ added: 1, removed: 1 });
    expect(diffStat('a\nc\n', 'a\nb\nc\n')).toEqual({ added: 1, removed: 0 });
    expect(diffStat('a\nb\nc', 'a\nc')).toEqual({ added: 0, removed: 1 });
    expect(diffStat('x\ny\nz\nw', 'y\nx\nz\nw\nq')).toEqual({ added: 2, removed: 1 });
  });

  test('new, deleted and unchanged files', () => {
    expect(diffStat('', 'one\ntwo\n')).toEqual({ added: 2, removed: 0 });
    expect(diffStat('one\ntwo\nthree', '')).toEqual({ added: 0, removed: 3 });
    expect(diffStat('same\n', 'same\n')).toEqual({ added: 0, removed: 0 });
  });

  test('a full rewrite of a large file stays fast and bounded', () => {
    const a = Array.from({ length: 20000 }, (_, i) => `old ${i}`).join('\n');
    const b = Array.from({ length: 20000 }, (_, i) => `new ${i}`).join('\n');
    const t0 = performance.now();
    expect(diffStat(a, b)).toEqual({ added: 20000, removed: 20000 });
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
