import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CancellationTokenSource,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  createMessageConnection,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { CodeRequestCancelled, CodeVersionMismatch, Version, type InitializeParams } from '../src/protocol.gen';
import { SidecarManager, type ExitInfo, type ManagerNotice, type SidecarManagerOptions, type SidecarProcess } from '../src/sidecar/manager';
import { spawnSidecar } from '../src/sidecar/spawn';

const fixture = path.join(__dirname, 'fixtures', 'fakeServer.js');

const initParams: InitializeParams = {
  protocolVersion: Version,
  clientInfo: { name: 'test', version: '0' },
  workspaceFolders: [],
  storageDir: os.tmpdir(),
  locale: 'en',
  settings: { values: {} },
  capabilities: { applyEdit: true, dirtyBuffer: true, diagnostics: true, confirm: true },
  trusted: true,
  host: { os: 'linux', shell: '/bin/sh', ripgrepPath: '' },
};

const managers: SidecarManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.dispose();
});

function manager(opts: Partial<SidecarManagerOptions> & Pick<SidecarManagerOptions, 'launch'>): {
  m: SidecarManager;
  notices: ManagerNotice[];
  logs: string[];
  backoffs: number[];
} {
  const notices: ManagerNotice[] = [];
  const logs: string[] = [];
  const backoffs: number[] = [];
  const m = new SidecarManager({
    initializeParams: async () => initParams,
    attach: () => undefined,
    log: (l) => logs.push(l),
    backoff: (n) => {
      backoffs.push(n);
      return 20 * n;
    },
    stopTimeoutMs: 300,
    ...opts,
  });
  m.onNotice((n) => notices.push(n));
  managers.push(m);
  return { m, notices, logs, backoffs };
}

function waitFor(cond: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (cond()) resolve();
      else if (Date.now() > deadline) reject(new Error('condition not met in time'));
      else setTimeout(tick, 10);
    };
    tick();
  });
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

function startsFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'govibe-mgr-'));
  return path.join(dir, 'starts');
}

function countStarts(file: string): number {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

function spawnFake(mode: string, starts: string, spawned?: SidecarProcess[]): () => SidecarProcess {
  return () => {
    const p = spawnSidecar({
      command: process.execPath,
      args: [fixture],
      cwd: path.join(__dirname, '..', '..'),
      env: { ...process.env, FAKE_MODE: mode, FAKE_STARTS: starts },
    });
    spawned?.push(p);
    return p;
  };
}

describe('SidecarManager with a real child process', () => {
  it('restarts a crashing server with growing backoff until the crash budget is spent', async () => {
    const starts = startsFile();
    const { m, notices, backoffs } = manager({ launch: spawnFake('crash-after-init', starts), maxCrashes: 2 });
    await m.start('test');
    await waitFor(() => m.state.state === 'error');
    expect(countStarts(starts)).toBe(3);
    expect(backoffs).toEqual([1, 2]);
    const warnings = notices.filter((n) => n.level === 'warning').map((n) => n.text);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/exit code 1.*Restarting in 0\.0 s \(1 of 2\)/);
    const final = notices.at(-1)!;
    expect(final).toMatchObject({ level: 'error', action: 'showLogs' });
    expect(final.text).toMatch(/crashed 3 times/);
    expect(final.gaveUp).toEqual({ how: 'exit code 1', crashes: 3, windowMinutes: 3 });
    expect(notices.find((n) => n.level === 'warning')?.restart).toEqual({ how: 'exit code 1', delaySeconds: '0.0', crash: 1, max: 2 });
    expect(m.starts.map((s) => s.reason)).toEqual([
      'test',
      'restart after crash 1 (exit code 1)',
      'restart after crash 2 (exit code 1)',
    ]);
    await sleep(200);
    expect(countStarts(starts)).toBe(3);
    await expect(m.request('session/list', {})).rejects.toThrow(/crashed 3 times/);
  });

  it('does not restart after a version mismatch and surfaces the server message', async () => {
    const starts = startsFile();
    const spawned: SidecarProcess[] = [];
    const { m, notices } = manager({ launch: spawnFake('version-mismatch', starts, spawned) });
    await m.start('test');
    expect(m.state.state).toBe('error');
    expect(m.state.detail).toBe(`protocol version ${Version} is not supported; this server speaks 99`);
    expect(notices).toEqual([{ level: 'error', text: m.state.detail, action: 'showLogs' }]);
    const exit = await spawned[0].exited;
    expect(exit.code !== null || exit.signal !== null).toBe(true);
    await sleep(300);
    expect(countStarts(starts)).toBe(1);
  });

  it('does not restart a server that exits during the handshake', async () => {
    const starts = startsFile();
    const { m } = manager({ launch: spawnFake('exit-before-init', starts) });
    await m.start('test');
    expect(m.state).toMatchObject({ state: 'error' });
    expect(m.state.detail).toMatch(/exited during start-up \(exit code 3\)/);
    await sleep(200);
    expect(countStarts(starts)).toBe(1);
  });

  it('stops cleanly through shutdown and exit', async () => {
    const starts = startsFile();
    const spawned: SidecarProcess[] = [];
    const { m, logs } = manager({ launch: spawnFake('ok', starts, spawned) });
    await m.start('test');
    expect(m.state.state).toBe('ready');
    expect(logs.some((l) => l.includes('mode=ok'))).toBe(true);
    await m.stop('test done');
    expect(m.state).toEqual({ state: 'stopped', detail: 'test done' });
    expect(await spawned[0].exited).toMatchObject({ code: 0, signal: null });
    expect(logs).not.toContain('server did not exit in time; killing it');
  });

  it('kills a server that ignores exit after the stop timeout', async () => {
    const starts = startsFile();
    const spawned: SidecarProcess[] = [];
    const { m, logs } = manager({ launch: spawnFake('hang-on-exit', starts, spawned) });
    await m.start('test');
    const t0 = Date.now();
    await m.stop('test done');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(await spawned[0].exited).toMatchObject({ signal: 'SIGKILL' });
    expect(logs).toContain('server did not exit in time; killing it');
    await sleep(100);
    expect(countStarts(starts)).toBe(1);
  });

  it('reports a missing binary without retrying', async () => {
    let launches = 0;
    const { m } = manager({
      launch: () => {
        launches++;
        throw new Error('The GoVibe server binary was not found at "/nope/bin/govibe".');
      },
    });
    await m.start('test');
    expect(m.state).toEqual({ state: 'error', detail: 'The GoVibe server binary was not found at "/nope/bin/govibe".' });
    await sleep(100);
    expect(launches).toBe(1);
  });
});

