// A path on one line that gives way in the middle: the folders before the
// last one are cut with an ellipsis, the last name stays whole, and the
// whole path is the tooltip. A cwd wrapped anywhere in a narrow sidebar
// ("/tmp/govibe-e2e-12/wo" | "rkspace") read worse than a cut one.
import * as l10n from '@vscode/l10n';

/**
 * Splits p before the separator of its last name: ["/a/b", "/c"]. The
 * separator goes with the name so a cut head reads "/a/b…/c". A trailing
 * separator stays with the name.
 */
export function splitPath(p: string): [string, string] {
  const trimmed = p.replace(/[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  if (cut < 0) return ['', p];
  return [p.slice(0, cut), p.slice(cut)];
}

const MARK = '\u0001';

/** "in /path/to/dir" (the words around the path translated), on one line. */
export function CwdLine({ path, testid }: { path: string; testid?: string }) {
  const [before, after = ''] = l10n.t('in {0}', MARK).split(MARK);
  const [head, tail] = splitPath(path);
  return (
    <div class="path-line muted" title={path} data-testid={testid}>
      {before && <span class="path-words">{before}</span>}
      {head && <span class="path-head">{head}</span>}
      <span class="path-tail">{tail}</span>
      {after && <span class="path-words">{after}</span>}
    </div>
  );
}
