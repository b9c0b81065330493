// Prints the gzipped size of what the webview loads for its UI, so the
// lead's bench can track it against the ~100 KB budget.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), 'dist');
let total = 0;
for (const f of ['main.js', 'main.css']) {
  let buf;
  try {
    buf = readFileSync(join(dist, f));
  } catch {
    console.error(`dist/${f} is missing: run npm run build first`);
    process.exit(1);
  }
  const gz = gzipSync(buf, { level: 9 }).length;
  total += gz;
  console.log(`${f}\t${(buf.length / 1024).toFixed(1)} KB raw\t${(gz / 1024).toFixed(1)} KB gzip`);
}
console.log(`total\t${(total / 1024).toFixed(1)} KB gzip`);
