// The model picker behind the header's model button: choosing a profile
// sets govibe.model.
import * as vscode from 'vscode';
import { isRecord, str } from './modelStatus';

type Getter = (key: string) => unknown;

/** The model picker: choosing a profile sets govibe.model. */
export async function pickModel(get: Getter): Promise<string | undefined> {
  const current = str(get('model'));
  const models = Array.isArray(get('models')) ? (get('models') as unknown[]) : [];
  const items: Array<vscode.QuickPickItem & { value: string }> = [];
  for (const m of models) {
    if (!isRecord(m) || typeof m.name !== 'string' || !m.name) continue;
    items.push({
      label: m.name,
      value: m.name,
      description: [str(m.model), str(m.baseUrl)].filter(Boolean).join(' · '),
      picked: m.name === current,
    });
  }
  if (current && !items.some((i) => i.value === current)) items.unshift({ label: current, value: current, description: str(get('apiBaseUrl')), picked: true });
  items.push({ label: vscode.l10n.t('$(gear) Edit model profiles…'), value: '' });
  const pick = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Model for GoVibe (current: {0})', current || '—') });
  if (!pick) return undefined;
  if (pick.value === '') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'govibe.model');
    return undefined;
  }
  return pick.value;
}