/** A fake server on in-memory streams; `exit` simulates the process ending. */
class MemoryServer {
  readonly toClient = new PassThrough();
  readonly toServer = new PassThrough();
  readonly conn: MessageConnection;
  private resolveExit!: (info: ExitInfo) => void;
  readonly exited = new Promise<ExitInfo>((r) => (this.resolveExit = r));
  killed = false;

  constructor(setup?: (conn: MessageConnection) => void) {
    this.conn = createMessageConnection(new StreamMessageReader(this.toServer), new StreamMessageWriter(this.toClient));
    this.conn.onRequest('initialize', (p: InitializeParams) => ({
      protocolVersion: p.protocolVersion,
      serverInfo: { name: 'mem', version: '1' },
      capabilities: { tools: [], snapshots: true, sessions: true },
      notices: ['moved a corrupt database aside'],
    }));
    this.conn.onRequest('shutdown', () => ({}));
    this.conn.onNotification('exit', () => this.exit({ code: 0, signal: null }));
    setup?.(this.conn);
    this.conn.listen();
  }

  exit(info: ExitInfo): void {
    this.conn.dispose();
    this.toClient.end();
    this.resolveExit(info);
  }

  process(): SidecarProcess {
    return {
      reader: this.toClient,
      writer: this.toServer,
      exited: this.exited,
      pid: 42,
      kill: () => {
        this.killed = true;
        this.exit({ code: null, signal: 'SIGKILL' });
      },
    };
  }
}

