import * as l10n from '@vscode/l10n';
import type { ServerState } from '../../../shared/webviewMessages';
import { actionLabel, actionMessage } from '../actions';
import { useServices } from '../context';
import type { HostNotice } from '../store';

export function ServerBanner({ state, detail }: { state: ServerState; detail?: string }) {
  const { bridge } = useServices();
  if (state === 'ready' || state === 'busy') return null;
  if (state === 'starting') {
    return (
      <div class="banner banner-info" data-testid="server-banner">
        <span class="codicon codicon-loading codicon-modifier-spin" /> <span class="banner-text">{l10n.t('Starting the GoVibe server…')}</span>
      </div>
    );
  }
  return (
    <div class="banner banner-error" data-testid="server-banner" role="alert">
      <span class="codicon codicon-error" />
      <span class="banner-text">
        {state === 'error' ? l10n.t('The GoVibe server stopped unexpectedly.') : l10n.t('The GoVibe server is not running.')}
        {detail && <span class="muted"> {detail}</span>}
      </span>
      <span class="banner-actions">
        <vscode-button onClick={() => bridge.post({ type: 'command', command: 'restartServer' })}>{l10n.t('Restart server')}</vscode-button>
        <vscode-button secondary onClick={() => bridge.post({ type: 'command', command: 'showLogs' })}>
          {l10n.t('Show logs')}
        </vscode-button>
      </span>
    </div>
  );
}

export function NoticeBanners({ notices }: { notices: HostNotice[] }) {
  const { bridge, store } = useServices();
  return (
    <>
      {notices.map((n) => {
        const msg = actionMessage(n.action);
        return (
          <div key={n.id} class={`banner banner-${n.level}`} data-testid="host-notice" role={n.level === 'error' ? 'alert' : 'status'}>
            <span class={`codicon codicon-${n.level === 'warning' ? 'warning' : n.level === 'error' ? 'error' : 'info'}`} />
            <span class="banner-text">{n.text}</span>
            <span class="banner-actions">
              {msg && n.action && (
                <vscode-button
                  data-testid="notice-action"
                  onClick={() => {
                    bridge.post(msg);
                    store.dismissNotice(n.id);
                  }}
                >
                  {actionLabel(n.action)}
                </vscode-button>
              )}
              <button type="button" class="icon-btn" title={l10n.t('Dismiss')} onClick={() => store.dismissNotice(n.id)}>
                <span class="codicon codicon-close" />
              </button>
            </span>
          </div>
        );
      })}
    </>
  );
}

export function InterruptedBanner() {
  const { bridge } = useServices();
  return (
    <div class="banner banner-warning" data-testid="interrupted-banner">
      <span class="codicon codicon-debug-pause" /> <span class="banner-text">{l10n.t('The last run was interrupted before it finished.')}</span>
      <span class="banner-actions">
        <vscode-button data-testid="continue" onClick={() => bridge.post({ type: 'command', command: 'continue' })}>
          {l10n.t('Continue')}
        </vscode-button>
      </span>
    </div>
  );
}
