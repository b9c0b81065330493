import { describe, expect, test } from 'vitest';
import { activeToken, applyPick, commandItems, mentionItems, parseMentions, removeMention } from '../src/complete';
import { SID, ev, flush, snapshot, start } from './harness';

describe('activeToken', () => {
  test('a slash command only at the start, while the caret is in its word', () => {
    expect(activeToken('/he', 3)).toEqual({ kind: 'command', query: 'he', start: 0, end: 3 });
    expect(activeToken('/git:commit now', 4)).toMatchObject({ kind: 'command', query: 'git', end: 11 });
    expect(activeToken('/help me', 8)).toBeUndefined();
    expect(activeToken('see /help', 9)).toBeUndefined();
  });
  test('a mention after whitespace or a bracket, not in words, code or escapes', () => {
    expect(activeToken('look at @src/ma', 15)).toEqual({ kind: 'mention', query: 'src/ma', start: 8, end: 15 });
    expect(activeToken('(@REA', 5)).toMatchObject({ kind: 'mention', query: 'REA' });
    expect(activeToken('@', 1)).toMatchObject({ kind: 'mention', query: '' });
    expect(activeToken('bob@exa', 7)).toBeUndefined();
    expect(activeToken('`@x', 3)).toBeUndefined();
    expect(activeToken('a @x b', 6)).toBeUndefined();
  });
});

test('commands: prefix matches first, then substring', () => {
  const list = [
    { name: 'clear', description: 'Clear' },
    { name: 'git:commit', description: 'Commit', argumentHint: '<msg>' },
    { name: 'compact', description: 'Compact' },
  ];
  expect(commandItems(list, 'c').map((i) => i.insert)).toEqual(['clear', 'compact', 'git:commit']);
  expect(commandItems(list, 'comm').map((i) => i.insert)).toEqual(['git:commit']);
  expect(commandItems(list, 'git')[0]).toMatchObject({ label: '/git:commit <msg>', detail: 'Commit' });
});

test('mentions: keywords, a typed URL, then files and folders', () => {
  const files = [{ path: 'src/' }, { path: 'src/main.go' }];
  expect(mentionItems('', files).map((i) => i.insert)).toEqual(['problems', 'git-changes', 'terminal', 'src/', 'src/main.go']);
  expect(mentionItems('te', []).map((i) => i.kind)).toEqual(['terminal']);
  expect(mentionItems('https://go.dev/x', [])[0]).toMatchObject({ kind: 'url', insert: 'https://go.dev/x' });
});

test('a pick replaces the token; a folder keeps the list open (no space)', () => {
  const t = activeToken('read @ma please', 8)!;
  expect(applyPick('read @ma please', t, { insert: 'src/main.go', label: '', icon: '', kind: 'file' })).toEqual({
    text: 'read @src/main.go please',
    caret: 18,
  });
  const f = activeToken('@s', 2)!;
  expect(applyPick('@s', f, { insert: 'src/', label: '', icon: '', kind: 'folder' })).toEqual({ text: '@src/', caret: 5 });
  const c = activeToken('/he', 3)!;
  expect(applyPick('/he', c, { insert: 'help', label: '', icon: '' })).toEqual({ text: '/help ', caret: 6 });
});

test('chips follow the sidecar’s mention rules and removing one keeps the rest', () => {
  const text = 'fix @src/a.go, see @problems and @alice at bob@x.com `@no` \\@esc @docs/ @https://go.dev';
  const chips = parseMentions(text);
  expect(chips.map((c) => `${c.kind}:${c.raw}`)).toEqual(['file:@src/a.go', 'problems:@problems', 'folder:@docs/', 'url:@https://go.dev']);
  expect(removeMention('a @x.go b', parseMentions('a @x.go b')[0])).toBe('a b');
});

test('symbols: @#Name is a symbol chip; the editor’s symbols are offered with their file', () => {
  expect(parseMentions('explain @#Engine.Send, not @# alone').map((c) => `${c.kind}:${c.raw}`)).toEqual(['symbol:@#Engine.Send']);
  const items = mentionItems('#Sen', [{ path: '#Engine.Send', root: 'server/engine.go' }]);
  expect(items).toEqual([{ insert: '#Engine.Send', label: '@#Engine.Send', detail: 'server/engine.go', icon: 'codicon-symbol-method', kind: 'symbol' }]);
  const t = activeToken('see @#Sen', 9)!;
  expect(t).toMatchObject({ kind: 'mention', query: '#Sen' });
  expect(applyPick('see @#Sen', t, items[0]).text).toBe('see @#Engine.Send ');
});

