import * as l10n from '@vscode/l10n';
import type { WebviewMessage } from '../../shared/webviewMessages';

type Command = Extract<WebviewMessage, { type: 'command' }>['command'];

const COMMANDS: readonly Command[] = ['setApiKey', 'showLogs', 'restartServer', 'openSettings', 'continue', 'pickModel', 'trustWorkspace', 'alwaysAllowedRules'];

/** Maps an ErrorInfo/notice action name to the message its button posts. */
export function actionMessage(action: string | undefined): WebviewMessage | undefined {
  if (!action) return undefined;
  return (COMMANDS as readonly string[]).includes(action) ? { type: 'command', command: action as Command } : undefined;
}

export function actionLabel(action: string): string {
  switch (action) {
    case 'setApiKey':
      return l10n.t('Set API key');
    case 'showLogs':
      return l10n.t('Show logs');
    case 'restartServer':
      return l10n.t('Restart server');
    case 'openSettings':
      return l10n.t('Open settings');
    case 'continue':
      return l10n.t('Continue');
    case 'pickModel':
      return l10n.t('Choose model');
    case 'trustWorkspace':
      return l10n.t('Trust workspace…');
    case 'alwaysAllowedRules':
      return l10n.t('Always-allowed rules…');
    default:
      return action;
  }
}
