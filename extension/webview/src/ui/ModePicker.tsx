import * as l10n from '@vscode/l10n';
import { useRef, useState } from 'preact/hooks';
import { useServices } from '../context';
import { useDismiss } from './dismiss';

/** The working modes in picker order (the sidecar's names). */
export const MODES = ['agent', 'plan', 'phases', 'reconcile'] as const;

export function modeLabel(m: string): string {
  switch (m) {
    case 'plan':
      return l10n.t('Plan');
    case 'phases':
      return l10n.t('Phases');
    case 'reconcile':
      return l10n.t('Reconcile');
    default:
      return l10n.t('Agent');
  }
}

/** What each mode does, in one line under its name in the picker. */
export function modeDescription(m: string): string {
  switch (m) {
    case 'plan':
      return l10n.t('Reads only; proposes a plan first');
    case 'phases':
      return l10n.t('Explore, plan, patch, verify');
    case 'reconcile':
      return l10n.t('Specs and tests drive the code');
    default:
      return l10n.t('Reads, edits and runs commands');
  }
}

/**
 * Whether the mode's turns can edit files at all: Plan mode only reads
 * and proposes (the plan edits once it runs, in Agent mode), so the
 * input's "Edits on" switch means nothing there.
 */
export function modeCanEdit(m: string | undefined): boolean {
  return m !== 'plan';
}

/**
 * The header's mode picker: a button naming the mode, and a menu with
 * each mode's name and what it does. The mode is the session's (stored by
 * the sidecar, applied from the next turn); picked before the first
 * message, the host creates the session. Locked while a turn runs.
 */
export function ModePicker({ sessionId, mode, running }: { sessionId?: string; mode?: string; running: boolean }) {
  const { bridge, store } = useServices();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  useDismiss(open, () => setOpen(false), button, menu);
  // Unknown until the session is loaded: showing "Agent" meanwhile would
  // claim a mode the session may not have.
  if (mode === undefined) return null;
  const pick = (m: string) => {
    setOpen(false);
    button.current?.focus();
    if (m === mode) return;
    store.setMode(m);
    bridge.post({ type: 'setMode', mode: m, ...(sessionId ? { sessionId } : {}) });
  };
  const focusOption = (i: number) => {
    const items = menu.current?.querySelectorAll<HTMLElement>('[role=option]');
    if (items && items.length) items[(i + items.length) % items.length].focus();
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        class="mode-picker"
        data-testid="mode-picker"
        data-value={mode}
        title={`${l10n.t('Working mode')}: ${modeDescription(mode)}`}
        aria-label={`${l10n.t('Working mode')}: ${modeLabel(mode)}`}
        aria-haspopup="listbox"
        aria-expanded={open}
        disabled={running}
        onClick={() => {
          setOpen(!open);
          if (!open) requestAnimationFrame(() => focusOption(MODES.indexOf(mode as (typeof MODES)[number])));
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
            requestAnimationFrame(() => focusOption(MODES.indexOf(mode as (typeof MODES)[number])));
          }
        }}
      >
        <span class="mode-picker-label">{modeLabel(mode)}</span>
        <span class="codicon codicon-chevron-down" aria-hidden="true" />
      </button>
      {open && (
        <ul
          ref={menu}
          class="mode-menu"
          role="listbox"
          data-testid="mode-menu"
          aria-label={l10n.t('Working mode')}
          onKeyDown={(e) => {
            const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role=option]') ?? [])];
            const at = items.indexOf(document.activeElement as HTMLElement);
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              focusOption(at + (e.key === 'ArrowDown' ? 1 : -1));
            } else if ((e.key === 'Enter' || e.key === ' ') && at >= 0) {
              e.preventDefault();
              pick(MODES[at]);
            }
          }}
        >
          {MODES.map((m) => (
            <li
              key={m}
              role="option"
              tabIndex={-1}
              aria-selected={m === mode}
              class={`mode-option${m === mode ? ' current' : ''}`}
              data-testid="mode-option"
              data-mode={m}
              onClick={() => pick(m)}
            >
              <span class={`codicon ${m === mode ? 'codicon-check' : 'codicon-blank'}`} aria-hidden="true" />
              <span class="mode-option-text">
                <span class="mode-option-name">{modeLabel(m)}</span>
                <span class="mode-option-desc" data-testid="mode-description">
                  {modeDescription(m)}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
