// Model set-up always leads somewhere: Pick Model with no profile opens Add
// Model, Add Model offers a custom OpenAI-compatible endpoint, an endpoint
// that does not answer still gets its profile saved (and says so), and Set
// API Key says the key was stored. The vscode API is the recording fake,
// its dialogs answered by a script.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkBaseUrl, customProfileName, newProfile, normalizeBaseUrl } from '../src/addModelItems';
import { ConfigurationTarget, commands, recorded, window, workspace } from './fakeVscode';

vi.mock('vscode', () => import('./fakeVscode'));

type Step = { kind: 'pick' | 'input'; title?: string; prompt?: string; value?: string; labels?: string[]; validate?: (v: string) => unknown };
type Answer = (step: Step) => unknown;

let script: Answer[] = [];
let steps: Step[] = [];
let config: Record<string, unknown> = {};
let updates: Array<[string, unknown, unknown]> = [];
let shown: Array<{ level: string; text: string; buttons: string[] }> = [];
const saved = { ...window, getConfiguration: workspace.getConfiguration, executeCommand: commands.executeCommand };

beforeEach(() => {
  script = [];
  steps = [];
  config = {};
  updates = [];
  shown = [];
  recorded.secrets.clear();
  const next = (step: Step) => {
    steps.push(step);
    const answer = script.shift();
    if (!answer) throw new Error(`no scripted answer for ${step.kind} "${step.title}"`);
    return answer(step);
  };
  window.showQuickPick = (async (items: Array<{ label: string }>, o: { title?: string; placeHolder?: string }) => {
    const labels = items.map((i) => i.label);
    const label = next({ kind: 'pick', title: o?.title ?? o?.placeHolder, labels });
    return label === undefined ? undefined : items.find((i) => i.label === label);
  }) as any;
  window.showInputBox = (async (o: { title?: string; prompt?: string; value?: string; validateInput?: (v: string) => unknown }) =>
    next({ kind: 'input', title: o.title, prompt: o.prompt, value: o.value, validate: o.validateInput })) as any;
  const message = (level: string) => (async (text: string, ...buttons: string[]) => {
    shown.push({ level, text, buttons });
    return undefined;
  }) as any;
  window.showInformationMessage = message('info');
  window.showWarningMessage = message('warning');
  window.showErrorMessage = message('error');
  workspace.getConfiguration = (() => ({
    get: (k: string) => config[k],
    inspect: (k: string) => (config[k] === undefined ? undefined : { key: k, globalValue: config[k] }),
    update: async (k: string, v: unknown, target: unknown) => {
      updates.push([k, v, target]);
      config[k] = v;
    },
  })) as any;
});

afterEach(() => {
  Object.assign(window, saved);
  workspace.getConfiguration = saved.getConfiguration;
  commands.executeCommand = saved.executeCommand;
});

const secrets = {
  get: async (k: string) => recorded.secrets.get(k),
  store: async (k: string, v: string) => void recorded.secrets.set(k, v),
  delete: async (k: string) => void recorded.secrets.delete(k),
  onDidChange: () => ({ dispose: () => undefined }),
};

const presets = [{ id: 'deepseek', name: 'DeepSeek', baseUrl: 'https://api.deepseek.com', local: false, reasoningEffort: false }];
const probeOK = { streaming: true, tools: true, usage: true, cached: false, reasoning: false };

/** A models/* stand-in: answers or throws per method, and records the calls. */
function sidecar(answers: Record<string, unknown | Error>) {
  const calls: Array<[string, any]> = [];
  const request = (async (method: string, params: any) => {
    calls.push([method, params]);
    const a = method === 'models/presets' ? { presets } : answers[method];
    if (a instanceof Error) throw a;
    return a;
  }) as any;
  return { request, calls };
}

const pick = (label: string): Answer => (s) => {
  expect(s.kind).toBe('pick');
  expect(s.labels).toContain(label);
  return label;
};
const type = (text: string | ((s: Step) => string)): Answer => (s) => {
  expect(s.kind).toBe('input');
  return typeof text === 'function' ? text(s) : text;
};
const CUSTOM = 'Custom OpenAI-compatible endpoint…';

