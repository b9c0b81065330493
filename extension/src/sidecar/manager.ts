// SidecarManager owns the govibe sidecar process and its JSON-RPC
// connection. No vscode import: the host adapter supplies launch, the
// initialize parameters and the handler registration, so the restart policy
// is testable against in-memory streams and real child processes.
//
// Concurrency: the extension host is single-threaded, but start, stop and
// restart await I/O; a Mutex serialises them so a restart never interleaves
// with a stop. Process exits are handled inside the same mutex.
import {
  CancellationToken,
  Emitter,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  Trace,
  createMessageConnection,
  type Event,
  type MessageConnection,
  type Tracer,
} from 'vscode-jsonrpc/node';
import {
  CodeVersionMismatch,
  Method,
  Version,
  type ClientNotifications,
  type ClientRequests,
  type InitializeParams,
  type InitializeResult,
} from '../protocol.gen';
import { CrashBudget, defaultBackoff } from './crashBudget';
import { Mutex } from './mutex';

export interface ExitInfo {
  code: number | null;
  signal: string | null;
  error?: Error;
}

/** A started sidecar: its stdio and a promise settled when it exits. */
export interface SidecarProcess {
  reader: NodeJS.ReadableStream;
  writer: NodeJS.WritableStream;
  stderr?: NodeJS.ReadableStream;
  exited: Promise<ExitInfo>;
  pid?: number;
  kill(): void;
}

/** How long a request waits for a pending crash restart (backoff plus handshake). */
const RESTART_WAIT_MS = 60_000;

export type ManagerState = 'stopped' | 'starting' | 'ready' | 'error';

export interface StateChange {
  state: ManagerState;
  detail?: string;
}

export interface ManagerNotice {
  level: 'info' | 'warning' | 'error';
  /** English text; `restart` and `gaveUp` carry the facts for a localised one. */
  text: string;
  restart?: { how: string; delaySeconds: string; crash: number; max: number };
  gaveUp?: { how: string; crashes: number; windowMinutes: number };
  /** A remedy the UI offers as a button. */
  action?: 'showLogs' | 'restartServer';
}

export interface SidecarManagerOptions {
  launch(): SidecarProcess;
  initializeParams(): Promise<InitializeParams>;
  /** Registers server→client handlers on a fresh connection before listen(). */
  attach(conn: MessageConnection): void;
  onInitialized?(result: InitializeResult): void;
  log(line: string): void;
  maxCrashes?: number;
  crashWindowMs?: number;
  backoff?(attempt: number): number;
  stopTimeoutMs?: number;
  initializeTimeoutMs?: number;
  now?(): number;
}

export interface StartRecord {
  time: number;
  reason: string;
}

interface Running {
  proc: SidecarProcess;
  conn: MessageConnection;
  generation: number;
  ready: boolean;
  stopping: boolean;
}

export class SidecarManager {
  private readonly mutex = new Mutex();
  private readonly budget: CrashBudget;
  private readonly backoff: (attempt: number) => number;
  private readonly stopTimeoutMs: number;
  private readonly initializeTimeoutMs: number;
  private readonly now: () => number;
  private readonly stateEmitter = new Emitter<StateChange>();
  private readonly noticeEmitter = new Emitter<ManagerNotice>();
  private running: Running | undefined;
  private generation = 0;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private starting: Promise<void> | undefined;
  private tracer: Tracer | undefined;
  private current: StateChange = { state: 'stopped' };
  private readonly history: StartRecord[] = [];
  /** Whether the user wants the server up; stop() clears it. */
  private wanted = false;

  readonly onDidChangeState: Event<StateChange> = this.stateEmitter.event;
  readonly onNotice: Event<ManagerNotice> = this.noticeEmitter.event;

  constructor(private readonly opts: SidecarManagerOptions) {
    this.budget = new CrashBudget(opts.maxCrashes ?? 5, opts.crashWindowMs ?? 3 * 60_000, opts.now);
    this.backoff = opts.backoff ?? defaultBackoff;
    this.stopTimeoutMs = opts.stopTimeoutMs ?? 2000;
    this.initializeTimeoutMs = opts.initializeTimeoutMs ?? 30_000;
    this.now = opts.now ?? Date.now;
  }

  get state(): StateChange {
    return this.current;
  }

  /** Why the server was (re)started, oldest first. */
  get starts(): readonly StartRecord[] {
    return this.history;
  }

  get pid(): number | undefined {
    return this.running?.proc.pid;
  }

  start(reason: string): Promise<void> {
    return this.mutex.run(async () => {
      this.wanted = true;
      if (this.running) return;
      await this.startLocked(reason);
    });
  }

  stop(reason: string): Promise<void> {
    return this.mutex.run(() => this.stopLocked(reason));
  }

