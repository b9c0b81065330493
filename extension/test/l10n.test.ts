import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(__dirname, '..', '..');
const readJson = (p: string) => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8')) as Record<string, unknown>;

/** Every string literal passed as the first argument of l10n.t(...). */
export function l10nStrings(source: string): string[] {
  const out: string[] = [];
  const re = /l10n\.t\(\s*(['"`])/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    const quote = m[1];
    let i = re.lastIndex;
    let s = '';
    while (i < source.length && source[i] !== quote) {
      if (source[i] === '\\') {
        i++;
        s += source[i] === 'n' ? '\n' : source[i];
      } else {
        s += source[i];
      }
      i++;
    }
    out.push(s);
    re.lastIndex = i + 1;
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function placeholders(s: string): string[] {
  return (s.match(/\{\d+\}/g) ?? []).sort();
}

describe('l10n', () => {
  it('package.nls locales have the same keys and every %key% in package.json exists', () => {
    const en = readJson('package.nls.json');
    const locales = fs.readdirSync(root).filter((f) => /^package\.nls\..+\.json$/.test(f));
    expect(locales).toContain('package.nls.zh-cn.json');
    for (const f of locales) expect(Object.keys(readJson(f)).sort(), f).toEqual(Object.keys(en).sort());
    const manifest = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
    const used = [...manifest.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(40);
    for (const k of used) expect(en, k).toHaveProperty([k]);
    expect(Object.keys(en).filter((k) => !used.includes(k))).toEqual([]);
  });

  it('the extension bundles translate exactly the strings the code uses', () => {
    const used = new Set(sourceFiles(path.join(root, 'extension', 'src')).flatMap((f) => l10nStrings(fs.readFileSync(f, 'utf8'))));
    expect(used.size).toBeGreaterThan(30);
    const bundles = fs.readdirSync(path.join(root, 'l10n')).filter((f) => f.startsWith('bundle.l10n.'));
    expect(bundles).toContain('bundle.l10n.zh-cn.json');
    for (const b of bundles) {
      const bundle = readJson(path.join('l10n', b)) as Record<string, string>;
      expect(Object.keys(bundle).sort(), b).toEqual([...used].sort());
      for (const [k, v] of Object.entries(bundle)) {
        expect(typeof v === 'string' && v.trim() !== '', `${b}: ${k}`).toBe(true);
        expect(placeholders(v), `${b}: ${k}`).toEqual(placeholders(k));
      }
    }
  });

  it('extracts literals with either quote and escapes', () => {
    expect(l10nStrings(`vscode.l10n.t('a {0}', x); l10n.t("b's"); l10n.t('c\\'d')`)).toEqual(['a {0}', "b's", "c'd"]);
  });
});
