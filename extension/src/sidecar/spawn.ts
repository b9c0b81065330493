// Starts the sidecar as a child process speaking JSON-RPC on stdio.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { SidecarProcess } from './manager';

export interface SpawnOptions {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** govibe.shell.env.passthrough: kept although credential-shaped. */
  passthrough?: readonly string[];
}

/** Words that mark a variable name as a credential (the sidecar's own rules, server/internal/workspace/shell/env.go). */
function secretWord(w: string): boolean {
  return (
    ((w.startsWith('KEY') || w.endsWith('KEY')) && w !== 'KEYBOARD' && w !== 'KEYMAP') ||
    /TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|WEBHOOK|SESSION|COOKIE/.test(w) ||
    (w.includes('AUTH') && w !== 'AUTHOR' && w !== 'AUTHORS') ||
    ['PASS', 'PWD', 'JWT', 'PAT', 'PRIVATE'].includes(w) ||
    w.endsWith('DSN')
  );
}

/** Whether an environment variable name looks like a credential. */
export function isSecretName(name: string): boolean {
  const up = name.toUpperCase();
  if (up === 'PWD' || up === 'OLDPWD') return false;
  if (up === 'GPG_AGENT_INFO') return true;
  return up.split(/[^A-Z0-9]+/).some((w) => w !== '' && secretWord(w));
}

const PROXY = /^(HTTPS?|ALL|FTP|NO)_PROXY$/i;
/** A URL with a password in its userinfo, or a connection string with one. */
const SECRET_VALUE =
  /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/@\s:]*:[^/@\s]+@|(password|passwd|passphrase|secret|token|api[_-]?key|accountkey|sharedaccesskey)\s*=\s*[^;&\s]|(^|[;\s?&.\-_])(pwd|pass|sig)\s*=\s*[^;&\s]/i;

/**
 * The sidecar gets keys only through initialize (from SecretStorage), never
 * through its environment: anything shaped like a credential is left out.
 * Proxies are kept as they are: the sidecar needs them to reach the model,
 * holds their credentials out of its own environment block and strips them
 * from the commands it runs.
 */
export function sidecarEnv(env: NodeJS.ProcessEnv, passthrough: readonly string[] = []): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (passedThrough(k, passthrough)) {
      out[k] = v;
      continue;
    }
    if (isSecretName(k)) continue;
    if (!PROXY.test(k) && v !== undefined && SECRET_VALUE.test(v)) continue;
    out[k] = v;
  }
  return out;
}

/** Exact names (case-insensitive) or "PREFIX_*", as the sidecar reads them. */
function passedThrough(name: string, passthrough: readonly string[]): boolean {
  const up = name.toUpperCase();
  return passthrough.some((p) => {
    const q = String(p).trim().toUpperCase();
    if (q.endsWith('*')) return q.length > 1 && up.startsWith(q.slice(0, -1));
    return q !== '' && up === q;
  });
}

/**
 * Tells the sidecar where the browser sub-agent's playwright driver is (the
 * playwright-core the .vsix bundles next to bin/) and what runs it: VS Code's
 * own Electron (`execPath`) as node. The sidecar sets PLAYWRIGHT_NODEJS_PATH
 * and ELECTRON_RUN_AS_NODE=1 for the driver only; passing them here would
 * change every command the agent runs. A user's own settings of these
 * variables win.
 */
export function withBrowserDriver(env: NodeJS.ProcessEnv, extensionPath: string, execPath: string): NodeJS.ProcessEnv {
  const out = { ...env };
  out.GOVIBE_PLAYWRIGHT_DRIVER ??= join(extensionPath, 'playwright-driver');
  if (out.GOVIBE_PLAYWRIGHT_NODE === undefined) {
    out.GOVIBE_PLAYWRIGHT_NODE = execPath;
    out.GOVIBE_PLAYWRIGHT_NODE_ELECTRON = '1';
  }
  return out;
}

export function spawnSidecar(opts: SpawnOptions): SidecarProcess {
  const child = spawn(opts.command, opts.args, {
    cwd: opts.cwd,
    env: opts.env ?? sidecarEnv(process.env, opts.passthrough),
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
