import * as l10n from '@vscode/l10n';
import { useServices } from '../context';

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

/**
 * The header's mode picker. The mode is the session's (stored by the
 * sidecar, applied from the next turn); picked before the first message,
 * the host creates the session. Locked while a turn runs.
 */
export function ModePicker({ sessionId, mode, running }: { sessionId?: string; mode?: string; running: boolean }) {
  const { bridge, store } = useServices();
  // Unknown until the session is loaded: showing "Agent" meanwhile would
  // claim a mode the session may not have.
  if (mode === undefined) return null;
  return (
    <select
      class="mode-picker"
      data-testid="mode-picker"
      title={l10n.t('Working mode')}
      aria-label={l10n.t('Working mode')}
      value={mode}
      disabled={running}
      onChange={(e) => {
        const m = (e.target as HTMLSelectElement).value;
        if (m === mode) return;
        store.setMode(m);
        bridge.post({ type: 'setMode', mode: m, ...(sessionId ? { sessionId } : {}) });
      }}
    >
      {MODES.map((m) => (
        <option key={m} value={m}>
          {modeLabel(m)}
        </option>
      ))}
    </select>
  );
}