describe('Pick Model', () => {
  it('opens Add Model when there is no profile yet, and returns what it made', async () => {
    const executed: Array<[string, unknown[]]> = [];
    commands.executeCommand = (async (id: string, ...args: unknown[]) => {
      executed.push([id, args]);
      return 'llm.local/qwen';
    }) as any;
    const { pickModel } = await import('../src/modelPicker');
    expect(await pickModel()).toBe('llm.local/qwen');
    expect(executed).toEqual([['govibe.addModel', [{ use: true }]]]);
    expect(shown).toEqual([]);
  });

  it('still shows the profiles when there are some', async () => {
    config.models = [{ name: 'fast', model: 'fast-model' }];
    script = [pick('fast')];
    const { pickModel } = await import('../src/modelPicker');
    expect(await pickModel()).toBe('fast');
    expect(updates).toEqual([['model', 'fast', ConfigurationTarget.Global]]);
  });
});

describe('Add Model', () => {
  it('offers a custom OpenAI-compatible endpoint: base URL, optional key, model from its list, a name', async () => {
    const { request, calls } = sidecar({ 'models/list': { models: [{ id: 'qwen', contextWindow: 32768 }] }, 'models/probe': probeOK });
    script = [
      pick(CUSTOM),
      type((s) => {
        expect(s.validate!('ftp://x')).toBe('Enter an http:// or https:// address.');
        expect(s.validate!('')).toBe('Enter the base URL.');
        expect(s.validate!('http://llm.local:8000/v1')).toBeUndefined();
        return 'http://llm.local:8000/v1/chat/completions';
      }),
      type(''), // no key: the server needs none
      pick('qwen'),
      type((s) => {
        expect(s.value).toBe('llm.local:8000/qwen');
        return s.value!;
      }),
    ];
    const { addModel } = await import('../src/host/addModel');
    expect(await addModel(request, secrets as any)).toBe('llm.local:8000/qwen');
    expect(calls.map((c) => c[0])).toEqual(['models/presets', 'models/list', 'models/probe']);
    expect(calls[1][1]).toEqual({ preset: 'custom', baseUrl: 'http://llm.local:8000/v1', apiKey: '' });
    expect(updates[0]).toEqual([
      'models',
      [{ name: 'llm.local:8000/qwen', baseUrl: 'http://llm.local:8000/v1', model: 'qwen', toolCalling: 'auto', contextWindow: 32768 }],
      ConfigurationTarget.Global,
    ]);
    expect(recorded.secrets.size).toBe(0);
    expect(shown).toEqual([{ level: 'info', text: expect.stringContaining('Added llm.local:8000/qwen'), buttons: ['Use it now'] }]);
  });

  it('saves a profile whose endpoint is down, says so, and keeps every answer', async () => {
    const down = new Error('Cannot reach http://llm.local:8000/v1: connection refused');
    const { request } = sidecar({ 'models/list': down, 'models/probe': down });
    script = [
      pick(CUSTOM),
      type('http://llm.local:8000/v1'),
      type('sk-custom'),
      type((s) => {
        // No list to pick from: the model id is typed, and the prompt says why.
        expect(s.title).toBe('Model id for llm.local:8000');
        expect(s.prompt).toContain('connection refused');
        return 'qwen2.5-coder:7b';
      }),
      type('home'),
    ];
    const { addModel } = await import('../src/host/addModel');
    // From the model button with no profile: it becomes the model at once.
    expect(await addModel(request, secrets as any, { use: true })).toBe('home');
    expect(config.models).toEqual([{ name: 'home', baseUrl: 'http://llm.local:8000/v1', model: 'qwen2.5-coder:7b', toolCalling: 'auto' }]);
    expect(config.model).toBe('home');
    expect(recorded.secrets.get('govibe.apiKey.home')).toBe('sk-custom');
    expect(shown).toHaveLength(1);
    expect(shown[0].level).toBe('warning');
    expect(shown[0].text).toContain('did not answer');
    expect(shown[0].text).toContain('connection refused');
    expect(shown[0].text).toContain('The profile is saved');
    expect(shown[0].buttons).toEqual([]);
  });

  it('keeps a preset profile when only the probe fails', async () => {
    const { request } = sidecar({ 'models/list': { models: [{ id: 'deepseek-chat', contextWindow: 128000, priceInput: 0.28 }] }, 'models/probe': new Error('timeout') });
    script = [pick('DeepSeek'), type('sk-ds'), pick('deepseek-chat')];
    const { addModel } = await import('../src/host/addModel');
    expect(await addModel(request, secrets as any)).toBe('deepseek/deepseek-chat');
    expect(config.models).toEqual([
      { name: 'deepseek/deepseek-chat', preset: 'deepseek', baseUrl: 'https://api.deepseek.com', model: 'deepseek-chat', toolCalling: 'auto', contextWindow: 128000, priceInput: 0.28 },
    ]);
    expect(recorded.secrets.get('govibe.apiKey.deepseek/deepseek-chat')).toBe('sk-ds');
    expect(shown[0]).toEqual({ level: 'warning', text: expect.stringContaining('DeepSeek did not answer: timeout.'), buttons: ['Use it now'] });
    expect(config.model).toBeUndefined();
  });

  it('stops without writing anything when a step is cancelled', async () => {
    const { request } = sidecar({});
    script = [pick(CUSTOM), () => undefined];
    const { addModel } = await import('../src/host/addModel');
    expect(await addModel(request, secrets as any)).toBeUndefined();
    expect(updates).toEqual([]);
  });
});

