// The header's second row: which model works (a picker, like VS Code's),
// whether its key is set, and the context meter with its figures in view.
import * as l10n from '@vscode/l10n';
import type { ComponentChildren } from 'preact';
import type { ModelStatus } from '../../../shared/webviewMessages';
import type { ContextUse } from '../../../src/protocol.gen';
import { actionLabel } from '../actions';
import { useServices } from '../context';
import { costKnown, formatCacheHit, formatCost, formatTokens } from '../format';

export function contextTooltip(c: ContextUse): string {
  const pct = c.windowTokens > 0 ? Math.round((100 * c.usedTokens) / c.windowTokens) : 0;
  const u = c.sessionUsage;
  return [
    l10n.t('Context: {0} of {1} tokens ({2}%)', formatTokens(c.usedTokens), formatTokens(c.windowTokens), pct),
    l10n.t('Session input: {0} tokens ({1} cached)', formatTokens(u.promptTokens), formatTokens(u.cachedTokens)),
    l10n.t('Session cache hit: {0}', formatCacheHit(u)),
    l10n.t('Session output: {0} tokens', formatTokens(u.completionTokens)),
    costKnown(u) || c.sessionCost > 0 ? l10n.t('Session cost: {0}', formatCost(c.sessionCost)) : l10n.t('Session cost: unknown (the model has no prices)'),
  ].join('\n');
}

function keyTitle(m: ModelStatus): string {
  switch (m.key) {
    case 'set':
      return l10n.t('API key set');
    case 'notNeeded':
      return l10n.t('Local endpoint: no API key needed');
    default:
      return l10n.t('No API key set');
  }
}

export function ModelBar({
  model,
  context,
  meter = true,
  children,
}: {
  model?: ModelStatus;
  context?: ContextUse;
  /** Show the context figures (not in an empty chat). */
  meter?: boolean;
  /** What comes before the model (the mode picker). */
  children?: ComponentChildren;
}) {
  const { bridge } = useServices();
  // The open session's own choice (/model) wins over govibe.model: the
  // button names the model the next request goes to, as the meter beside
  // it shows that model's window.
  const label = context?.profile || model?.label;
  const own = !!context?.profile && context.profile !== model?.label;
  return (
    <div class="model-bar">
      {children}
      <button
        type="button"
        class={`model-pick${model?.problem ? ' has-problem' : ''}`}
        data-testid="model-picker"
        title={model && !own ? `${model.model} · ${model.baseUrl}\n${keyTitle(model)}` : label || l10n.t('Choose model')}
        onClick={() => bridge.post({ type: 'command', command: 'pickModel' })}
      >
        {/* The name has the room: no chip icon before it, and the key's
            state is an icon only when it needs the user (missing); its
            tooltip and label say it otherwise. */}
        <span class="model-label" data-testid="model-label">
          {label || l10n.t('Choose model')}
        </span>
        {model && (
          <span
            class={model.key === 'missing' ? 'codicon codicon-warning key-missing' : 'model-key-ok'}
            data-testid="model-key"
            data-key={model.key}
            role="img"
            aria-label={keyTitle(model)}
          />
        )}
      </button>
      <span class="spacer" />
      {context && meter && <ContextMeter context={context} />}
    </div>
  );
}

/** A problem with the model, shown before the first Send with its fix. */
export function ModelProblem({ model }: { model?: ModelStatus }) {
  const { bridge } = useServices();
  if (!model?.problem) return null;
  const action = model.problem.action;
  return (
    <div class="banner banner-warning" data-testid="model-problem" role="status">
      <span class="codicon codicon-warning" /> <span class="banner-text">{model.problem.text}</span>
      <span class="banner-actions">
        <vscode-button data-testid="model-problem-fix" onClick={() => bridge.post({ type: 'command', command: action })}>
          {actionLabel(action)}
        </vscode-button>
      </span>
    </div>
  );
}

/**
 * The figures stay in view (tokens used of the window, the session's
 * cost); the gauge is a thin line under the token label, so the row keeps
 * the model's name whole at the default sidebar width.
 */
function ContextMeter({ context }: { context: ContextUse }) {
  const frac = context.windowTokens > 0 ? Math.min(1, context.usedTokens / context.windowTokens) : 0;
  const level = frac > 0.9 ? 'high' : frac > 0.7 ? 'mid' : 'low';
  return (
    <div class="context" data-testid="context-bar" title={contextTooltip(context)}>
      <span class="context-gauge">
        <span class="context-label" data-testid="context-label">
          {`${formatTokens(context.usedTokens)} / ${formatTokens(context.windowTokens)}`}
        </span>
        <div class={`context-meter ${level}`} role="meter" aria-valuenow={Math.round(frac * 100)} aria-valuemin={0} aria-valuemax={100}>
          <div class="context-fill" style={{ width: `${(frac * 100).toFixed(1)}%` }} />
        </div>
      </span>
      <span class="context-cost" data-testid="session-cost">
        {costKnown(context.sessionUsage) || context.sessionCost > 0 ? formatCost(context.sessionCost) : `${formatTokens(context.sessionUsage.promptTokens + context.sessionUsage.completionTokens)} tok`}
      </span>
    </div>
  );
}
