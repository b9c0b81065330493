// Under a user message: what its @mentions attached (with size, a cut or
// the reason nothing was attached) and the context files sent with it.
import * as l10n from '@vscode/l10n';
import type { Attachment } from '../../../src/protocol.gen';
import { chipIcon } from '../complete';

function size(chars: number): string {
  return chars >= 1024 ? `${(chars / 1024).toFixed(1)}k` : String(chars);
}

export function UserExtras({ attachments, contextFiles }: { attachments?: Attachment[]; contextFiles?: string[] }) {
  if (!attachments?.length && !contextFiles?.length) return null;
  return (
    <div class="user-extras" data-testid="user-extras">
      {(attachments ?? []).map((a, i) => (
        <span
          key={a.raw + i}
          class={`chip chip-${a.kind}${a.error ? ' chip-error' : ''}`}
          data-testid="attachment-chip"
          data-kind={a.kind}
          title={a.error ? l10n.t('Not attached: {0}', a.error) : a.truncated ? l10n.t('Attached in part ({0} characters)', a.chars) : l10n.t('Attached ({0} characters)', a.chars)}
        >
          <span class={`codicon ${a.error ? 'codicon-error' : chipIcon(a.kind)}`} aria-hidden="true" />
          <span class="chip-label">{a.raw.slice(1)}</span>
          {!a.error && <span class="muted">{size(a.chars)}{a.truncated ? '…' : ''}</span>}
        </span>
      ))}
      {(contextFiles ?? []).map((f) => (
        <span key={f} class="chip chip-context" data-testid="context-file-chip" title={l10n.t('Context file sent with this message')}>
          <span class="codicon codicon-book" aria-hidden="true" />
          <span class="chip-label">{f}</span>
        </span>
      ))}
    </div>
  );
}
