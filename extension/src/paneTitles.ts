// The titles of GoVibe's panes (Chat, Snapshots) in govibe.language.
// VS Code names contributed views in its own display language, fixed until
// it restarts; GoVibe's chat follows govibe.language at once, so the panes
// are renamed to match from the same package.nls files VS Code reads.
// Pure: no vscode import.
import * as fs from 'node:fs';
import * as path from 'node:path';

const cache = new Map<string, Record<string, string>>();

function bundle(extensionDir: string, file: string): Record<string, string> {
  const key = path.join(extensionDir, file);
  let b = cache.get(key);
  if (!b) {
    try {
      b = JSON.parse(fs.readFileSync(key, 'utf8')) as Record<string, string>;
    } catch {
      b = {};
    }
    cache.set(key, b);
  }
  return b;
}

/**
 * The pane title under `key` ("view.chat") in `locale`: that locale's
 * package.nls.<locale>.json, else its language's (zh for zh-tw), else
 * English. undefined when even English lacks the key.
 */
export function paneTitle(extensionDir: string, locale: string, key: string): string | undefined {
  const l = locale.toLowerCase();
  const tries = l === 'en' || l.startsWith('en-') ? [] : [`package.nls.${l}.json`, `package.nls.${l.split('-')[0]}.json`];
  for (const f of [...tries, 'package.nls.json']) {
    const v = bundle(extensionDir, f)[key];
    if (typeof v === 'string' && v) return v;
  }
  return undefined;
}
