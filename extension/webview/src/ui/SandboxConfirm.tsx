// The card the sidecar shows when a sandboxed command failed on something
// the sandbox denied (analysis.class "sandbox-denied"): what was denied
// and what the person may grant (analysis.reasons, translated by the
// sidecar), one button that grants it and runs the command again, and one
// that leaves it. It answers for this one command, so it offers no
// "always allow" rules and the command cannot be edited.
import * as l10n from '@vscode/l10n';
import type { ConfirmView } from '../store';
import { sandboxAcceptLabel } from '../sandbox';
import { Kbd, Resolved, useResolve, useShortcuts } from './confirmParts';
import { CwdLine } from './PathLine';

export function SandboxConfirm({ view, primary }: { view: ConfirmView; primary: boolean }) {
  const resolve = useResolve();
  const req = view.request;
  const offers = req.analysis?.reasons ?? [];
  const label = sandboxAcceptLabel(offers);
  const accept = () => resolve(req.id, 'accept');
  const leave = () => resolve(req.id, 'reject');
  // The sidecar offers "outside" on this card only: the one way to run a
  // command unconfined, asked each time, with what it gives up in words.
  const outside = (req.options ?? []).includes('outside');
  const runOutside = () => resolve(req.id, 'accept', { answer: 'outside' });
  useShortcuts(primary && !view.resolved, { KeyA: accept, KeyR: leave });
  return (
    <div
      class={`confirm-card confirm-shell confirm-sandbox${primary ? ' primary' : ''}`}
      data-testid="confirm-card"
      data-kind="shell"
      data-class="sandbox-denied"
    >
      <div class="confirm-head">
        {/* The icon inside the title: a title too long for a narrow sidebar
            then wraps beside it instead of dropping below it. */}
        <span class="confirm-title">
          <span class="codicon codicon-lock" /> {l10n.t('The sandbox blocked this command')}
        </span>
      </div>
      {offers.length > 0 && (
        <ul class="shell-reasons" data-testid="sandbox-offers">
          {offers.map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ul>
      )}
      <pre class="command-text" data-testid="confirm-command-text">
        {req.command ?? ''}
      </pre>
      {req.cwd && <CwdLine path={req.cwd} testid="confirm-cwd" />}
      {view.resolved ? (
        <Resolved decision={view.resolved} />
      ) : (
        <>
          <div class="muted">{l10n.t('Accepting runs it again, still in the sandbox, with this allowed.')}</div>
          <div class="confirm-actions">
            <vscode-button data-testid="confirm-allow" title={primary ? `${offers.join('\n')}\nAlt+A` : offers.join('\n')} onClick={accept}>
              {label} <Kbd k="A" show={primary} />
            </vscode-button>
            <vscode-button secondary data-testid="confirm-deny" title={primary ? 'Alt+R' : undefined} onClick={leave}>
              {l10n.t('Leave it')} <Kbd k="R" show={primary} />
            </vscode-button>
          </div>
          {outside && (
            <div class="confirm-actions">
              <vscode-button
                secondary
                data-testid="confirm-outside"
                title={l10n.t('Runs this one command with no sandbox: it may write anywhere you can, read your secrets and reach any network.')}
                onClick={runOutside}
              >
                {l10n.t('Run outside the sandbox')}
              </vscode-button>
            </div>
          )}
        </>
      )}
    </div>
  );
}