describe('composer', () => {
  test('slash autocomplete: list, arrows, Enter picks, then Enter sends', async () => {
    const h = await start();
    await h.host(snapshot());
    const input = h.q<HTMLTextAreaElement>('chat-input')!;
    input.focus();
    input.value = '/';
    input.setSelectionRange(1, 1);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await flush();
    const ask = h.posted.find((m) => m.type === 'listCommands') as { reqId: number } | undefined;
    expect(ask).toBeTruthy();
    await h.host({
      type: 'commands',
      reqId: ask!.reqId,
      commands: [
        { name: 'clear', description: 'Clear the context' },
        { name: 'review', description: 'Review a file', argumentHint: '<file>' },
      ],
    });
    expect(h.qa('completion-item').map((e) => e.dataset.insert)).toEqual(['clear', 'review']);
    expect(h.q('command-completion')!.textContent).toContain('Review a file');
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    await flush();
    expect(h.qa('completion-item')[1].getAttribute('aria-selected')).toBe('true');
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await flush();
    expect(input.value).toBe('/review ');
    expect(h.q('command-completion')).toBeNull();
    expect(h.posted.some((m) => m.type === 'send')).toBe(false);
    input.value = '/review main.go';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await flush();
    expect(h.posted.find((m) => m.type === 'send')).toMatchObject({ text: '/review main.go', sessionId: SID });
  });

  test('@ autocomplete asks for files, ignores stale answers, and a pick shows a chip', async () => {
    const h = await start();
    await h.host(snapshot());
    const input = h.q<HTMLTextAreaElement>('chat-input')!;
    input.focus();
    input.value = 'read @ma';
    input.setSelectionRange(8, 8);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await flush();
    const ask = h.posted.filter((m) => m.type === 'completeFiles').pop() as { reqId: number; query: string };
    expect(ask.query).toBe('ma');
    await h.host({ type: 'files', reqId: ask.reqId - 1, items: [{ path: 'stale.go' }], partial: false });
    expect(h.qa('completion-item').map((e) => e.dataset.insert)).not.toContain('stale.go');
    await h.host({ type: 'files', reqId: ask.reqId, items: [{ path: 'main.go' }], partial: false });
    // Answers may overtake each other (the host and the sidecar answer
    // concurrently): an older one arriving after the current one must not
    // replace it, or the list says "No matching file" until the next key.
    await h.host({ type: 'files', reqId: ask.reqId - 1, items: [{ path: 'stale.go' }], partial: false });
    expect(h.qa('completion-item').map((e) => e.dataset.insert)).toContain('main.go');
    const item = h.qa('completion-item').find((e) => e.dataset.insert === 'main.go')!;
    item.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    await flush();
    expect(input.value).toBe('read @main.go ');
    const chip = h.q('mention-chip')!;
    expect(chip.dataset.kind).toBe('file');
    expect(chip.textContent).toContain('main.go');
    chip.querySelector('button')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await flush();
    expect(h.q('mention-chip')).toBeNull();
    expect(input.value).toBe('read ');
  });

  test('skills picker lists, toggles and shows active skills', async () => {
    const h = await start();
    await h.host(snapshot());
    expect(h.posted.some((m) => m.type === 'listSkills')).toBe(true);
    const skills = [
      { name: 'code-reviewer', description: 'Review', source: 'builtin', active: false },
      { name: 'spec-driven', description: 'Specs', source: 'builtin', active: false },
    ];
    await h.host({ type: 'skills', skills });
    h.q('skills-button')!.click();
    await flush();
    const row = h.qa('skill-row').find((r) => r.dataset.name === 'code-reviewer')!;
    row.querySelector('input')!.click();
    await flush();
    expect(h.posted.find((m) => m.type === 'setSkillActive')).toEqual({ type: 'setSkillActive', sessionId: SID, name: 'code-reviewer', active: true });
    await h.host({ type: 'skills', skills: [{ ...skills[0], active: true, scope: 'session' }, skills[1]] });
    expect(h.qa('active-skill').map((e) => e.dataset.name)).toEqual(['code-reviewer']);
    expect(h.q('skills-button')!.textContent).toContain('(1)');
  });

  test('the skills picker closes on Escape and on a click outside it; its button still toggles it', async () => {
    const h = await start();
    await h.host(snapshot());
    await h.host({ type: 'skills', skills: [{ name: 'code-reviewer', description: 'Review', source: 'builtin', active: false }] });
    const open = async () => {
      h.q('skills-button')!.click();
      await flush();
      expect(h.q('skills-picker')).not.toBeNull();
    };
    await open();
    // A click inside (its rows) keeps it open.
    h.q('skill-row')!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    await flush();
    expect(h.q('skills-picker')).not.toBeNull();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await flush();
    expect(h.q('skills-picker')).toBeNull();
    await open();
    document.body.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    await flush();
    expect(h.q('skills-picker')).toBeNull();
    // Its own button: a press then a click toggles it, open then closed.
    await open();
    const btn = h.q('skills-button')!;
    btn.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    btn.click();
    await flush();
    expect(h.q('skills-picker')).toBeNull();
  });

  test('a user message shows its attachments and context files', async () => {
    const h = await start();
    await h.host(snapshot());
    await h.host(
      ev({
        kind: 'message',
        message: {
          id: 'u1', sessionId: SID, seq: 11, role: 'user', status: 'done', created: 0, parts: [{ type: 'text', text: 'see @a.go @gone.go' }],
          attachments: [
            { kind: 'file', raw: '@a.go', chars: 2048 },
            { kind: 'file', raw: '@gone.go', chars: 0, error: 'no such file' },
          ],
          contextFiles: ['AGENTS.md'],
        },
      }),
    );
    const chips = h.qa('attachment-chip');
    expect(chips.map((c) => c.textContent)).toEqual(['a.go2.0k', 'gone.go']);
    expect(chips[1].title).toContain('no such file');
    expect(h.q('context-file-chip')!.textContent).toContain('AGENTS.md');
  });
});
