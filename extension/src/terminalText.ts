// Text handling for @terminal, free of `vscode` so it is unit-tested: the
// output a terminal's shell integration streams carries escape sequences,
// and whatever the user's commands printed may hold credentials. The
// sidecar scrubs again before anything reaches a model; this side keeps
// secrets from even leaving the editor.

/** Bytes of output kept per terminal. */
export const KEEP_PER_TERMINAL = 64 * 1024;

// CSI (colours, cursor moves), OSC (titles, shell-integration marks,
// ended by BEL or ST), and the other two-character escapes.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export function stripAnsi(s: string): string {
  return s.replace(ANSI, '').replace(/\r\n/g, '\n').replace(/\r/g, '\n');
}

const SECRETS: Array<[RegExp, string]> = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, '[private key removed]'],
  [/(authorization\s*[:=]\s*)(?:(?:bearer|basic|token)\s+)?[^\s"',]+/gi, '$1[REDACTED]'],
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/-]{12,}=*/gi, '$1 [REDACTED]'],
  [/\b([A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)[A-Z0-9_]*)(\s*[=:]\s*)("[^"\n]*"|'[^'\n]*'|\S+)/gi, '$1$2[REDACTED]'],
  [/([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/@\s:]*:)[^/@\s]+@/g, '$1[REDACTED]@'],
  [/\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|sk-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{30,})\b/g, '[REDACTED]'],
];

/** Replaces the shapes of credentials (same rules as the sidecar's mentions.ScrubSecrets). */
export function scrubSecrets(s: string): string {
  for (const [re, repl] of SECRETS) s = s.replace(re, repl);
  return s;
}

/** The newest `max` characters of `s`, starting at a line when one starts close by. */
export function tail(s: string, max: number): string {
  if (max <= 0 || s.length <= max) return s;
  const cut = s.slice(s.length - max);
  const nl = cut.indexOf('\n');
  return nl >= 0 && nl < 200 ? cut.slice(nl + 1) : cut;
}

/** A per-terminal buffer of recent output, bounded by KEEP_PER_TERMINAL. */
export class OutputRing {
  private text = '';
  append(chunk: string): void {
    this.text += stripAnsi(chunk);
    if (this.text.length > KEEP_PER_TERMINAL * 2) this.text = tail(this.text, KEEP_PER_TERMINAL);
  }
  read(max: number): string {
    return scrubSecrets(tail(this.text, Math.min(max, KEEP_PER_TERMINAL))).trim();
  }
}
