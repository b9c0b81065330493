// Bundles the chat webview into dist/: main.js + main.css (one file each,
// because the host's CSP only admits its own nonce'd script and cspSource
// styles) and copies the codicon font the host links separately.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const dev = process.argv.includes('--dev');

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

await build({
  entryPoints: { main: join(here, 'src/main.tsx') },
  outdir: dist,
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome120'],
  minify: !dev,
  sourcemap: dev ? 'inline' : false,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': dev ? '"development"' : '"production"' },
});

const codicons = join(here, 'node_modules/@vscode/codicons/dist');
for (const f of ['codicon.css', 'codicon.ttf']) copyFileSync(join(codicons, f), join(dist, f));
