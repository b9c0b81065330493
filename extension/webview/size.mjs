// Prints the gzipped size of what the webview loads for its UI, so the
// lead's bench can track it against the ~100 KB budget. Builds first when
// dist/ is missing so the figure is never of a stale or absent bundle.
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
if (!existsSync(join(dist, 'main.js')) || !existsSync(join(dist, 'main.css'))) {
  await import('./build.mjs');
}
let total = 0;
for (const f of ['main.js', 'main.css']) {
  const buf = readFileSync(join(dist, f));
  const gz = gzipSync(buf, { level: 9 }).length;
  total += gz;
  console.log(`${f}\t${(buf.length / 1024).toFixed(1)} KB raw\t${(gz / 1024).toFixed(1)} KB gzip`);
}
console.log(`total\t${(total / 1024).toFixed(1)} KB gzip\t(budget 100 KB: ${((100 * total) / (100 * 1024)).toFixed(0)}% used)`);