describe('SidecarManager on in-memory streams', () => {
  it('round-trips requests and relays initialize notices', async () => {
    const server = new MemoryServer((c) => c.onRequest('session/list', () => ({ sessions: [{ id: 's1' }] })));
    const { m, notices } = manager({ launch: () => server.process() });
    await m.start('test');
    expect(notices).toEqual([{ level: 'warning', text: 'moved a corrupt database aside' }]);
    await expect(m.request('session/list', {})).resolves.toEqual({ sessions: [{ id: 's1' }] });
  });

  it('cancels client requests with $/cancelRequest', async () => {
    let sawCancel = false;
    const server = new MemoryServer((c) =>
      c.onRequest('session/search', (_p: unknown, token) =>
        new Promise((resolve, reject) => {
          token.onCancellationRequested(() => {
            sawCancel = true;
            reject(new ResponseError(CodeRequestCancelled, 'cancelled'));
          });
        }),
      ),
    );
    const { m } = manager({ launch: () => server.process() });
    await m.start('test');
    const cts = new CancellationTokenSource();
    const pending = m.request('session/search', { query: 'x' }, cts.token);
    await sleep(20);
    cts.cancel();
    await expect(pending).rejects.toMatchObject({ code: CodeRequestCancelled });
    expect(sawCancel).toBe(true);
  });

  it('honours $/cancelRequest on server→client requests', async () => {
    let handlerCancelled = false;
    const server = new MemoryServer();
    const { m } = manager({
      launch: () => server.process(),
      attach: (conn) =>
        conn.onRequest('editor/diagnostics', (_p: unknown, token) =>
          new Promise((resolve, reject) => {
            token.onCancellationRequested(() => {
              handlerCancelled = true;
              reject(new ResponseError(CodeRequestCancelled, 'cancelled by server'));
            });
          }),
        ),
    });
    await m.start('test');
    const cts = new CancellationTokenSource();
    const pending = server.conn.sendRequest('editor/diagnostics', {}, cts.token);
    await sleep(20);
    cts.cancel();
    await expect(pending).rejects.toMatchObject({ code: CodeRequestCancelled });
    expect(handlerCancelled).toBe(true);
  });

  it('counts only crashes inside the window against the budget', async () => {
    let clock = 0;
    const servers: MemoryServer[] = [];
    const { m, notices } = manager({
      launch: () => {
        const s = new MemoryServer();
        servers.push(s);
        return s.process();
      },
      maxCrashes: 2,
      crashWindowMs: 60_000,
      now: () => clock,
    });
    await m.start('test');
    for (let i = 0; i < 4; i++) {
      servers.at(-1)!.exit({ code: 2, signal: null });
      await waitFor(() => servers.length === i + 2 && m.state.state === 'ready');
      clock += 40_000; // every crash is 40 s after the previous: at most 2 in any minute
    }
    expect(notices.filter((n) => n.level === 'error')).toEqual([]);
    servers.at(-1)!.exit({ code: 2, signal: null });
    await waitFor(() => servers.length === 6 && m.state.state === 'ready');
    clock += 1000;
    servers.at(-1)!.exit({ code: 2, signal: null });
    await waitFor(() => m.state.state === 'error');
    expect(m.state.detail).toMatch(/crashed 3 times within 1 minutes \(last: exit code 2\)/);
    await sleep(100);
    expect(servers).toHaveLength(6);
  });

  it('a request made while a crashed server waits out its backoff is answered by the restarted one', async () => {
    const servers: MemoryServer[] = [];
    const { m, notices } = manager({
      launch: () => {
        const s = new MemoryServer((c) => c.onRequest('session/list', () => ({ sessions: [{ id: `s${servers.length}` }] })));
        servers.push(s);
        return s.process();
      },
      backoff: () => 200,
    });
    await m.start('test');
    servers[0].exit({ code: null, signal: 'SIGKILL' });
    await waitFor(() => notices.some((n) => n.restart));
    expect(m.state.state).toBe('starting');
    // Issued during the 200 ms backoff, before any new process exists.
    const pending = m.request('session/list', {});
    expect(servers).toHaveLength(1);
    await expect(pending).resolves.toEqual({ sessions: [{ id: 's2' }] });
    expect(servers).toHaveLength(2);
    expect(notices.filter((n) => n.level === 'error')).toEqual([]);
  });

  it('a request made after the server gave up fails with the reason', async () => {
    const servers: MemoryServer[] = [];
    const { m } = manager({
      launch: () => {
        const s = new MemoryServer();
        servers.push(s);
        return s.process();
      },
      maxCrashes: 0,
    });
    await m.start('test');
    servers[0].exit({ code: 3, signal: null });
    await waitFor(() => m.state.state === 'error');
    await expect(m.request('session/list', {})).rejects.toThrow(/will not be restarted automatically/);
  });

  it('restart serialises stop and start, resets the budget and records why', async () => {
    const servers: MemoryServer[] = [];
    const { m } = manager({
      launch: () => {
        const s = new MemoryServer();
        servers.push(s);
        return s.process();
      },
      maxCrashes: 0,
    });
    await m.start('first');
    servers[0].exit({ code: 1, signal: null });
    await waitFor(() => m.state.state === 'error');
    await Promise.all([m.restart('user restart'), m.restart('second click')]);
    expect(m.state.state).toBe('ready');
    expect(servers).toHaveLength(3);
    expect(servers[1].killed).toBe(false);
    expect(m.starts.map((s) => s.reason)).toEqual(['first', 'user restart', 'second click']);
    await m.stop('bye');
    expect(m.state.state).toBe('stopped');
    await expect(m.request('session/list', {})).rejects.toThrow('The GoVibe server is not running.');
  });

  it('fails the handshake when the server answers with another protocol version', async () => {
    const server = new MemoryServer();
    server.conn.onRequest('initialize', () => ({
      protocolVersion: Version + 1,
      serverInfo: { name: 'mem', version: '2' },
      capabilities: { tools: [], snapshots: true, sessions: true },
      notices: [],
    }));
    let launches = 0;
    const { m } = manager({
      launch: () => {
        launches++;
        return server.process();
      },
    });
    await m.start('test');
    expect(m.state.state).toBe('error');
    expect(m.state.detail).toMatch(`protocol ${Version + 1}, this extension speaks ${Version}`);
    expect(launches).toBe(1);
  });

  it('gives up when initialize is never answered', async () => {
    const server = new MemoryServer((c) => {
      c.onRequest('initialize', () => new Promise(() => undefined));
      c.onNotification('exit', () => undefined);
    });
    const { m } = manager({ launch: () => server.process(), initializeTimeoutMs: 100 });
    await m.start('test');
    expect(m.state.detail).toBe('The GoVibe server did not answer initialize within 0.1 s.');
    expect(server.killed).toBe(true);
  });

  it('maps a version-mismatch error code to its message', async () => {
    const server = new MemoryServer((c) =>
      c.onRequest('initialize', () => {
        throw new ResponseError(CodeVersionMismatch, 'server speaks protocol 7');
      }),
    );
    const { m } = manager({ launch: () => server.process() });
    await m.start('test');
    expect(m.state).toEqual({ state: 'error', detail: 'server speaks protocol 7' });
  });
});
