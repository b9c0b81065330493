import * as vscode from 'vscode';
import { type ProfileEntry, pickItems } from './modelPickItems';

/**
 * govibe.pickModel: choose the main profile; with none yet, Add Model. The sidecar reads govibe.model
 * per request, so the switch applies from the next request. The value is
 * written where it is currently set (workspace over user), so the pick
 * takes effect.
 */
export async function pickModel(): Promise<string | undefined> {
  const cfg = vscode.workspace.getConfiguration('govibe');
  const models = cfg.get<ProfileEntry[]>('models') ?? [];
  const current = cfg.get<string>('model') ?? '';
  const items = pickItems(models, current, {
    window: (size) => vscode.l10n.t('window {0}', size),
    price: (input, output) => vscode.l10n.t('${0} in / ${1} out per M', input, output),
    effort: (level) => vscode.l10n.t('effort {0}', level),
  });
  if (items.length === 0) {
    // Nothing to pick yet: the button leads to making one, which then is
    // the model (its name comes back like a pick).
    return vscode.commands.executeCommand<string | undefined>('govibe.addModel', { use: true });
  }
  const choice = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Model for the next request (now: {0})', current) });
  if (!choice) return undefined;
  const inspect = cfg.inspect<string>('model');
  const target = inspect?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await cfg.update('model', choice.value, target);
  return choice.value;
}
