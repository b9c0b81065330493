// The status-bar item mirroring the sidecar state.
import * as vscode from 'vscode';
import type { ServerState } from '../../shared/webviewMessages';

export class ServerStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('govibe.status', vscode.StatusBarAlignment.Right, 100);

  constructor() {
    this.item.name = 'GoVibe';
    this.item.command = 'govibe.focusChat';
    this.show('starting');
  }

  show(state: ServerState, detail?: string): void {
    const icon: Record<ServerState, string> = {
      starting: '$(loading~spin)',
      ready: '$(sparkle)',
      busy: '$(sync~spin)',
      error: '$(error)',
      stopped: '$(circle-slash)',
    };
    const label: Record<ServerState, string> = {
      starting: vscode.l10n.t('GoVibe: starting'),
      ready: vscode.l10n.t('GoVibe: ready'),
      busy: vscode.l10n.t('GoVibe: working'),
      error: vscode.l10n.t('GoVibe: error'),
      stopped: vscode.l10n.t('GoVibe: stopped'),
    };
    this.item.text = `${icon[state]} GoVibe`;
    const tip = new vscode.MarkdownString(undefined, true);
    tip.isTrusted = { enabledCommands: ['govibe.restartServer', 'govibe.stopServer', 'govibe.showLogs'] };
    tip.appendText(label[state]);
    if (detail) tip.appendText(`\n\n${detail}`);
    tip.appendMarkdown(
      `\n\n[$(debug-restart) ${vscode.l10n.t('Restart Server')}](command:govibe.restartServer) · ` +
        `[$(debug-stop) ${vscode.l10n.t('Stop Server')}](command:govibe.stopServer) · ` +
        `[$(output) ${vscode.l10n.t('Show Logs')}](command:govibe.showLogs)`,
    );
    this.item.tooltip = tip;
    this.item.backgroundColor = state === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
