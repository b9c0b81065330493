import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { paneTitle } from '../src/paneTitles';

const root = path.join(__dirname, '..', '..');

describe('pane titles', () => {
  it('follow govibe.language, from the same package.nls files VS Code reads', () => {
    expect(paneTitle(root, 'en', 'view.chat')).toBe('Chat');
    expect(paneTitle(root, 'zh-cn', 'view.chat')).toBe('聊天');
    expect(paneTitle(root, 'zh-CN', 'view.snapshots')).toBe('GoVibe 快照');
    // A locale GoVibe has no bundle for reads English.
    expect(paneTitle(root, 'de', 'view.snapshots')).toBe('GoVibe Snapshots');
    expect(paneTitle(root, 'zh-cn', 'no.such.key')).toBeUndefined();
  });
});
