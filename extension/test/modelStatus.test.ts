import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import type { ModelStatus } from '../shared/webviewMessages';
import { isLoopback, refreshModelStatus, resolveModel } from '../src/host/modelStatus';

const getter = (v: Record<string, unknown>) => (k: string) => v[k];

describe('model status', () => {
  test('a profile name selects its model, base URL and key', () => {
    const get = getter({
      model: 'fast',
      apiBaseUrl: 'https://api.deepseek.com',
      models: [{ name: 'fast', model: 'deepseek-chat', baseUrl: 'https://example.test/v1' }, { name: 'other' }],
    });
    expect(resolveModel(get, { fast: 'sk-1' })).toEqual({
      label: 'fast',
      model: 'deepseek-chat',
      baseUrl: 'https://example.test/v1',
      key: 'set',
      profiles: ['fast', 'other'],
    });
    expect(resolveModel(get, {}).key).toBe('missing');
    // The default key stands in for a profile without one.
    expect(resolveModel(get, { '': 'sk-0' }).key).toBe('set');
  });

  test('a plain model id uses the top-level endpoint; loopback needs no key', () => {
    expect(resolveModel(getter({ model: 'gpt-x', apiBaseUrl: 'http://127.0.0.1:9/v1' }), {})).toMatchObject({
      label: 'gpt-x',
      model: 'gpt-x',
      key: 'notNeeded',
    });
    expect(isLoopback('http://localhost:8080')).toBe(true);
    expect(isLoopback('https://api.openai.com')).toBe(false);
    expect(isLoopback('not a url')).toBe(false);
  });

  test('a missing key is a problem at once; an unreachable endpoint after the probe', async () => {
    const seen: ModelStatus[] = [];
    await refreshModelStatus(getter({ model: 'm', apiBaseUrl: 'https://api.example.test' }), {}, (s) => seen.push(s));
    expect(seen).toHaveLength(1);
    expect(seen[0].problem).toMatchObject({ action: 'setApiKey' });

    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    seen.length = 0;
    await refreshModelStatus(getter({ model: 'm', apiBaseUrl: `http://127.0.0.1:${port}/v1` }), {}, (s) => seen.push(s));
    expect(seen.map((s) => s.problem?.action)).toEqual([undefined, 'openSettings']);
    expect(seen[1].problem?.unreachable).toBe(true);
  });

  test('any HTTP answer means the endpoint is reachable', async () => {
    const srv = createServer((_, res) => {
      res.statusCode = 401;
      res.end('no');
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const seen: ModelStatus[] = [];
    await refreshModelStatus(getter({ model: 'm', apiBaseUrl: `http://127.0.0.1:${(srv.address() as AddressInfo).port}` }), {}, (s) => seen.push(s));
    srv.close();
    expect(seen).toHaveLength(1);
    expect(seen[0].problem).toBeUndefined();
  });
});
