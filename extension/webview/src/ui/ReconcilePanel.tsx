import * as l10n from '@vscode/l10n';
import { useEffect, useState } from 'preact/hooks';
import type { ReconcileState } from '../../../src/protocol.gen';
import { useServices } from '../context';

interface Props {
  run?: ReconcileState;
  sessionId?: string;
  /** A turn of the session is running (the loop's or another). */
  busy: boolean;
}

/**
 * Reconcile mode: the manifest (editable until approved), then the loop:
 * current loop and agent, the failing-test count after each loop as a
 * small chart, and Stop / Resume.
 */
export function ReconcilePanel({ run, sessionId, busy }: Props) {
  const { bridge } = useServices();
  const [draft, setDraft] = useState(run?.manifest ?? '');
  // A newly drafted manifest replaces the text being edited.
  useEffect(() => setDraft(run?.manifest ?? ''), [run?.name, run?.approved]);
  if (!run) {
    return (
      <section class="mode-panel reconcile-panel" data-testid="reconcile-panel">
        <div class="muted" data-testid="reconcile-hint">
          {l10n.t('Describe what to build with /reconcile <intent>; the manifest shows here for approval.')}
        </div>
      </section>
    );
  }
  // 'CrashLoopBackOff' is how runs saved before the seed's phase names ended.
  const ended = run.phase === 'Ready' || run.phase === 'Failed' || run.phase === 'CrashLoopBackOff';
  const canResume = run.approved && !ended && !run.running && !busy;
  return (
    <section class="mode-panel reconcile-panel" data-testid="reconcile-panel">
      <div class="mode-head">
        <span class="codicon codicon-sync" />
        <span class="mode-name" title={run.intent}>
          {run.name}
        </span>
        <span class={`phase-badge phase-${run.phase}`} data-testid="reconcile-phase">
          {run.approved ? run.phase : l10n.t('awaiting approval')}
        </span>
        {run.running && sessionId && (
          <button type="button" class="icon-btn" data-testid="reconcile-stop" title={l10n.t('Stop the loop')} onClick={() => bridge.post({ type: 'stop', sessionId })}>
            <span class="codicon codicon-debug-stop" />
          </button>
        )}
        {canResume && sessionId && (
          <button type="button" class="icon-btn" data-testid="reconcile-resume" title={l10n.t('Resume the loop')} onClick={() => bridge.post({ type: 'reconcileResume', sessionId })}>
            <span class="codicon codicon-debug-continue" />
          </button>
        )}
      </div>
      <div class="muted mode-intent">{run.intent}</div>
      {!run.approved && (
        <div class="manifest-edit">
          <textarea
            class="command-input"
            data-testid="manifest-edit"
            rows={8}
            spellcheck={false}
            value={draft}
            onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
          />
          <vscode-button
            data-testid="reconcile-approve"
            disabled={busy || !sessionId}
            onClick={() => sessionId && bridge.post({ type: 'reconcileApprove', sessionId, manifest: draft === run.manifest ? undefined : draft })}
          >
            {l10n.t('Approve and start')}
          </vscode-button>
        </div>
      )}
      {run.approved && (
        <>
          <div class="reconcile-loop" data-testid="reconcile-loop">
            {l10n.t('Loop {0}/{1}', run.currentLoop, run.maxLoops)}
            {run.running && ` · ${run.agent || run.step || ''}`}
          </div>
          <DiffChart baseline={run.baseline} diffs={run.diffs ?? []} maxLoops={run.maxLoops} />
          {run.lastError && (
            <div class="reconcile-error" data-testid="reconcile-error">
              {run.lastError}
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** Failing tests before the first loop (baseline) and after each loop, as bars. */
export function DiffChart({ baseline, diffs, maxLoops }: { baseline: number; diffs: number[]; maxLoops: number }) {
  const values = [baseline, ...diffs];
  const top = Math.max(1, ...values);
  const slots = Math.max(values.length, maxLoops + 1);
  const w = 100 / slots;
  return (
    <svg class="diff-chart" data-testid="diff-chart" viewBox="0 0 100 30" preserveAspectRatio="none" role="img" aria-label={l10n.t('Failing tests per loop')}>
      {values.map((v, i) => {
        const h = Math.max(1, (v / top) * 28);
        return (
          <rect key={i} class={i === 0 ? 'bar baseline' : v === 0 ? 'bar zero' : 'bar'} data-testid="diff-bar" data-value={v} x={i * w + w * 0.15} y={30 - h} width={w * 0.7} height={h}>
            <title>{i === 0 ? l10n.t('Before loop 1: {0} failing', v) : l10n.t('After loop {0}: {1} failing', i, v)}</title>
          </rect>
        );
      })}
    </svg>
  );
}
