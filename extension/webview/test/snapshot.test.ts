import { describe, expect, test } from 'vitest';
import { snapshotMarkdown } from '../src/snapshot';

describe('snapshotMarkdown', () => {
  test('labels each known section instead of printing the XML tags', () => {
    const s = '<state_snapshot>\n<overall_goal>\nPlan the cache work.\n</overall_goal>\n\n<current_plan>\n1. [DONE] count\n2. [TODO] show\n</current_plan>\n</state_snapshot>';
    const md = snapshotMarkdown(s);
    expect(md).toBe('**Goal**\n\nPlan the cache work.\n\n**Plan**\n\n1. [DONE] count\n2. [TODO] show');
    expect(md).not.toContain('<');
  });

  test('leaves out empty sections', () => {
    expect(snapshotMarkdown('<state_snapshot><overall_goal>G</overall_goal><key_knowledge>\n</key_knowledge></state_snapshot>')).toBe('**Goal**\n\nG');
  });

  test('shows anything else as written, so nothing is hidden', () => {
    for (const s of [
      'We ported **the lexer**.',
      '<state_snapshot><overall_goal>G</overall_goal>stray text</state_snapshot>',
      '<state_snapshot><other>x</other></state_snapshot>',
      '<state_snapshot><overall_goal>unclosed</state_snapshot>',
      'before <state_snapshot><overall_goal>G</overall_goal></state_snapshot>',
      '<state_snapshot></state_snapshot>',
    ]) {
      expect(snapshotMarkdown(s)).toBe(s);
    }
  });
});
