// Starts the sidecar as a child process speaking JSON-RPC on stdio.
import { spawn } from 'node:child_process';
import type { SidecarProcess } from './manager';

export interface SpawnOptions {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * The sidecar gets keys only through initialize (from SecretStorage), never
 * through its environment: anything named like a secret is left out.
 */
export function sidecarEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (/(_API_KEY|_TOKEN|_SECRET)$|PASSWORD/i.test(k)) continue;
    out[k] = v;
  }
  return out;
}

export function spawnSidecar(opts: SpawnOptions): SidecarProcess {
  const child = spawn(opts.command, opts.args, {
    cwd: opts.cwd,
    env: opts.env ?? sidecarEnv(process.env),
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const exited = new Promise<{ code: number | null; signal: string | null; error?: Error }>((resolve) => {
    let spawnError: Error | undefined;
    child.once('error', (err) => {
      spawnError = err;
      // A spawn failure emits no 'exit'; resolve so nothing waits forever.
      if (child.pid === undefined) resolve({ code: null, signal: null, error: err });
    });
    child.once('exit', (code, signal) => resolve({ code, signal, error: spawnError }));
  });
  return {
    reader: child.stdout,
    writer: child.stdin,
    stderr: child.stderr,
    exited,
    pid: child.pid,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
