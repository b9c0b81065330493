// "GoVibe: Add Model": preset → key (SecretStorage) → model from the
// endpoint's own list → one probe → a profile in user settings. The sidecar
// does the HTTP (models/*), so proxies and error advice match chat.
import * as vscode from 'vscode';
import type { ClientRequests } from '../protocol.gen';
import { ENTER_ID, checkModelId, modelItems } from '../addModelItems';
import { SECTION, secretKey } from '../settings';

type Request = <M extends keyof ClientRequests>(method: M, params: ClientRequests[M]['params']) => Promise<ClientRequests[M]['result']>;

export async function addModel(request: Request, secrets: vscode.SecretStorage): Promise<string | undefined> {
  const { presets } = await request('models/presets', undefined);
  const preset = await vscode.window.showQuickPick(
    presets.map((p) => ({ label: p.name, description: p.baseUrl, detail: p.local ? vscode.l10n.t('local server, no key') : undefined, p })),
    { title: vscode.l10n.t('Add Model: provider') },
  );
  if (!preset) return undefined;
  const p = preset.p;
  let baseUrl = p.baseUrl;
  if (p.local) {
    const edited = await vscode.window.showInputBox({ title: vscode.l10n.t('Base URL of the local server'), value: p.baseUrl, ignoreFocusOut: true });
    if (edited === undefined) return undefined;
    baseUrl = edited.trim() || p.baseUrl;
  }
  let apiKey = '';
  if (!p.local) {
    const key = await vscode.window.showInputBox({
      title: vscode.l10n.t('API key for {0}', p.name),
      prompt: vscode.l10n.t('Stored in VS Code secret storage.'),
      password: true,
      ignoreFocusOut: true,
    });
    if (!key?.trim()) return undefined;
    apiKey = key.trim();
  }
  const endpoint = { preset: p.id, baseUrl, apiKey };
  const { models, fromPreset } = await request('models/list', endpoint);
  const items = modelItems(models, {
    window: (size) => vscode.l10n.t('window {0}', size),
    enter: vscode.l10n.t('Enter a model id…'),
    enterDetail: vscode.l10n.t('a model the list does not show'),
  });
  const chosen = await vscode.window.showQuickPick(items, {
    title: fromPreset ? vscode.l10n.t('Add Model: model ({0} has no model list; these are the models GoVibe knows)', p.name) : vscode.l10n.t('Add Model: model'),
  });
  if (!chosen) return undefined;
  let modelId = chosen.id;
  if (modelId === ENTER_ID) {
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Model id for {0}', p.name),
      ignoreFocusOut: true,
      validateInput: (v) => {
        const why = checkModelId(v);
        if (why === 'empty') return vscode.l10n.t('Enter the model id, as the provider names it.');
        if (why === 'spaces') return vscode.l10n.t('A model id has no spaces.');
        return undefined;
      },
    });
    if (typed === undefined || checkModelId(typed)) return undefined;
    modelId = typed.trim();
  }
  const picked = { m: models.find((m) => m.id === modelId) ?? { id: modelId } };
  const probe = await request('models/probe', { ...endpoint, model: picked.m.id });
  const yes = (b: boolean) => (b ? '✓' : '✗');
  const summary = vscode.l10n.t(
    'streaming {0} · tools {1} · usage {2} · reasoning {3}',
    yes(probe.streaming),
    yes(probe.tools),
    yes(probe.usage),
    yes(probe.reasoning),
  );
  const name = `${p.id}/${picked.m.id}`;
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const profiles = (cfg.get<Record<string, unknown>[]>('models') ?? []).filter((x) => x.name !== name);
  const profile: Record<string, unknown> = { name, preset: p.id, baseUrl, model: picked.m.id, toolCalling: probe.tools ? 'auto' : 'text' };
  for (const k of ['contextWindow', 'maxOutputTokens', 'priceInput', 'priceCachedInput', 'priceOutput'] as const) {
    if (picked.m[k]) profile[k] = picked.m[k];
  }
  if (apiKey) await secrets.store(secretKey(name), apiKey);
  await cfg.update('models', [...profiles, profile], vscode.ConfigurationTarget.Global);
  const use = vscode.l10n.t('Use it now');
  const choice = await vscode.window.showInformationMessage(vscode.l10n.t('Added {0} ({1}).', name, summary), use);
  if (choice === use) await cfg.update('model', name, vscode.ConfigurationTarget.Global);
  return name;
}
