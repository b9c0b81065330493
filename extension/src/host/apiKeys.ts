// API keys live in SecretStorage. Keys still found in plain settings work
// but trigger an offer to move them.
import * as vscode from 'vscode';
import { SECTION, findPlainKeys, modelsWithoutKey, profileNames, secretKey } from '../settings';

export class ApiKeys {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  /**
   * Keys from SecretStorage for the default slot and every profile. The
   * reads go out together: each is a round trip to the window, which is
   * busy while it starts, and the server's start waits for them.
   */
  async load(): Promise<Record<string, string>> {
    const cfg = vscode.workspace.getConfiguration(SECTION);
    const profiles = ['', ...profileNames((k) => cfg.get(k))];
    const keys = await Promise.all(profiles.map((p) => this.secrets.get(secretKey(p))));
    const out: Record<string, string> = {};
    profiles.forEach((p, i) => {
      const key = keys[i];
      if (key) out[p] = key;
    });
    return out;
  }

  /**
   * `make run` and scripted set-ups hand the key in GOVIBE_API_KEY. It goes
   * into SecretStorage once (never into settings) and only when no key is
   * stored yet, so a key the user set always wins.
   */
  async importFromEnvironment(env: NodeJS.ProcessEnv): Promise<boolean> {
    const key = env.GOVIBE_API_KEY?.trim();
    if (!key || (await this.secrets.get(secretKey('')))) return false;
    await this.secrets.store(secretKey(''), key);
    return true;
  }

  /** "GoVibe: Set API Key". Returns true when something was stored or removed. */
  async promptAndStore(): Promise<boolean> {
    const cfg = vscode.workspace.getConfiguration(SECTION);
    const profiles = profileNames((k) => cfg.get(k));
    let profile = '';
    if (profiles.length > 0) {
      const picked = await vscode.window.showQuickPick(
        [
          { label: vscode.l10n.t('Default'), description: String(cfg.get('apiBaseUrl') ?? ''), profile: '' },
          ...profiles.map((p) => ({ label: p, description: vscode.l10n.t('model profile'), profile: p })),
        ],
        { title: vscode.l10n.t('Which API key do you want to set?') },
      );
      if (!picked) return false;
      profile = picked.profile;
    }
    const key = await vscode.window.showInputBox({
      title: profile === '' ? vscode.l10n.t('GoVibe API key') : vscode.l10n.t('API key for {0}', profile),
      prompt: vscode.l10n.t('Stored in VS Code secret storage. Leave empty to remove the key.'),
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return false;
    const which = profile === '' ? vscode.l10n.t('the default model') : profile;
    if (key.trim() === '') {
      await this.secrets.delete(secretKey(profile));
      void vscode.window.showInformationMessage(vscode.l10n.t('The API key for {0} was removed from VS Code secret storage.', which));
    } else {
      await this.secrets.store(secretKey(profile), key.trim());
      // Read back: say it is stored only once it is.
      const stored = (await this.secrets.get(secretKey(profile))) === key.trim();
      if (stored) void vscode.window.showInformationMessage(vscode.l10n.t('The API key for {0} is stored in VS Code secret storage; the next request uses it.', which));
      else void vscode.window.showErrorMessage(vscode.l10n.t('The API key for {0} could not be stored in VS Code secret storage.', which));
    }
    return true;
  }

  /** Offers to move plain-text keys into SecretStorage. */
  async warnAboutPlainKeys(): Promise<void> {
    const cfg = vscode.workspace.getConfiguration(SECTION);
    const plain = findPlainKeys((k) => cfg.get(k));
    if (plain.length === 0) return;
    const where = plain.map((p) => (p.profile === '' ? 'govibe.apiKey' : `govibe.models[${p.profile}].apiKey`)).join(', ');
    const move = vscode.l10n.t('Move to Secret Storage');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('An API key is stored in plain-text settings ({0}). It still works, but anyone who can read your settings can read it.', where),
      move,
    );
    if (choice !== move) return;
    for (const p of plain) await this.secrets.store(secretKey(p.profile), p.key);
    await removePlainKeys(plain.map((p) => p.profile));
    void vscode.window.showInformationMessage(vscode.l10n.t('The API key was moved to secret storage.'));
  }
}

const TARGETS: Array<[keyof ScopedValues, vscode.ConfigurationTarget]> = [
  ['globalValue', vscode.ConfigurationTarget.Global],
  ['workspaceValue', vscode.ConfigurationTarget.Workspace],
  ['workspaceFolderValue', vscode.ConfigurationTarget.WorkspaceFolder],
];

interface ScopedValues {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** Removes keys from whichever scopes hold them; never writes a key anywhere. */
async function removePlainKeys(profiles: string[]): Promise<void> {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  if (profiles.includes('')) {
    const inspected = cfg.inspect('apiKey') as ScopedValues | undefined;
    for (const [field, target] of TARGETS) {
      if (inspected?.[field] !== undefined) await cfg.update('apiKey', undefined, target);
    }
  }
  const named = profiles.filter((p) => p !== '');
  if (named.length === 0) return;
  const inspected = cfg.inspect('models') as ScopedValues | undefined;
  for (const [field, target] of TARGETS) {
    let models = inspected?.[field];
    if (models === undefined) continue;
    const before = JSON.stringify(models);
    for (const p of named) models = modelsWithoutKey(models, p);
    if (JSON.stringify(models) !== before) await cfg.update('models', models, target);
  }
}
