// "GoVibe: Add Model": provider (a preset, or a custom OpenAI-compatible
// endpoint) → key (SecretStorage) → model from the endpoint's own list →
// one probe → a profile in user settings. The sidecar does the HTTP
// (models/*), so proxies and error advice match chat. An endpoint that
// does not answer right now never loses what was typed: the model id is
// typed instead of picked, and the profile is saved unprobed, saying so.
import * as vscode from 'vscode';
import type { ClientRequests, ModelInfo, ModelPreset, ModelsProbeResult } from '../protocol.gen';
import { ENTER_ID, checkBaseUrl, checkModelId, customProfileName, modelItems, newProfile, normalizeBaseUrl } from '../addModelItems';
import { SECTION, secretKey } from '../settings';

type Request = <M extends keyof ClientRequests>(method: M, params: ClientRequests[M]['params']) => Promise<ClientRequests[M]['result']>;

/** The preset id models/list and models/probe take for a custom endpoint. */
const CUSTOM = 'custom';

export interface AddModelOptions {
  /** Make the new profile the model without asking (the model button with no profile yet). */
  use?: boolean;
}

interface Endpoint {
  preset: string;
  baseUrl: string;
  apiKey: string;
  /** How the user knows it: the preset's name or the custom URL's host. */
  label: string;
}

export async function addModel(request: Request, secrets: vscode.SecretStorage, opts: AddModelOptions = {}): Promise<string | undefined> {
  const { presets } = await request('models/presets', undefined);
  const ep = await chooseEndpoint(presets);
  if (!ep) return undefined;
  const model = await chooseModel(request, ep);
  if (!model) return undefined;
  let name = ep.preset === CUSTOM ? customProfileName(ep.baseUrl, model.id) : `${ep.preset}/${model.id}`;
  if (ep.preset === CUSTOM) {
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Name of this model profile'),
      prompt: vscode.l10n.t('Shown on the model button and written to govibe.model.'),
      value: name,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a name.')),
    });
    if (typed === undefined || !typed.trim()) return undefined;
    name = typed.trim();
  }
  let probe: ModelsProbeResult | undefined;
  let probeError = '';
  try {
    probe = await request('models/probe', { preset: ep.preset, baseUrl: ep.baseUrl, apiKey: ep.apiKey, model: model.id });
  } catch (err) {
    probeError = errorText(err);
  }
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const profiles = (cfg.get<Record<string, unknown>[]>('models') ?? []).filter((x) => x.name !== name);
  const profile = newProfile({ name, preset: ep.preset === CUSTOM ? undefined : ep.preset, baseUrl: ep.baseUrl, model: model.id, probe, figures: model });
  if (ep.apiKey) await secrets.store(secretKey(name), ep.apiKey);
  await cfg.update('models', [...profiles, profile], vscode.ConfigurationTarget.Global);
  if (opts.use) await useModel(cfg, name);
  const use = vscode.l10n.t('Use it now');
  const buttons = opts.use ? [] : [use];
  let choice: string | undefined;
  if (probe) {
    const yes = (b: boolean) => (b ? '✓' : '✗');
    const summary = vscode.l10n.t('streaming {0} · tools {1} · usage {2} · reasoning {3}', yes(probe.streaming), yes(probe.tools), yes(probe.usage), yes(probe.reasoning));
    const text = opts.use ? vscode.l10n.t('Added {0} ({1}); it is the model now.', name, summary) : vscode.l10n.t('Added {0} ({1}).', name, summary);
    choice = await vscode.window.showInformationMessage(text, ...buttons);
  } else {
    choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Added {0}, but {1} did not answer: {2} The profile is saved; GoVibe checks the endpoint again when it is used.', name, ep.label, probeError),
      ...buttons,
    );
  }
  if (choice === use) await useModel(cfg, name);
  return name;
}

/** Sets govibe.model where it is set now (workspace over user), so it takes effect. */
async function useModel(cfg: vscode.WorkspaceConfiguration, name: string): Promise<void> {
  const target = cfg.inspect<string>('model')?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await cfg.update('model', name, target);
}