  /** A user-initiated restart: clears the crash budget and any fatal state. */
  restart(reason: string): Promise<void> {
    return this.mutex.run(async () => {
      await this.stopLocked(reason);
      this.budget.reset();
      this.wanted = true;
      await this.startLocked(reason);
    });
  }

  /** Enables or disables the JSON-RPC trace on this and later connections. */
  setTracer(tracer: Tracer | undefined): void {
    this.tracer = tracer;
    const conn = this.running?.conn;
    if (conn) void conn.trace(tracer ? Trace.Verbose : Trace.Off, tracer ?? { log: () => undefined });
  }

  async request<M extends keyof ClientRequests>(
    method: M,
    params: ClientRequests[M]['params'],
    token?: CancellationToken,
  ): Promise<ClientRequests[M]['result']> {
    const conn = await this.readyConnection();
    return conn.sendRequest(method, params, token ?? CancellationToken.None);
  }

  async notify<M extends keyof ClientNotifications>(method: M, params: ClientNotifications[M]): Promise<void> {
    const r = this.running;
    if (!r || !r.ready) return;
    await r.conn.sendNotification(method, params);
  }

  dispose(): Promise<void> {
    return this.stop('extension deactivated').finally(() => {
      this.stateEmitter.dispose();
      this.noticeEmitter.dispose();
    });
  }

  private async readyConnection(): Promise<MessageConnection> {
    if (this.starting) await this.starting.catch(() => undefined);
    // After a crash the restart waits out its backoff with no `starting`
    // promise yet. A request made then (a view refreshing, the user sending)
    // waits for that restart instead of failing with "not running": the
    // server is coming back, and the crash notice already said so.
    if (this.wanted && this.current.state === 'starting' && !this.running?.ready) {
      await this.leftStarting(RESTART_WAIT_MS);
    }
    const r = this.running;
    if (!r || !r.ready) {
      throw new Error(
        this.current.state === 'error' && this.current.detail
          ? this.current.detail
          : 'The GoVibe server is not running.',
      );
    }
    return r.conn;
  }

