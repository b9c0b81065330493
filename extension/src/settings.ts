// Mapping between VS Code's govibe.* configuration and the protocol's
// Settings snapshot. Pure: the host adapter passes a getter. API keys never
// travel in Settings.values; they go in apiKeys, keyed by profile name
// ("" = the default model).
import type { Settings } from './protocol.gen';

import { LEGACY_SETTING_KEYS, SETTING_DEFAULTS, SETTING_KEYS, type SettingKey, type SettingValues } from './settings.gen';

export { SETTING_KEYS, type SettingKey, type SettingValues };

export const SECTION = 'govibe';

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

/** Reads one setting with its generated type; a value of the wrong type reads as the default. */
export function setting<K extends SettingKey>(get: Getter, key: K): SettingValues[K] {
  const v = get(key);
  const d = SETTING_DEFAULTS[key];
  if (v === undefined || v === null) return d;
  if (Array.isArray(d) ? Array.isArray(v) : typeof v === typeof d) return v as SettingValues[K];
  return d;
}

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

/** Where a setting's value comes from, as vscode's WorkspaceConfiguration.inspect reports it. */
export interface Inspected {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * Builds the snapshot sent in initialize and settings/didChange. Keys from
 * SecretStorage (`secrets`) win over plain ones; plain keys still work so a
 * user who has not moved them yet is not locked out.
 *
 * With `inspect`, values carries the user level only and workspace what the
 * workspace and its folders set: the sidecar applies the settings schema's
 * scopes (a workspace may restrict but never allow) and names each key it
 * ignores. Unset keys are left out; both sides' defaults come from the one
 * schema.
 */
export function buildSettings(
  get: Getter,
  secrets: Readonly<Record<string, string>>,
  inspect?: (key: string) => Inspected | undefined,
): Settings {
  const values: Record<string, unknown> = {};
  const workspace: Record<string, unknown> = {};
  for (const key of [...SETTING_KEYS, ...LEGACY_SETTING_KEYS] as string[]) {
    if (inspect) {
      const i = inspect(key);
      if (i?.globalValue !== undefined) values[key] = key === 'models' ? stripKeys(i.globalValue) : i.globalValue;
      const ws = workspaceValue(i);
      if (ws !== undefined) workspace[key] = key === 'models' ? stripKeys(ws) : ws;
      continue;
    }
    const v = get(key);
    if (v === undefined) continue;
    values[key] = key === 'models' ? stripKeys(v) : v;
  }
  const apiKeys: Record<string, string> = {};
  for (const p of findPlainKeys(get)) apiKeys[p.profile] = p.key;
  for (const [profile, key] of Object.entries(secrets)) if (key !== '') apiKeys[profile] = key;
  const out: Settings = { values };
  if (Object.keys(apiKeys).length > 0) out.apiKeys = apiKeys;
  if (Object.keys(workspace).length > 0) out.workspace = workspace;
  return out;
}

/** A workspace's value: rule lists of the workspace and its folders add up; otherwise the folder wins. */
function workspaceValue(i: Inspected | undefined): unknown {
  const ws = i?.workspaceValue;
  const folder = i?.workspaceFolderValue;
  if (Array.isArray(ws) && Array.isArray(folder)) return [...ws, ...folder];
  return folder !== undefined ? folder : ws;
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
