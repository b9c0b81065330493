import { describe, expect, test } from 'vitest';
import { keptSections, snapshotMarkdown } from '../src/snapshot';

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

describe('keptSections', () => {
  test('labels each kept element and drops the lead-ins written for the model', () => {
    // As server/internal/agent/compact/kept.go renders it.
    const k = [
      '<kept_verbatim>',
      'Kept word for word outside the summary; where the summary differs, this is right.',
      '',
      "The user's first request in this session:",
      '<original_request>',
      'Please plan <the> cache work',
      '</original_request>',
      '',
      'The todo list now:',
      '<todo_list>',
      'Goal: Cache figures',
      '1. [done] Count cached tokens',
      '</todo_list>',
      '',
      'What the user decided, oldest first:',
      '<user_decisions>',
      '- answered "DeepSeek"',
      '</user_decisions>',
      '</kept_verbatim>',
    ].join('\n');
    expect(keptSections(k)).toEqual([
      { label: 'Your first request', text: 'Please plan <the> cache work' },
      { label: 'Todo list', text: 'Goal: Cache figures\n1. [done] Count cached tokens' },
      { label: 'Your decisions', text: '- answered "DeepSeek"' },
    ]);
  });

  test('another shape is shown as sent', () => {
    for (const s of ['plain text', '<kept_verbatim><unknown>x</unknown></kept_verbatim>', '<kept_verbatim>\n</kept_verbatim>', '<kept_verbatim><todo_list>open']) {
      expect(keptSections(s)).toBeUndefined();
    }
  });
});
