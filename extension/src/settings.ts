// Mapping between VS Code's govibe.* configuration and the protocol's
// Settings snapshot. Pure: the host adapter passes a getter. API keys never
// travel in Settings.values; they go in apiKeys, keyed by profile name
// ("" = the default model).
import type { Settings } from './protocol.gen';

export const SECTION = 'govibe';

/** Every contributed setting, without the "govibe." prefix. */
export const SETTING_KEYS = [
  'apiBaseUrl',
  'model',
  'models',
  'language',
  'logLevel',
  'proxy',
  'server.path',
  'trace.server',
  'confirmChanges',
  'confirmShellCommand',
  'maxInteractions',
  'autoApprove.edits',
  'autoApprove.editsDelay',
  'autoApprove.readOnlyCommands',
  'editReview.enabled',
  'editReview.timeoutMs',
  'todolistReview.enabled',
  'todolistReview.maxAttempts',
  'todolistReview.timeoutMs',
  'shellCommandReview.enabled',
  'shellCommandReview.maxAttempts',
  'shellCommandReview.timeoutMs',
  'scheduler.maxRetries',
  'compact.threshold',
  'compact.keepTokens',
  'contextWindow',
  'maxOutputTokens',
  'permissions.allow',
  'permissions.ask',
  'permissions.deny',
  'shell.env.passthrough',
  'snapshots.maxAgeDays',
  'snapshots.maxCount',
  'snapshots.maxFileSizeMB',
] as const;

export type SettingKey = (typeof SETTING_KEYS)[number];

/** A legacy plain-text key: not contributed, but honoured with a warning. */
export const PLAIN_API_KEY = 'apiKey';

/** SecretStorage key for a profile's API key. */
export function secretKey(profile: string): string {
  return profile === '' ? 'govibe.apiKey' : `govibe.apiKey.${profile}`;
}

export interface PlainKey {
  /** "" for govibe.apiKey, else the models[] profile name. */
  profile: string;
  key: string;
}

type Getter = (key: string) => unknown;

/** Profile names declared in govibe.models, in order. */
export function profileNames(get: Getter): string[] {
  const models = get('models');
  if (!Array.isArray(models)) return [];
  const names: string[] = [];
  for (const m of models) {
    if (isRecord(m) && typeof m.name === 'string' && m.name !== '') names.push(m.name);
  }
  return names;
}

/** API keys written in plain settings (govibe.apiKey, models[].apiKey). */
export function findPlainKeys(get: Getter): PlainKey[] {
  const out: PlainKey[] = [];
  const top = get(PLAIN_API_KEY);
  if (typeof top === 'string' && top !== '') out.push({ profile: '', key: top });
  const models = get('models');
  if (Array.isArray(models)) {
    for (const m of models) {
      if (isRecord(m) && typeof m.apiKey === 'string' && m.apiKey !== '' && typeof m.name === 'string') {
        out.push({ profile: m.name, key: m.apiKey });
      }
    }
  }
  return out;
}

/**
 * Builds the snapshot sent in initialize and settings/didChange. Keys from
 * SecretStorage (`secrets`) win over plain ones; plain keys still work so a
 * user who has not moved them yet is not locked out.
 */
/** Where a setting's value comes from, as vscode's WorkspaceConfiguration.inspect reports it. */
export interface Inspected {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

const PERMISSION_KEYS = new Set<string>(['permissions.allow', 'permissions.ask', 'permissions.deny']);

export function buildSettings(
  get: Getter,
  secrets: Readonly<Record<string, string>>,
  inspect?: (key: string) => Inspected | undefined,
): Settings {
  const values: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    if (inspect && PERMISSION_KEYS.has(key)) {
      // Permission rules keep their origin: a workspace may add deny and
      // ask rules but never allow rules, so the sidecar must tell them apart.
      const i = inspect(key);
      const user = i?.globalValue;
      if (Array.isArray(user)) values[key] = user;
      const ws = [i?.workspaceValue, i?.workspaceFolderValue].flatMap((v) => (Array.isArray(v) ? v : []));
      if (ws.length > 0) values[key.replace('permissions.', 'permissions.workspace.')] = ws;
      continue;
    }
    const v = get(key);
    if (v === undefined) continue;
    values[key] = key === 'models' ? stripKeys(v) : v;
  }
  const apiKeys: Record<string, string> = {};
  for (const p of findPlainKeys(get)) apiKeys[p.profile] = p.key;
  for (const [profile, key] of Object.entries(secrets)) if (key !== '') apiKeys[profile] = key;
  return Object.keys(apiKeys).length > 0 ? { values, apiKeys } : { values };
}

/** govibe.models without the apiKey of `profile`, for moving it out. */
export function modelsWithoutKey(models: unknown, profile: string): unknown {
  if (!Array.isArray(models)) return models;
  return models.map((m) => {
    if (!isRecord(m) || m.name !== profile || !('apiKey' in m)) return m;
    const { apiKey: _drop, ...rest } = m;
    return rest;
  });
}

/** Whether a configuration change touches anything the sidecar sees. */
export function affectsSidecar(affects: (section: string) => boolean): boolean {
  return affects(SECTION);
}

function stripKeys(models: unknown): unknown {
  if (!Array.isArray(models)) return models;
  return models.map((m) => {
    if (!isRecord(m) || !('apiKey' in m)) return m;
    const { apiKey: _drop, ...rest } = m;
    return rest;
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
