// Bundles the extension host into extension/dist/extension.js, then builds
// the webview with its own package.json when that package exists.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const watch = process.argv.includes('--watch');
const production = !watch && process.env.GOVIBE_DEV !== '1';

/** @type {import('esbuild').BuildOptions} */
const options = {
  entryPoints: [join(here, 'src', 'extension.ts')],
  outfile: join(here, 'dist', 'extension.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  sourcemap: production ? false : 'inline',
  minify: production,
  logLevel: 'info',
};

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
  const webview = join(here, 'webview');
  if (existsSync(join(webview, 'package.json')) && !process.argv.includes('--host-only')) {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const run = (args) => {
      const r = spawnSync(npm, ['--prefix', webview, ...args], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
      if (r.status !== 0) process.exit(r.status ?? 1);
    };
    // A fresh clone has run `npm ci` only at the root; the webview has its own lock file.
    if (!existsSync(join(webview, 'node_modules'))) run(['ci']);
    run(['run', 'build']);
  }
}
