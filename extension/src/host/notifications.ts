// show_notification (chat/event kind "notification") as a VS Code
// notification: the agent's way to reach the user outside the chat. Only
// live events arrive here (the host never replays chat/event), so a
// reload does not show an old notification again; the tool's card keeps
// the record in the transcript.
import * as vscode from 'vscode';
import type { Notification } from '../protocol.gen';

export function showAgentNotification(n: Notification, chatVisible: boolean): void {
  const text = vscode.l10n.t('GoVibe: {0}', n.message);
  const show =
    n.severity === 'error'
      ? vscode.window.showErrorMessage
      : n.severity === 'warning'
        ? vscode.window.showWarningMessage
        : vscode.window.showInformationMessage;
  // "Open Chat" only when the chat is not already in front of the user.
  if (chatVisible) {
    void show(text);
    return;
  }
  const open = vscode.l10n.t('Open Chat');
  void show(text, open).then((c) => {
    if (c === open) void vscode.commands.executeCommand('govibe.chat.focus');
  });
}
