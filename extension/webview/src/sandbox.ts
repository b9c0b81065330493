// How a shell command ran in the OS sandbox, and what the sandbox denied
// it, as the sidecar reports them in a run_shell_command result's meta
// (tools.ShellMeta: `sandbox`, `sandboxDenial`). The sidecar sends facts
// in fixed English forms; the words people read are chosen here so they
// follow the UI locale.
import * as l10n from '@vscode/l10n';

/** What the sandbox refused a command (tools.Denial). */
export interface SandboxDenial {
  paths: string[];
  write: boolean;
  domains: string[];
  network: boolean;
  removed: string[];
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s !== '') : [];
}

/** The sidecar's description of how the command ran ("read-only; no network", "none"), if any. */
export function sandboxOf(meta: unknown): string | undefined {
  const s = obj(meta)?.sandbox;
  return typeof s === 'string' && s.trim() ? s.trim() : undefined;
}

function accessWords(a: string): string {
  switch (a) {
    case 'read-only':
      return l10n.t('read-only');
    case 'workspace-write':
      return l10n.t('workspace write');
  }
  return a;
}

function networkWords(n: string): string {
  if (n === 'no network') return l10n.t('no network');
  const m = /^network:\s*(.+)$/.exec(n);
  return m ? l10n.t('network: {0}', m[1]) : n;
}

/**
 * "sandbox: read-only · no network", "sandbox: workspace write · network:
 * a, b" or "no sandbox". A form this view does not know is shown as sent
 * rather than guessed at.
 */
export function sandboxText(s: string): string {
  if (s === 'none') return l10n.t('no sandbox');
  const parts = s.split(';').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) return l10n.t('sandbox: {0}', s);
  const words = [accessWords(parts[0]), ...parts.slice(1).map(networkWords)];
  return l10n.t('sandbox: {0}', words.join(' · '));
}

/** The denial in a result's meta, when the sandbox refused the command something. */
export function denialOf(meta: unknown): SandboxDenial | undefined {
  const d = obj(obj(meta)?.sandboxDenial);
  if (!d) return undefined;
  const out: SandboxDenial = {
    paths: strings(d.paths),
    write: d.write === true,
    domains: strings(d.domains),
    network: d.network === true,
    removed: strings(d.removed),
  };
  // A path or a domain implies what kind of access was denied.
  out.write ||= out.paths.length > 0;
  out.network ||= out.domains.length > 0;
  if (!out.write && !out.network && out.removed.length === 0) return undefined;
  return out;
}

/** "The sandbox denied: writing out.txt; network access to example.com". */
export function denialText(d: SandboxDenial): string {
  const parts: string[] = [];
  if (d.write) parts.push(d.paths.length > 0 ? l10n.t('writing {0}', d.paths.join(', ')) : l10n.t('a write to the workspace'));
  if (d.network) parts.push(d.domains.length > 0 ? l10n.t('network access to {0}', d.domains.join(', ')) : l10n.t('network access'));
  if (d.removed.length > 0) parts.push(l10n.t('creating {0} (protected; removed afterwards)', d.removed.join(', ')));
  return l10n.t('The sandbox denied: {0}', parts.join('; '));
}

/** The confirmation class the sidecar gives a card offering to widen the sandbox. */
export const SANDBOX_DENIED = 'sandbox-denied';

/** Longest accept label before it is cut: the card's buttons must fit the sidebar. */
const LABEL_MAX = 48;

/**
 * The accept button of a sandbox-denied card, from the offers the sidecar
 * listed (already translated): the first offer without its parenthesised
 * detail ("Run again with write access (denied: writing out.txt)" →
 * "Run again with write access"). Accepting grants every offer, so when
 * there are several the button says so instead of naming only the first.
 */
export function sandboxAcceptLabel(reasons: string[]): string {
  if (reasons.length === 0) return l10n.t('Run again');
  if (reasons.length > 1) return l10n.t('Allow these and run again');
  let label = reasons[0].trim();
  // The detail opens at the first " (" (or a full-width "（"), and the
  // offer ends with its closing bracket: a path with brackets inside the
  // detail does not confuse this.
  if (/[)）]$/.test(label)) {
    const open = [label.indexOf(' ('), label.indexOf('（')].filter((i) => i > 0);
    if (open.length > 0) label = label.slice(0, Math.min(...open)).trim();
  }
  return label.length > LABEL_MAX ? `${label.slice(0, LABEL_MAX - 1).trimEnd()}…` : label;
}
