import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTING_DEFAULTS, SETTING_SCOPES } from '../src/settings.gen';
import { SETTING_KEYS, buildSettings, setting, findPlainKeys, modelsWithoutKey, profileNames, secretKey, type Inspected } from '../src/settings';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));

function getter(values: Record<string, unknown>) {
  return (key: string) => values[key];
}

describe('settings mapping', () => {
  it('lists exactly the settings the manifest contributes', () => {
    const contributed = Object.keys(manifest.contributes.configuration.properties)
      .map((k) => k.replace(/^govibe\./, ''))
      .sort();
    expect(contributed).toEqual([...SETTING_KEYS].sort());
  });

  it('copies values verbatim without the prefix and keeps keys out of values', () => {
    const s = buildSettings(
      getter({
        model: 'deepseek-reasoner',
        'compact.threshold': 0.7,
        'permissions.deny': ['Bash(rm *)'],
        apiKey: 'plain-top',
        models: [
          { name: 'fast', model: 'deepseek-chat', apiKey: 'plain-fast' },
          { name: 'local', model: 'qwen' },
        ],
      }),
      {},
    );
    expect(s.values).toEqual({
      model: 'deepseek-reasoner',
      'compact.threshold': 0.7,
      'permissions.deny': ['Bash(rm *)'],
      models: [
        { name: 'fast', model: 'deepseek-chat' },
        { name: 'local', model: 'qwen' },
      ],
    });
    expect(s.apiKeys).toEqual({ '': 'plain-top', fast: 'plain-fast' });
    expect(JSON.stringify(s.values)).not.toContain('plain-');
  });

  it('prefers SecretStorage keys over plain ones and omits empty key maps', () => {
    const s = buildSettings(getter({ apiKey: 'plain', models: [{ name: 'fast', apiKey: 'p2' }] }), { '': 'secret', other: 'k3', fast: '' });
    expect(s.apiKeys).toEqual({ '': 'secret', fast: 'p2', other: 'k3' });
    expect(buildSettings(getter({}), {})).toEqual({ values: {} });
  });

  it('finds plain keys and profile names, ignoring malformed entries', () => {
    const get = getter({ models: [{ name: 'a', apiKey: 'k' }, 'junk', { apiKey: 'nameless' }, { name: 'b' }, null] });
    expect(findPlainKeys(get)).toEqual([{ profile: 'a', key: 'k' }]);
    expect(profileNames(get)).toEqual(['a', 'b']);
    expect(profileNames(getter({ models: 'nope' }))).toEqual([]);
  });

  it('removes one profile key when moving it to SecretStorage', () => {
    const models = [{ name: 'a', apiKey: 'k', model: 'm' }, { name: 'b', apiKey: 'k2' }];
    expect(modelsWithoutKey(models, 'a')).toEqual([{ name: 'a', model: 'm' }, { name: 'b', apiKey: 'k2' }]);
    expect(models[0].apiKey).toBe('k');
  });

  it('names secret slots per profile', () => {
    expect(secretKey('')).toBe('govibe.apiKey');
    expect(secretKey('fast')).toBe('govibe.apiKey.fast');
  });
});

describe('workspace values travel apart from the user\'s', () => {
  it('sends the user level as values and the workspace level as workspace, for the sidecar to filter by scope', () => {
    const inspected: Record<string, Inspected> = {
      'permissions.allow': { globalValue: ['Bash(npm test*)'], workspaceValue: ['Bash(rm *)'] },
      'permissions.deny': { workspaceValue: ['Bash(git push*)'], workspaceFolderValue: ['Edit(secrets/**)'] },
      apiBaseUrl: { globalValue: 'https://mine', workspaceValue: 'https://evil' },
      'compact.threshold': { workspaceValue: 0.5, workspaceFolderValue: 0.6 },
      'autoApprove.editsDelay': { globalValue: 3 },
      models: { globalValue: [{ name: 'a', apiKey: 'plain' }] },
    };
    const s = buildSettings(getter({}), {}, (k) => inspected[k]);
    expect(s.values).toEqual({
      'permissions.allow': ['Bash(npm test*)'],
      apiBaseUrl: 'https://mine',
      'autoApprove.editsDelay': 3,
      models: [{ name: 'a' }],
    });
    expect(s.workspace).toEqual({
      'permissions.allow': ['Bash(rm *)'],
      'permissions.deny': ['Bash(git push*)', 'Edit(secrets/**)'],
      apiBaseUrl: 'https://evil',
      'compact.threshold': 0.6,
    });
  });

  it('declares a scope for every contributed key, and user-only keys are application- or machine-scoped in VS Code', () => {
    for (const key of SETTING_KEYS) {
      const scope = SETTING_SCOPES[key];
      expect(['workspace', 'restrict', 'user']).toContain(scope);
      const vscodeScope = manifest.contributes.configuration.properties[`govibe.${key}`].scope;
      if (vscodeScope === 'application' || vscodeScope === 'machine') expect(scope).toBe('user');
    }
    expect(SETTING_SCOPES.apiBaseUrl).toBe('user');
    expect(SETTING_SCOPES.proxy).toBe('user');
    expect(SETTING_SCOPES['permissions.allow']).toBe('user');
    expect(SETTING_SCOPES['permissions.deny']).toBe('restrict');
  });

  it('keeps the generated defaults equal to the manifest', () => {
    for (const key of SETTING_KEYS) {
      expect(manifest.contributes.configuration.properties[`govibe.${key}`].default).toEqual(SETTING_DEFAULTS[key]);
    }
  });
});

describe('typed reads', () => {
  it('returns the value with its generated type, or the default when unset or of the wrong type', () => {
    expect(setting(getter({ 'trace.server': true }), 'trace.server')).toBe(true);
    expect(setting(getter({}), 'language')).toBe('auto');
    expect(setting(getter({ 'compact.threshold': 'high' }), 'compact.threshold')).toBe(0.7);
    expect(setting(getter({ 'permissions.deny': 'Bash(rm *)' }), 'permissions.deny')).toEqual([]);
    expect(setting(getter({ 'server.path': '/opt/govibe' }), 'server.path')).toBe('/opt/govibe');
  });
});
