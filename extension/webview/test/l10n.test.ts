import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ev, flush, snapshot, start } from './harness';

const SRC = join(__dirname, '../src');
const BUNDLE = join(__dirname, '../l10n/bundle.l10n.zh-cn.json');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(f) ? [p] : [];
  });
}

/** Every l10n.t message in the sources, and the calls whose message is not a literal. */
function used(): { keys: Set<string>; nonLiteral: string[] } {
  const keys = new Set<string>();
  const nonLiteral: string[] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    const calls = text.split('l10n.t(').length - 1;
    let literal = 0;
    for (const m of text.matchAll(/l10n\.t\(\s*'((?:[^'\\]|\\.)*)'/g)) {
      keys.add(m[1].replace(/\\'/g, "'"));
      literal++;
    }
    if (literal !== calls) nonLiteral.push(file);
  }
  return { keys, nonLiteral };
}

const placeholders = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();

describe('zh-cn bundle', () => {
  const bundle = JSON.parse(readFileSync(BUNDLE, 'utf8')) as Record<string, string>;
  const { keys, nonLiteral } = used();

  test('every message is a string literal the check can see', () => {
    expect(keys.size).toBeGreaterThan(50);
    expect(nonLiteral).toEqual([]);
  });

  test('every message used has a translation with the same placeholders', () => {
    const missing = [...keys].filter((k) => typeof bundle[k] !== 'string' || !bundle[k].trim());
    expect(missing).toEqual([]);
    const mismatched = [...keys].filter((k) => placeholders(k).join() !== placeholders(bundle[k]).join());
    expect(mismatched).toEqual([]);
  });

  test('the bundle carries no stale entries', () => {
    expect(Object.keys(bundle).filter((k) => !keys.has(k))).toEqual([]);
  });

  test('the bundle from the snapshot translates the view', async () => {
    const h = await start();
    await h.host(snapshot({}, { l10n: bundle, locale: 'zh-cn' }));
    expect(h.q('send')!.textContent).toContain(bundle['Send']);
    await h.host(ev({ kind: 'turnStarted' }));
    expect(h.q('stop')!.textContent).toContain(bundle['Stop']);
    // Back to English when a later snapshot carries no bundle.
    await h.host(snapshot({ lastSeq: 20 }, { l10n: undefined }));
    await flush();
    expect(h.q('send')!.textContent).toContain('Send');
    h.unmount();
  });
});
