// Line counts of a proposed edit (+added −removed), shown on the pending
// card so a person sees its size without opening the diff.

export interface DiffStat {
  added: number;
  removed: number;
}

/** Beyond this many edit steps the count is an upper bound, not exact. */
const MAX_D = 2000;

function lines(s: string): string[] {
  if (s === '') return [];
  const ls = s.split('\n');
  if (ls[ls.length - 1] === '') ls.pop();
  return ls;
}

/**
 * Counts added and removed lines with Myers' O(ND) algorithm after trimming
 * the common prefix and suffix, which is most of a typical edit. When the
 * two sides differ by more than MAX_D steps it falls back to "everything in
 * the changed middle", which over-counts but stays cheap on huge rewrites.
 */
export function diffStat(before: string, after: string): DiffStat {
  const a = lines(before);
  const b = lines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let ea = a.length;
  let eb = b.length;
  while (ea > start && eb > start && a[ea - 1] === b[eb - 1]) {
    ea--;
    eb--;
  }
  const n = ea - start;
  const m = eb - start;
  if (n === 0 || m === 0) return { added: m, removed: n };
  const d = editDistance(a, start, n, b, start, m);
  if (d < 0) return { added: m, removed: n };
  // d = added + removed and m - n = added - removed.
  const added = (d + m - n) / 2;
  return { added, removed: d - added };
}

/** Shortest insert/delete script length, or -1 past MAX_D. */
function editDistance(a: string[], ao: number, n: number, b: string[], bo: number, m: number): number {
  const max = Math.min(n + m, MAX_D);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[ao + x] === b[bo + y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return d;
    }
  }
  return -1;
}