  /** Resolves once the state is no longer 'starting', or after `ms`. */
  private leftStarting(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const timer = setTimeout(done, ms);
      const sub = this.stateEmitter.event((s) => {
        if (s.state !== 'starting') done();
      });
    });
  }

  private setState(state: ManagerState, detail?: string): void {
    this.current = { state, detail };
    this.stateEmitter.fire(this.current);
  }

  private async startLocked(reason: string): Promise<void> {
    this.clearRestartTimer();
    this.history.push({ time: this.now(), reason });
    if (this.history.length > 50) this.history.shift();
    this.opts.log(`starting server: ${reason}`);
    this.setState('starting', reason);
    let done!: () => void;
    this.starting = new Promise<void>((resolve) => (done = resolve));
    try {
      await this.launchAndInitialize();
    } finally {
      this.starting = undefined;
      done();
    }
  }

  private async launchAndInitialize(): Promise<void> {
    let proc: SidecarProcess;
    try {
      proc = this.opts.launch();
    } catch (err) {
      this.fail(errorMessage(err));
      return;
    }
    const conn = createMessageConnection(new StreamMessageReader(proc.reader), new StreamMessageWriter(proc.writer), {
      error: (m) => this.opts.log(`[jsonrpc] ${m}`),
      warn: (m) => this.opts.log(`[jsonrpc] ${m}`),
      info: () => undefined,
      log: () => undefined,
    });
    const running: Running = { proc, conn, generation: ++this.generation, ready: false, stopping: false };
    this.running = running;
    if (proc.stderr) pipeLines(proc.stderr, (line) => this.opts.log(line));
    this.opts.attach(conn);
    if (this.tracer) void conn.trace(Trace.Verbose, this.tracer);
    conn.listen();
    void proc.exited.then((info) => this.onExit(running, info));

    let result: InitializeResult;
    try {
      const params = await this.opts.initializeParams();
      result = await raceInitialize(
        conn.sendRequest(Method.Initialize, params),
        proc.exited,
        this.initializeTimeoutMs,
      );
      if (result.protocolVersion !== Version) {
        throw new HandshakeError(
          `The GoVibe server speaks protocol ${result.protocolVersion}, this extension speaks ${Version}. Reinstall the extension so both match.`,
        );
      }
    } catch (err) {
      // A failed handshake is never retried: the same binary would fail again.
      try {
        await conn.sendNotification(Method.Exit);
      } catch {
        // The connection is already closed: the process is gone or going.
      }
      await this.discard(running);
      this.fail(handshakeMessage(err));
      return;
    }
    running.ready = true;
    this.opts.log(`server ready (pid ${proc.pid ?? '?'}, ${result.serverInfo.name} ${result.serverInfo.version})`);
    this.setState('ready');
    for (const n of result.notices ?? []) this.noticeEmitter.fire({ level: 'warning', text: n });
    this.opts.onInitialized?.(result);
  }

  private fail(message: string): void {
    this.wanted = false;
    this.opts.log(`server failed: ${message}`);
    this.setState('error', message);
    this.noticeEmitter.fire({ level: 'error', text: message, action: 'showLogs' });
  }

  private onExit(running: Running, info: ExitInfo): void {
    void this.mutex.run(async () => {
      if (this.running !== running || running.stopping || !running.ready) return;
      this.running = undefined;
      running.conn.dispose();
      const how = describeExit(info);
      this.opts.log(`server exited unexpectedly (${how})`);
      const crashes = this.budget.record();
      if (!this.budget.allows(crashes) || !this.wanted) {
        this.wanted = false;
        const windowMinutes = Math.round(this.budget.windowMs / 60000);
        const text = `The GoVibe server crashed ${crashes} times within ${windowMinutes} minutes (last: ${how}); it will not be restarted automatically.`;
        this.setState('error', text);
        this.noticeEmitter.fire({ level: 'error', text, action: 'showLogs', gaveUp: { how, crashes, windowMinutes } });
        return;
      }
      const delay = this.backoff(crashes);
      const delaySeconds = (delay / 1000).toFixed(1);
      const text = `The GoVibe server stopped unexpectedly (${how}). Restarting in ${delaySeconds} s (${crashes} of ${this.budget.max}).`;
      this.setState('starting', text);
      this.noticeEmitter.fire({ level: 'warning', text, restart: { how, delaySeconds, crash: crashes, max: this.budget.max } });
      this.restartTimer = setTimeout(() => {
        this.restartTimer = undefined;
        void this.mutex.run(async () => {
          if (!this.wanted || this.running) return;
          await this.startLocked(`restart after crash ${crashes} (${how})`);
        });
      }, delay);
    });
  }

  private async stopLocked(reason: string): Promise<void> {
    this.wanted = false;
    this.clearRestartTimer();
    const r = this.running;
    if (!r) {
      if (this.current.state !== 'error') this.setState('stopped', reason);
      return;
    }
    this.opts.log(`stopping server: ${reason}`);
    r.stopping = true;
    if (r.ready) {
      try {
        await withTimeout(r.conn.sendRequest(Method.Shutdown), this.stopTimeoutMs);
        await r.conn.sendNotification(Method.Exit);
      } catch (err) {
        this.opts.log(`shutdown: ${errorMessage(err)}`);
      }
    }
    await this.discard(r);
    this.setState('stopped', reason);
  }

  /** Waits up to stopTimeoutMs for the process to exit, then kills it. */
  private async discard(r: Running): Promise<void> {
    r.stopping = true;
    if (this.running === r) this.running = undefined;
    const exited = await withTimeout(r.proc.exited, this.stopTimeoutMs).then(
      () => true,
      () => false,
    );
    if (!exited) {
      this.opts.log('server did not exit in time; killing it');
      r.proc.kill();
      await withTimeout(r.proc.exited, this.stopTimeoutMs).catch(() => undefined);
    }
    r.conn.dispose();
  }

  private clearRestartTimer(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }
}

class HandshakeError extends Error {}

async function raceInitialize(
  request: Promise<InitializeResult>,
  exited: Promise<ExitInfo>,
  timeoutMs: number,
): Promise<InitializeResult> {
  const died = exited.then((info) => {
    throw new HandshakeError(`The GoVibe server exited during start-up (${describeExit(info)}). See "GoVibe: Show Logs".`);
  });
  return withTimeout(Promise.race([request, died]), timeoutMs, () => {
    return new HandshakeError(`The GoVibe server did not answer initialize within ${timeoutMs / 1000} s.`);
  });
}

function handshakeMessage(err: unknown): string {
  if (err instanceof ResponseError) {
    if (err.code === CodeVersionMismatch) return err.message;
    return `The GoVibe server refused to start: ${err.message}`;
  }
  return errorMessage(err);
}

function describeExit(info: ExitInfo): string {
  if (info.error) return info.error.message;
  if (info.signal) return `signal ${info.signal}`;
  return `exit code ${info.code}`;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function withTimeout<T>(p: Promise<T>, ms: number, onTimeout?: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(onTimeout ? onTimeout() : new Error(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

function pipeLines(stream: NodeJS.ReadableStream, sink: (line: string) => void): void {
  let rest = '';
  stream.setEncoding?.('utf8');
  stream.on('data', (chunk: string | Buffer) => {
    rest += chunk.toString();
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const l of lines) if (l.trim() !== '') sink(l.replace(/\r$/, ''));
  });
  stream.on('end', () => {
    if (rest.trim() !== '') sink(rest);
    rest = '';
  });
}
