import { expect, test } from 'vitest';
import { OutputRing, KEEP_PER_TERMINAL, scrubSecrets, stripAnsi, tail } from '../src/terminalText';

test('escape sequences and shell-integration marks are removed', () => {
  expect(stripAnsi('\u001b]633;C\u0007\u001b[31mFAIL\u001b[0m x\r\n')).toBe('FAIL x\n');
});

test('credentials are scrubbed and ordinary output kept', () => {
  const out = scrubSecrets(
    'export GITHUB_TOKEN=ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\ncurl -H "Authorization: Bearer abc.def.ghi"\nhttps://u:pw123@h/x\nok 0.1s',
  );
  expect(out).not.toContain('ghp_');
  expect(out).not.toContain('abc.def.ghi');
  expect(out).not.toContain('pw123');
  expect(out).toContain('ok 0.1s');
});

test('the ring keeps the newest output, bounded', () => {
  const r = new OutputRing();
  for (let i = 0; i < 5000; i++) r.append(`line ${i} ${'x'.repeat(40)}\n`);
  const text = r.read(1000);
  expect(text.length).toBeLessThanOrEqual(1000);
  expect(text).toContain('line 4999');
  expect(r.read(10 * KEEP_PER_TERMINAL).length).toBeLessThanOrEqual(KEEP_PER_TERMINAL);
  expect(tail('a\nbcd', 3)).toBe('bcd');
});
