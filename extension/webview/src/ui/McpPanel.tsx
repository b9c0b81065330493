// The MCP status view: each configured server with its state, tool count,
// the tokens its tool definitions cost in every request, and its error and
// stderr tail when it failed; restart, enable and disable act on one
// server. When the workspace is not trusted it names the project MCP files
// that were skipped and offers VS Code's workspace trust.
import * as l10n from '@vscode/l10n';
import { useEffect } from 'preact/hooks';
import type { MCPServerStatus, MCPStatusResult } from '../../../src/protocol.gen';
import { useServices } from '../context';

export function McpPanel({ mcp }: { mcp?: { status?: MCPStatusResult; error?: string } }) {
  const { bridge, store } = useServices();
  // Opening the view starts servers that have not started yet (they start
  // lazily on the first turn otherwise), so their tools can be counted.
  useEffect(() => bridge.post({ type: 'mcp', action: 'connect' }), [bridge]);
  const st = mcp?.status;
  return (
    <section class="mcp-panel" data-testid="mcp-panel" aria-label={l10n.t('MCP servers')}>
      <div class="mcp-head">
        <span class="codicon codicon-server" />
        <span class="mcp-title">{l10n.t('MCP servers')}</span>
        <button type="button" class="icon-btn" data-testid="mcp-refresh" title={l10n.t('Refresh')} onClick={() => bridge.post({ type: 'mcp', action: 'connect' })}>
          <span class="codicon codicon-refresh" />
        </button>
        <button type="button" class="icon-btn" data-testid="mcp-close" title={l10n.t('Close')} onClick={() => store.setMcpOpen(false)}>
          <span class="codicon codicon-close" />
        </button>
      </div>
      {mcp?.error && (
        <div class="mcp-error" role="alert">
          {mcp.error}
        </div>
      )}
      {!st && !mcp?.error && <div class="muted">{l10n.t('Loading…')}</div>}
      {st && st.skipped.length > 0 && (
        <div class="mcp-skipped" data-testid="mcp-skipped">
          <span class="mcp-skipped-text">
            <span class="codicon codicon-shield" /> {l10n.t('Not loaded because this workspace is not trusted: {0}', st.skipped.join(', '))}
          </span>
          <vscode-button secondary data-testid="mcp-trust" onClick={() => bridge.post({ type: 'command', command: 'trustWorkspace' })}>
            {l10n.t('Trust workspace…')}
          </vscode-button>
        </div>
      )}
      {st && st.servers.length === 0 && st.skipped.length === 0 && (
        <div class="muted">{l10n.t('No MCP servers are configured (~/.govibe/mcp.json, .govibe/mcp.json, .vscode/mcp.json, .mcp.json).')}</div>
      )}
      {st?.servers.map((s) => <ServerRow key={s.name} s={s} />)}
    </section>
  );
}

function stateLabel(state: string): string {
  switch (state) {
    case 'connected':
      return l10n.t('connected');
    case 'connecting':
      return l10n.t('connecting');
    case 'failed':
      return l10n.t('failed');
    case 'disabled':
      return l10n.t('disabled');
    default:
      return l10n.t('not started');
  }
}

function ServerRow({ s }: { s: MCPServerStatus }) {
  const { bridge } = useServices();
  const disabled = s.state === 'disabled';
  return (
    <div class={`mcp-server mcp-${s.state}`} data-testid="mcp-server" data-name={s.name} data-state={s.state}>
      <div class="mcp-server-line">
        <span class="mcp-name">{s.name}</span>
        <span class={`mcp-state mcp-state-${s.state}`} data-testid="mcp-state">
          {stateLabel(s.state)}
        </span>
        <span class="muted mcp-kind">{s.kind}</span>
        <span class="mcp-actions">
          <button type="button" class="icon-btn" data-testid="mcp-restart" title={l10n.t('Restart')} disabled={disabled} onClick={() => bridge.post({ type: 'mcp', action: 'restart', name: s.name })}>
            <span class="codicon codicon-debug-restart" />
          </button>
          <button
            type="button"
            class="link-btn"
            data-testid="mcp-toggle-enabled"
            onClick={() => bridge.post({ type: 'mcp', action: disabled ? 'enable' : 'disable', name: s.name })}
          >
            {disabled ? l10n.t('Enable') : l10n.t('Disable')}
          </button>
        </span>
      </div>
      <div class="muted mcp-counts" data-testid="mcp-counts">
        {l10n.t('{0} tools · ≈{1} tokens per request', s.tools, s.schemaTokens)}
        {s.restarts > 0 && ` · ${l10n.t('{0} restarts', s.restarts)}`}
        {` · ${s.source}`}
      </div>
      {s.needsInputs && s.needsInputs.length > 0 && (
        <div class="mcp-inputs">
          <vscode-button secondary data-testid="mcp-inputs" onClick={() => bridge.post({ type: 'mcp', action: 'inputs', name: s.name })}>
            {l10n.t('Enter inputs ({0})…', s.needsInputs.map((i) => i.id).join(', '))}
          </vscode-button>
        </div>
      )}
      {s.error && (
        <div class="mcp-error" data-testid="mcp-error">
          {s.error}
        </div>
      )}
      {s.stderrTail && <pre class="mcp-stderr">{s.stderrTail}</pre>}
    </div>
  );
}
