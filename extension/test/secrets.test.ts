import { describe, expect, it } from 'vitest';
import { sidecarEnv } from '../src/sidecar/spawn';

describe('sidecar environment', () => {
  it('never hands keys or secret-like variables to the sidecar', () => {
    const env = sidecarEnv({
      PATH: '/usr/bin',
      HOME: '/home/u',
      GOVIBE_API_KEY: 'sk-1',
      OPENAI_API_KEY: 'sk-2',
      GITHUB_TOKEN: 'ghp',
      AWS_SECRET: 'x',
      DB_PASSWORD: 'pw',
      HTTPS_PROXY: 'http://proxy:3128',
    });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/u', HTTPS_PROXY: 'http://proxy:3128' });
  });
});
