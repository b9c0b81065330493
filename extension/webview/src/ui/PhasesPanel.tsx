import * as l10n from '@vscode/l10n';
import type { ModeState } from '../../../src/protocol.gen';

const STATES = ['EXPLORING', 'PLANNING', 'PATCHING', 'VERIFYING', 'DONE'] as const;

function stateLabel(s: string): string {
  switch (s) {
    case 'EXPLORING':
      return l10n.t('Explore');
    case 'PLANNING':
      return l10n.t('Plan');
    case 'PATCHING':
      return l10n.t('Patch');
    case 'VERIFYING':
      return l10n.t('Verify');
    case 'DONE':
      return l10n.t('Done');
    default:
      return l10n.t('Failed');
  }
}

/** Phases mode (codeCLI): where the machine stands, the findings, the plan and the log. */
export function PhasesPanel({ st }: { st: ModeState }) {
  const cur = st.state || 'EXPLORING';
  const at = STATES.indexOf(cur as (typeof STATES)[number]);
  return (
    <section class="mode-panel phases-panel" data-testid="phases-panel" data-state={cur}>
      <ol class="phase-steps">
        {STATES.map((s, i) => (
          <li key={s} class={`phase-chip${s === cur ? ' current' : ''}${at > i || cur === 'DONE' ? ' passed' : ''}`} data-testid="phase-chip">
            {stateLabel(s)}
          </li>
        ))}
        {cur === 'FAILED' && (
          <li class="phase-chip failed current" data-testid="phase-chip">
            {stateLabel('FAILED')}
          </li>
        )}
      </ol>
      {st.findings && (
        <details class="phase-findings" data-testid="phase-findings">
          <summary>{l10n.t('Findings')}</summary>
          <div class="phase-text">{st.findings}</div>
        </details>
      )}
      {st.plan && st.plan.length > 0 && (
        <ol class="phase-plan" data-testid="phase-plan">
          {st.plan.map((p, i) => (
            <li key={i} class={cur === 'PATCHING' && i === st.step ? 'current' : ''}>
              {p}
            </li>
          ))}
        </ol>
      )}
      {st.reason && <div class="reconcile-error">{st.reason}</div>}
      {st.log && st.log.length > 0 && <div class="muted phase-log">{st.log[st.log.length - 1]}</div>}
    </section>
  );
}
