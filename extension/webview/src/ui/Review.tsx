import * as l10n from '@vscode/l10n';
import type { ReviewCard } from '../../../src/protocol.gen';
import { formatDuration } from '../format';

function kindLabel(kind: string): string {
  switch (kind) {
    case 'plan':
      return l10n.t('Plan review');
    case 'edit':
      return l10n.t('Edit review');
    case 'shell':
      return l10n.t('Command review');
    default:
      return l10n.t('Review');
  }
}

/** The second-opinion reviewer's verdict on a plan, edit or command. */
export function ReviewView({ card }: { card: ReviewCard }) {
  if (card.unavailable) {
    return (
      <div class="review review-unavailable" data-testid="review-card">
        <span class="codicon codicon-info" /> {kindLabel(card.kind)}: {l10n.t('the reviewer was not available ({0}).', card.unavailable)}
      </div>
    );
  }
  return (
    <div class={`review ${card.approved ? 'review-ok' : 'review-bad'}`} data-testid="review-card">
      <div class="review-head">
        <span class={`codicon ${card.approved ? 'codicon-pass' : 'codicon-warning'}`} />
        <strong>{kindLabel(card.kind)}</strong>
        <span>{card.approved ? l10n.t('Looks good') : l10n.t('Found problems')}</span>
        {card.durationMs > 0 && <span class="muted">{formatDuration(card.durationMs)}</span>}
      </div>
      {card.problems && card.problems.length > 0 && (
        <ul class="review-problems">
          {card.problems.map((p, i) => (
            <li key={i} class={`sev-${p.severity}`}>
              <span class="sev">{p.severity}</span> {p.message}
              {p.location && <span class="muted"> ({p.location})</span>}
            </li>
          ))}
        </ul>
      )}
      {card.suggestion && (
        <div class="review-suggestion">
          {l10n.t('Suggestion:')} {card.suggestion}
        </div>
      )}
    </div>
  );
}