describe('Add Model logic', () => {
  it('takes a base URL as typed or pasted', () => {
    expect(normalizeBaseUrl(' http://h:1/v1/ ')).toBe('http://h:1/v1');
    expect(normalizeBaseUrl('https://h/v1/chat/completions')).toBe('https://h/v1');
    expect(checkBaseUrl('localhost:8000/v1')).toBe('scheme');
    expect(checkBaseUrl('  ')).toBe('empty');
    expect(checkBaseUrl('https://h/v1')).toBeUndefined();
    expect(customProfileName('http://10.0.0.5:8000/v1', 'm')).toBe('10.0.0.5:8000/m');
  });

  it('leaves tool calling to the first request when the endpoint was not probed', () => {
    expect(newProfile({ name: 'n', baseUrl: 'u', model: 'm' }).toolCalling).toBe('auto');
    expect(newProfile({ name: 'n', baseUrl: 'u', model: 'm', probe: { tools: false } }).toolCalling).toBe('text');
  });
});

describe('Set API Key', () => {
  it('says the key was stored, or removed', async () => {
    const { ApiKeys } = await import('../src/host/apiKeys');
    const keys = new ApiKeys(secrets as any);
    script = [type('  sk-new  ')];
    expect(await keys.promptAndStore()).toBe(true);
    expect(recorded.secrets.get('govibe.apiKey')).toBe('sk-new');
    expect(shown).toEqual([{ level: 'info', text: 'The API key for the default model is stored in VS Code secret storage; the next request uses it.', buttons: [] }]);

    config.models = [{ name: 'fast', model: 'fast-model' }];
    script = [pick('fast'), type('')];
    recorded.secrets.set('govibe.apiKey.fast', 'old');
    expect(await keys.promptAndStore()).toBe(true);
    expect(recorded.secrets.has('govibe.apiKey.fast')).toBe(false);
    expect(shown.at(-1)!.text).toBe('The API key for fast was removed from VS Code secret storage.');

    script = [() => undefined];
    const before = shown.length;
    expect(await keys.promptAndStore()).toBe(false);
    expect(shown).toHaveLength(before);
  });
});

describe('API keys at start-up', () => {
  it('reads the keys of every profile at once, not one round trip after another', async () => {
    const { ApiKeys } = await import('../src/host/apiKeys');
    config.models = [{ name: 'fast', model: 'f' }, { name: 'slow', model: 's' }];
    recorded.secrets.set('govibe.apiKey', 'sk-default');
    recorded.secrets.set('govibe.apiKey.slow', 'sk-slow');
    // Each read answers only once every read has been asked for: reads made
    // one after another would never finish.
    const asked: string[] = [];
    const waiting: Array<() => void> = [];
    const slowSecrets = {
      get: (k: string) =>
        new Promise<string | undefined>((resolve) => {
          asked.push(k);
          waiting.push(() => resolve(recorded.secrets.get(k)));
          if (asked.length === 3) waiting.forEach((w) => w());
        }),
    };
    const keys = await new ApiKeys(slowSecrets as any).load();
    expect(asked).toEqual(['govibe.apiKey', 'govibe.apiKey.fast', 'govibe.apiKey.slow']);
    expect(keys).toEqual({ '': 'sk-default', slow: 'sk-slow' });
  });
});
