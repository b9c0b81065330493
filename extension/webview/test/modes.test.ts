// The working modes in the view: the header picker, Plan mode's editable
// proposal with "Run plan", the Phases panel, and the Reconcile panel
// (manifest approval with edits, loop, agent, diff chart, Stop/Resume).
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ReconcileState, TodoState } from '../../src/protocol.gen';
import { groupLabel } from '../src/ui/Transcript';
import { type Harness, SID, ev, flush, pickMode, resetSeq, snapshot, start, typeInto } from './harness';

let h: Harness;

beforeEach(async () => {
  resetSeq(10);
  h = await start();
});

afterEach(() => h.unmount());

const plan: TodoState = {
  goal: 'fix it',
  current: -1,
  phase: 'scheduling',
  items: [
    { title: 'read main.go', status: 'pending' },
    { title: 'fix the bug', status: 'pending' },
  ],
} as TodoState;

const run = (p: Partial<ReconcileState> = {}): ReconcileState => ({
  name: 'snake',
  intent: 'a snake game',
  approved: false,
  manifest: '{"metadata":{"name":"snake"}}',
  phase: 'Pending',
  currentLoop: 0,
  running: false,
  baseline: 0,
  diffs: [],
  maxLoops: 10,
  ...p,
});

describe('mode picker', () => {
  test('shows the session mode and posts a switch', async () => {
    await h.host(snapshot({ mode: 'phases' }));
    expect(h.q('mode-picker')!.dataset.value).toBe('phases');
    await pickMode(h, 'reconcile');
    expect(h.posted).toContainEqual({ type: 'setMode', sessionId: SID, mode: 'reconcile' });
    expect(h.q('mode-menu')).toBeNull();
    expect(h.q('reconcile-panel')).not.toBeNull();
  });

  test('each mode explains itself in one line', async () => {
    await h.host(snapshot({ mode: 'agent' }));
    h.q('mode-picker')!.click();
    await flush();
    const options = h.qa('mode-option');
    expect(options.map((o) => o.dataset.mode)).toEqual(['agent', 'plan', 'phases', 'reconcile']);
    const descriptions = h.qa('mode-description').map((d) => d.textContent ?? '');
    expect(descriptions).toHaveLength(4);
    for (const d of descriptions) expect(d.length).toBeGreaterThan(20);
    expect(new Set(descriptions).size).toBe(4);
    expect(options.find((o) => o.dataset.mode === 'plan')!.textContent).toContain('plan');
    expect(options.find((o) => o.dataset.mode === 'agent')!.getAttribute('aria-selected')).toBe('true');
  });

  test('the menu closes on Escape and on a click outside it, picking nothing', async () => {
    await h.host(snapshot({ mode: 'agent' }));
    h.q('mode-picker')!.click();
    await flush();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await flush();
    expect(h.q('mode-menu')).toBeNull();
    h.q('mode-picker')!.click();
    await flush();
    h.q('chat-input')!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    await flush();
    expect(h.q('mode-menu')).toBeNull();
    expect(h.posted.filter((m) => m.type === 'setMode')).toEqual([]);
  });

  test('is locked while a turn runs; before the first message the host makes the session', async () => {
    await h.host(snapshot({ runningTurnId: 't1' }));
    expect(h.q<HTMLButtonElement>('mode-picker')!.disabled).toBe(true);
    await h.host(snapshot({}, { session: null, sessions: [] }));
    expect(h.q<HTMLButtonElement>('mode-picker')!.disabled).toBe(false);
    await pickMode(h, 'plan');
    expect(h.posted).toContainEqual({ type: 'setMode', mode: 'plan' });
  });

  test('follows a switch made elsewhere (a mode event)', async () => {
    await h.host(snapshot());
    await h.host(ev({ kind: 'mode', mode: { mode: 'plan', state: '', step: 0 } }));
    expect(h.q('mode-picker')!.dataset.value).toBe('plan');
  });

  test('Plan mode cannot edit: "Edits on" is off and locked, and says why', async () => {
    await h.host(snapshot({ mode: 'agent', editEnabled: true }));
    const toggle = () => h.q<HTMLButtonElement>('edit-toggle')!;
    expect(toggle().disabled).toBe(false);
    expect(toggle().textContent).toContain('Edits on');
    await pickMode(h, 'plan');
    expect(toggle().disabled).toBe(true);
    expect(toggle().getAttribute('aria-pressed')).toBe('false');
    expect(toggle().textContent).toContain('Read-only');
    expect(toggle().title).toContain('Plan mode does not edit');
    // Back in Agent mode the session's own switch shows again.
    await pickMode(h, 'agent');
    expect(toggle().disabled).toBe(false);
    expect(toggle().textContent).toContain('Edits on');
  });
});

