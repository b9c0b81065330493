// Streaming a long reply: block-wise rendering (only the changed tail is
// parsed, highlighted and sanitised) against the reference of rendering the
// whole text on every delta, measured in the same run.
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { bench, describe } from 'vitest';
import { renderBlocks } from '../src/markdown';

const para = 'The lexer reads one rune at a time and emits tokens; **operators** like `<=` need a lookahead. ';
const code = '```go\nfunc (l *Lexer) next() Token {\n\tif l.peek("<=") {\n\t\treturn Token{Kind: LE}\n\t}\n\treturn l.single()\n}\n```\n\n';
const reply = Array.from({ length: 24 }, (_, i) => (i % 4 === 3 ? code : `${para.repeat(3)}\n\n`)).join('');
const DELTAS = 60;
// Few samples: the reference is slow, and the ratio is what is read.
const opts = { time: 0, iterations: 4, warmupIterations: 1 };
const step = Math.ceil(reply.length / DELTAS);
let salt = 0;

describe(`stream ${reply.length} chars in ${DELTAS} deltas`, () => {
  bench('block-wise (webview)', () => {
    // A fresh salt per run keeps earlier runs' cache entries from helping.
    const s = `<!-- ${salt++} -->\n\n`;
    for (let i = step; i < reply.length + step; i += step) renderBlocks(s + reply.slice(0, i), true);
  }, opts);
  bench('whole text per delta (reference)', () => {
    for (let i = step; i < reply.length + step; i += step) DOMPurify.sanitize(marked.parse(reply.slice(0, i)) as string);
  }, opts);
});
