import { afterEach, describe, expect, it } from 'vitest';
import { isSecretName, sidecarEnv, spawnSidecar, withBrowserDriver } from '../src/sidecar/spawn';

describe('sidecar environment', () => {
  it('never hands keys or secret-like variables to the sidecar', () => {
    const env = sidecarEnv({
      PATH: '/usr/bin',
      HOME: '/home/u',
      PWD: '/w',
      GIT_AUTHOR_NAME: 'Ada',
      GOVIBE_API_KEY: 'sk-1',
      OPENAI_API_KEY: 'sk-2',
      GITHUB_TOKEN: 'ghp',
      AWS_SECRET: 'x',
      AWS_ACCESS_KEY_ID: 'AKIA',
      DB_PASSWORD: 'pw',
      MYSQL_PWD: 'pw',
      NPM_CONFIG__AUTH: 'a',
      DOCKER_AUTH_CONFIG: '{}',
      SSH_AUTH_SOCK: '/tmp/agent',
      GPG_AGENT_INFO: '/run/gpg',
      SENTRY_DSN: 'https://k@sentry.io/1',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com/x',
      DATABASE_URL: 'postgres://u:hunter2@db/app',
      REDIS_URL: 'redis://localhost:6379',
      MSSQL: 'Server=db;Password=x;',
      HTTPS_PROXY: 'http://proxy:3128',
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      PWD: '/w',
      GIT_AUTHOR_NAME: 'Ada',
      REDIS_URL: 'redis://localhost:6379',
      HTTPS_PROXY: 'http://proxy:3128',
    });
  });

  it('keeps what govibe.shell.env.passthrough names', () => {
    const env = sidecarEnv({ NPM_TOKEN: 'n', CI_JOB_TOKEN: 'c', GITHUB_TOKEN: 'g', PATH: '/bin' }, ['npm_token', 'CI_*', '*']);
    expect(env).toEqual({ NPM_TOKEN: 'n', CI_JOB_TOKEN: 'c', PATH: '/bin' });
  });

  it('judges names by their words, not by substrings', () => {
    for (const n of ['SECRET_KEY_BASE', 'apiKey', 'SESSION_COOKIE', 'CI_JOB_JWT', 'GITLAB_PAT', 'TOKEN']) {
      expect(isSecretName(n), n).toBe(true);
    }
    for (const n of ['PWD', 'OLDPWD', 'KEYBOARD_LAYOUT', 'GIT_AUTHOR_EMAIL', 'GOPATH', 'PASSENGER_HOME']) {
      expect(isSecretName(n), n).toBe(false);
    }
  });

  describe('a real spawn', () => {
    const saved = { ...process.env };
    afterEach(() => {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    });

    it('starts the process without the key in its environment', async () => {
      process.env.GOVIBE_API_KEY = 'sk-spawn-test-123456';
      process.env.NPM_CONFIG__AUTHTOKEN = 'npm-spawn-test';
      process.env.SPAWN_MARKER = 'visible';
      const child = spawnSidecar({
        command: process.execPath,
        args: ['-e', 'process.stdout.write(JSON.stringify(process.env))'],
      });
      let out = '';
      child.reader.on('data', (b: Buffer) => (out += b.toString()));
      const exit = await child.exited;
      expect(exit.code).toBe(0);
      const seen = JSON.parse(out) as Record<string, string>;
      expect(seen.SPAWN_MARKER).toBe('visible');
      expect(out).not.toContain('sk-spawn-test-123456');
      expect(out).not.toContain('npm-spawn-test');
      expect(seen.GOVIBE_API_KEY).toBeUndefined();
    });
  });
});

describe('browser driver environment', () => {
  it('points the sidecar at the bundled driver and VS Code\'s Electron, without PLAYWRIGHT_NODEJS_PATH', () => {
    const env = withBrowserDriver({ PATH: '/usr/bin' }, '/ext', '/vscode/code');
    expect(env).toEqual({
      PATH: '/usr/bin',
      GOVIBE_PLAYWRIGHT_DRIVER: '/ext/playwright-driver',
      GOVIBE_PLAYWRIGHT_NODE: '/vscode/code',
      GOVIBE_PLAYWRIGHT_NODE_ELECTRON: '1',
    });
  });
  it('keeps a driver and node the user set', () => {
    const env = withBrowserDriver({ GOVIBE_PLAYWRIGHT_DRIVER: '/d', GOVIBE_PLAYWRIGHT_NODE: '/usr/bin/node' }, '/ext', '/vscode/code');
    expect(env).toEqual({ GOVIBE_PLAYWRIGHT_DRIVER: '/d', GOVIBE_PLAYWRIGHT_NODE: '/usr/bin/node' });
  });
});
