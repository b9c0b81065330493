// The skills picker in the chat: the button in the input bar says how many
// skills are active; its popover lists the catalog (name, source, one-line
// description) with a checkbox each. A change goes to the sidecar, whose
// answer (the new list) is what the picker shows.
import * as l10n from '@vscode/l10n';
import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { SkillInfo } from '../../../src/protocol.gen';
import { useServices } from '../context';
import { useDismiss } from './dismiss';

interface Props {
  sessionId?: string;
  /** A turn ended: the model may have activated a skill (activate_skill). */
  running?: boolean;
  skills?: SkillInfo[];
  error?: string;
  open: boolean;
  onToggle: (open: boolean) => void;
  /** The skills button: a press on it toggles the picker, so it does not count as "outside". */
  buttonRef?: RefObject<HTMLButtonElement | null>;
}

export function SkillsButton({ sessionId, running, skills, open, onToggle, buttonRef }: Props) {
  const { bridge } = useServices();
  // The list follows the session (active skills are per session) and is
  // read again after each turn.
  useEffect(() => {
    if (!running) bridge.post({ type: 'listSkills', sessionId });
  }, [sessionId, running]);
  const active = (skills ?? []).filter((s) => s.active);
  return (
    <button
      ref={buttonRef}
      type="button"
      class={`icon-btn skills-btn${active.length ? ' on' : ''}`}
      data-testid="skills-button"
      aria-expanded={open}
      title={active.length ? l10n.t('Active skills: {0}', active.map((s) => s.name).join(', ')) : l10n.t('Skills')}
      onClick={() => {
        if (!open) bridge.post({ type: 'listSkills', sessionId });
        onToggle(!open);
      }}
    >
      <span class="codicon codicon-book" aria-hidden="true" />
      <span class="skills-label">{active.length ? l10n.t('Skills ({0})', active.length) : l10n.t('Skills')}</span>
    </button>
  );
}

export function SkillsPicker({ sessionId, skills, error, onToggle, buttonRef }: Props) {
  const { bridge } = useServices();
  const box = useRef<HTMLDivElement>(null);
  // Escape or a press outside closes it, as any menu; it must not stay
  // over the transcript.
  useDismiss(true, () => onToggle(false), box, ...(buttonRef ? [buttonRef] : []));
  return (
    <div ref={box} class="skills-picker" data-testid="skills-picker">
      <div class="skills-head">
        <span>{l10n.t('Skills')}</span>
        <button type="button" class="icon-btn" title={l10n.t('Close')} onClick={() => onToggle(false)}>
          <span class="codicon codicon-close" />
        </button>
      </div>
      {error && (
        <div class="notice notice-error">
          <span class="notice-text">{error}</span>
        </div>
      )}
      {!skills && <div class="muted">{l10n.t('Loading…')}</div>}
      {skills && skills.length === 0 && <div class="muted">{l10n.t('No skills found.')}</div>}
      <ul>
        {(skills ?? []).map((s) => (
          <li key={s.name} class="skill-row" data-testid="skill-row" data-name={s.name} data-active={s.active}>
            <label title={s.description}>
              <input
                type="checkbox"
                checked={s.active}
                onChange={(e) => bridge.post({ type: 'setSkillActive', sessionId, name: s.name, active: (e.currentTarget as HTMLInputElement).checked })}
              />
              <span class="skill-text">
                <span class="skill-name">
                  {s.name} <span class="muted skill-source">{s.source}</span>
                  {s.active && s.scope === 'workspace' && <span class="muted"> · {l10n.t('workspace')}</span>}
                </span>
                <span class="muted skill-desc">{s.description}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The active skills as chips above the input; × deactivates one. */
export function ActiveSkillChips({ sessionId, skills }: { sessionId?: string; skills?: SkillInfo[] }) {
  const { bridge } = useServices();
  return (
    <>
      {(skills ?? [])
        .filter((s) => s.active)
        .map((s) => (
          <span key={s.name} class="chip chip-skill" data-testid="active-skill" data-name={s.name} title={s.description}>
            <span class="codicon codicon-book" aria-hidden="true" />
            <span class="chip-label">{s.name}</span>
            <button
              type="button"
              class="chip-x"
              aria-label={l10n.t('Deactivate {0}', s.name)}
              onClick={() => bridge.post({ type: 'setSkillActive', sessionId, name: s.name, active: false })}
            >
              <span class="codicon codicon-close" />
            </button>
          </span>
        ))}
    </>
  );
}
