// Locating the sidecar binary and the ripgrep VS Code ships. Pure node.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function binaryName(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'govibe.exe' : 'govibe';
}

export class BinaryNotFoundError extends Error {}

/**
 * The govibe.server.path setting wins; otherwise the binary bundled in the
 * extension's bin/. A configured path that does not exist is an error
 * rather than a silent fallback, so a typo is noticed.
 */
export function findServerBinary(configured: string | undefined, extensionDir: string, platform: NodeJS.Platform): string {
  if (configured && configured.trim() !== '') {
    const p = configured.trim();
    if (!isFile(p)) {
      throw new BinaryNotFoundError(`govibe.server.path points to "${p}", which is not a file.`);
    }
    return p;
  }
  const bundled = path.join(extensionDir, 'bin', binaryName(platform));
  if (isFile(bundled)) return bundled;
  throw new BinaryNotFoundError(
    `The GoVibe server binary was not found at "${bundled}". Install a platform-specific GoVibe package or set govibe.server.path.`,
  );
}

/** The rg binary under VS Code's app root, or "" when there is none. */
export function findRipgrep(appRoot: string, platform: NodeJS.Platform): string {
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  for (const base of ['node_modules', 'node_modules.asar.unpacked']) {
    const vscodeDir = path.join(appRoot, base, '@vscode');
    let entries: string[];
    try {
      entries = fs.readdirSync(vscodeDir);
    } catch {
      continue;
    }
    for (const name of entries.filter((e) => e.startsWith('ripgrep')).sort()) {
      const candidate = path.join(vscodeDir, name, 'bin', exe);
      if (isFile(candidate)) return candidate;
    }
  }
  return '';
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
