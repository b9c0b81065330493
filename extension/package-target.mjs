// npm run package:target -- <vsce-target> [binary]
// Copies the sidecar for one platform to bin/ and packages dist/govibe-<target>.vsix.
// Without [binary] it uses bin/govibe (or bin/govibe.exe for win32 targets).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [target, binary] = process.argv.slice(2);
const targets = ['win32-x64', 'win32-arm64', 'linux-x64', 'linux-arm64', 'linux-armhf', 'alpine-x64', 'alpine-arm64', 'darwin-x64', 'darwin-arm64'];
if (!targets.includes(target)) {
  console.error(`usage: npm run package:target -- <${targets.join('|')}> [path/to/govibe binary]`);
  process.exit(2);
}
const exe = target.startsWith('win32') ? 'govibe.exe' : 'govibe';
const bin = join(root, 'bin');
mkdirSync(bin, { recursive: true });
if (binary && resolve(binary) !== join(bin, exe)) {
  if (!existsSync(binary)) {
    console.error(`${binary} does not exist`);
    process.exit(1);
  }
  const data = readFileSync(resolve(binary));
  // Exactly one sidecar goes into a platform package.
  for (const f of readdirSync(bin)) if (f === 'govibe' || f === 'govibe.exe') rmSync(join(bin, f));
  writeFileSync(join(bin, exe), data, { mode: 0o755 });
}
// A sidecar for another platform left by an earlier build must not ride along.
const other = exe === 'govibe' ? 'govibe.exe' : 'govibe';
if (existsSync(join(bin, other))) rmSync(join(bin, other));
if (!existsSync(join(bin, exe))) {
  console.error(`bin/${exe} is missing; run make build or pass the binary path`);
  process.exit(1);
}
// The browser sub-agent's driver: playwright-core at the version
// playwright-go pins (package.json devDependencies, checked by a Go test),
// laid out as playwright-driver/package next to bin/. No node is shipped:
// the extension passes VS Code's own Electron. The trace viewer, recorder,
// HTML report and type declarations are left out (about 4 MB of 8.5).
const pwSrc = join(root, 'node_modules', 'playwright-core');
const pwPin = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies['playwright-core'];
const pwVersion = existsSync(pwSrc) ? JSON.parse(readFileSync(join(pwSrc, 'package.json'), 'utf8')).version : undefined;
if (pwVersion !== pwPin) {
  console.error(`node_modules/playwright-core is ${pwVersion ?? 'missing'}, package.json pins ${pwPin}; run npm ci`);
  process.exit(1);
}
const pwDest = join(root, 'playwright-driver', 'package');
rmSync(join(root, 'playwright-driver'), { recursive: true, force: true });
const skip = [join(pwSrc, 'types'), join(pwSrc, 'lib', 'vite')];
cpSync(pwSrc, pwDest, { recursive: true, filter: (src) => !skip.some((s) => src === s || src.startsWith(s + '/') || src.startsWith(s + '\\')) });
mkdirSync(join(root, 'dist'), { recursive: true });
const out = join('dist', `govibe-${target}.vsix`);
const r = spawnSync('npx', ['vsce', 'package', '--skip-license', '--target', target, '-o', out], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(r.status ?? 1);