describe('plan mode', () => {
  test('the proposed plan is editable and Run plan sends the edited list', async () => {
    await h.host(snapshot({ mode: 'plan', todo: plan }));
    expect(h.q('todo-panel')).toBeNull();
    const titles = h.qa<HTMLInputElement>('plan-row-title');
    expect(titles.map((t) => t.value)).toEqual(['read main.go', 'fix the bug']);
    typeInto(titles[0], 'read util.go');
    h.qa('plan-row-remove')[1].click();
    await flush();
    h.q('plan-add')!.click();
    await flush();
    const run = h.q('plan-run')!;
    expect(run.hasAttribute('disabled')).toBe(true); // the new item has no title yet
    typeInto(h.qa<HTMLInputElement>('plan-row-title')[1], 'add a test');
    await flush();
    h.q('plan-run')!.click();
    expect(h.posted).toContainEqual({
      type: 'runPlan',
      sessionId: SID,
      items: [{ title: 'read util.go' }, { title: 'add a test' }],
    });
  });

  test('a running plan shows the ordinary todo panel', async () => {
    await h.host(snapshot({ mode: 'agent', todo: { ...plan, items: [{ title: 'x', status: 'running' }] } as TodoState }));
    expect(h.q('plan-editor')).toBeNull();
    expect(h.q('todo-panel')).not.toBeNull();
  });
});

describe('phases panel', () => {
  test('shows the state, the findings and the plan from mode events', async () => {
    await h.host(snapshot({ mode: 'phases' }));
    expect(h.q('phases-panel')!.dataset.state).toBe('EXPLORING');
    await h.host(ev({ kind: 'mode', mode: { mode: 'phases', state: 'PATCHING', findings: 'bug in a.go', plan: ['fix a.go', 'test'], step: 0 } }));
    expect(h.q('phases-panel')!.dataset.state).toBe('PATCHING');
    expect(h.q('phase-findings')!.textContent).toContain('bug in a.go');
    expect(h.q('phase-plan')!.textContent).toContain('fix a.go');
    expect(h.root.querySelector('.phase-chip.current')!.textContent).toBe('Patch');
  });
});

describe('reconcile panel', () => {
  test('a drafted manifest is edited and approved', async () => {
    await h.host(snapshot({ mode: 'reconcile', modeState: { mode: 'reconcile', state: 'Pending', step: 0, reconcile: run() } }));
    expect(h.q('reconcile-phase')!.textContent).toBe('awaiting approval');
    const edit = h.q<HTMLTextAreaElement>('manifest-edit')!;
    expect(edit.value).toContain('snake');
    typeInto(edit, '{"metadata":{"name":"snake2"}}');
    await flush();
    h.q('reconcile-approve')!.click();
    expect(h.posted).toContainEqual({ type: 'reconcileApprove', sessionId: SID, manifest: '{"metadata":{"name":"snake2"}}' });
  });

  test('the loop shows its agent and a bar per loop; Stop and Resume post', async () => {
    await h.host(snapshot({ mode: 'reconcile' }));
    expect(h.q('reconcile-hint')).not.toBeNull();
    const running = run({ approved: true, phase: 'Reconciling', running: true, agent: 'coder:3', currentLoop: 2, baseline: 8, diffs: [5, 3] });
    await h.host(ev({ kind: 'mode', mode: { mode: 'reconcile', state: 'Reconciling', step: 0, reconcile: running } }));
    expect(h.q('reconcile-loop')!.textContent).toBe('Loop 2/10 · coder:3');
    expect(h.qa('diff-bar').map((b) => b.getAttribute('data-value'))).toEqual(['8', '5', '3']);
    h.q('reconcile-stop')!.click();
    expect(h.posted).toContainEqual({ type: 'stop', sessionId: SID });
    await h.host(ev({ kind: 'mode', mode: { mode: 'reconcile', state: 'Reconciling', step: 0, reconcile: { ...running, running: false, agent: '' } } }));
    h.q('reconcile-resume')!.click();
    expect(h.posted).toContainEqual({ type: 'reconcileResume', sessionId: SID });
    await h.host(
      ev({ kind: 'mode', mode: { mode: 'reconcile', state: 'Failed', step: 0, reconcile: { ...running, running: false, phase: 'Failed', lastError: 'CrashLoopBackOff: loop cap reached' } } }),
    );
    expect(h.q('reconcile-resume')).toBeNull();
    expect(h.q('reconcile-error')!.textContent).toBe('CrashLoopBackOff: loop cap reached');
    // A run saved under the old phase name has ended too.
    await h.host(ev({ kind: 'mode', mode: { mode: 'reconcile', state: 'CrashLoopBackOff', step: 0, reconcile: { ...running, running: false, phase: 'CrashLoopBackOff' } } }));
    expect(h.q('reconcile-resume')).toBeNull();
  });
});

describe('reconcile transcript groups', () => {
  test("the loop's agents are labelled by loop, not by todo item", () => {
    expect(groupLabel('coder:2', 3)).toBe('Loop 2 · coder · 3 tool calls');
    expect(groupLabel('executor:1', 1)).toBe('Item 1 · executor · 1 tool call');
  });
});
