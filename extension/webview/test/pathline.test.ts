// The shell confirmation's working directory: one line that gives way in
// the middle (the last folder's name whole), the whole path on hover.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { splitPath } from '../src/ui/PathLine';
import { type Harness, SID, resetSeq, snapshot, start } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => h.unmount());

describe('splitPath', () => {
  test.each([
    ['/tmp/govibe-e2e-1234/workspace', '/tmp/govibe-e2e-1234', '/workspace'],
    ['/a/b/', '/a', '/b/'],
    ['C:\\Users\\me\\proj', 'C:\\Users\\me', '\\proj'],
    ['/proj', '', '/proj'],
    ['/', '', '/'],
    ['proj', '', 'proj'],
    ['', '', ''],
  ])('%s', (p, head, tail) => {
    expect(splitPath(p)).toEqual([head, tail]);
    expect(head + tail).toBe(p);
  });
});

describe('the shell confirmation’s working directory', () => {
  test('one line with the folders cut before the last name, the whole path on hover', async () => {
    await h.host(snapshot());
    const cwd = '/tmp/govibe-e2e-TestScenarioShellCommandDenyThenAllow-123456789/workspace';
    await h.host({ type: 'confirm', request: { id: 's1', sessionId: SID, turnId: 't1', toolCallId: 'c1', kind: 'shell', command: 'ls', cwd } });
    const line = h.q('confirm-cwd')!;
    expect(line.getAttribute('title')).toBe(cwd);
    expect(line.textContent).toBe(`in ${cwd}`);
    expect(line.querySelector('.path-head')!.textContent).toBe('/tmp/govibe-e2e-TestScenarioShellCommandDenyThenAllow-123456789');
    expect(line.querySelector('.path-tail')!.textContent).toBe('/workspace');
    // The card's rule that wraps long text anywhere must not reach this line.
    expect(line.classList.contains('path-line')).toBe(true);
  });

  test('no cwd, no line', async () => {
    await h.host(snapshot());
    await h.host({ type: 'confirm', request: { id: 's1', sessionId: SID, turnId: 't1', toolCallId: 'c1', kind: 'shell', command: 'ls' } });
    expect(h.q('confirm-cwd')).toBeNull();
    expect(h.q('confirm-command')).not.toBeNull();
  });
});