async function chooseEndpoint(presets: ModelPreset[]): Promise<Endpoint | undefined> {
  const custom = {
    label: vscode.l10n.t('Custom OpenAI-compatible endpoint…'),
    description: vscode.l10n.t('any server that speaks the OpenAI API'),
    detail: vscode.l10n.t('a base URL, a model id, a key if it needs one'),
    p: undefined as ModelPreset | undefined,
  };
  const picked = await vscode.window.showQuickPick(
    [...presets.map((p) => ({ label: p.name, description: p.baseUrl, detail: p.local ? vscode.l10n.t('local server, no key') : undefined, p })), custom],
    { title: vscode.l10n.t('Add Model: provider') },
  );
  if (!picked) return undefined;
  const p = picked.p;
  if (!p) {
    const url = await vscode.window.showInputBox({
      title: vscode.l10n.t('Base URL of the endpoint'),
      prompt: vscode.l10n.t('Where /chat/completions and /models are found, usually ending in /v1.'),
      placeHolder: 'https://llm.example.com/v1',
      ignoreFocusOut: true,
      validateInput: (v) => {
        const why = checkBaseUrl(v);
        if (why === 'empty') return vscode.l10n.t('Enter the base URL.');
        if (why === 'scheme') return vscode.l10n.t('Enter an http:// or https:// address.');
        return undefined;
      },
    });
    if (url === undefined || checkBaseUrl(url)) return undefined;
    const baseUrl = normalizeBaseUrl(url);
    const key = await vscode.window.showInputBox({
      title: vscode.l10n.t('API key for {0} (optional)', new URL(baseUrl).host),
      prompt: vscode.l10n.t('Stored in VS Code secret storage. Leave empty if the server needs none.'),
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return undefined;
    return { preset: CUSTOM, baseUrl, apiKey: key.trim(), label: new URL(baseUrl).host };
  }
  let baseUrl = p.baseUrl;
  if (p.local) {
    const edited = await vscode.window.showInputBox({ title: vscode.l10n.t('Base URL of the local server'), value: p.baseUrl, ignoreFocusOut: true });
    if (edited === undefined) return undefined;
    baseUrl = normalizeBaseUrl(edited) || p.baseUrl;
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
  return { preset: p.id, baseUrl, apiKey, label: p.name };
}

/** The model: picked from the endpoint's list, or typed when it has none or does not answer. */
async function chooseModel(request: Request, ep: Endpoint): Promise<ModelInfo | undefined> {
  let listed: { models: ModelInfo[]; fromPreset?: boolean } | undefined;
  let listError = '';
  try {
    listed = await request('models/list', { preset: ep.preset, baseUrl: ep.baseUrl, apiKey: ep.apiKey });
  } catch (err) {
    listError = errorText(err);
  }
  let id = ENTER_ID;
  if (listed) {
    const items = modelItems(listed.models, {
      window: (size) => vscode.l10n.t('window {0}', size),
      enter: vscode.l10n.t('Enter a model id…'),
      enterDetail: vscode.l10n.t('a model the list does not show'),
    });
    const chosen = await vscode.window.showQuickPick(items, {
      title: listed.fromPreset ? vscode.l10n.t('Add Model: model ({0} has no model list; these are the models GoVibe knows)', ep.label) : vscode.l10n.t('Add Model: model'),
    });
    if (!chosen) return undefined;
    id = chosen.id;
  }
  if (id === ENTER_ID) {
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Model id for {0}', ep.label),
      prompt: listError ? vscode.l10n.t('{0} did not list its models ({1}). Type the model id; the profile can be saved all the same.', ep.label, listError) : undefined,
      ignoreFocusOut: true,
      validateInput: (v) => {
        const why = checkModelId(v);
        if (why === 'empty') return vscode.l10n.t('Enter the model id, as the provider names it.');
        if (why === 'spaces') return vscode.l10n.t('A model id has no spaces.');
        return undefined;
      },
    });
    if (typed === undefined || checkModelId(typed)) return undefined;
    id = typed.trim();
  }
  return listed?.models.find((m) => m.id === id) ?? { id };
}

function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return /[.!?。]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}
