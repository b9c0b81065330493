import * as l10n from '@vscode/l10n';
import type { CacheMiss, Usage } from '../../src/protocol.gen';

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return '';
  if (ms < 1000) return l10n.t('{0} ms', Math.round(ms));
  if (ms < 60_000) return l10n.t('{0} s', (ms / 1000).toFixed(1));
  const m = Math.floor(ms / 60_000);
  return l10n.t('{0} min {1} s', m, Math.round((ms % 60_000) / 1000));
}

export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

export function formatCost(c: number | undefined): string {
  if (!c) return '$0.00';
  return c < 0.01 ? `$${c.toFixed(4)}` : `$${c.toFixed(2)}`;
}

const SUMMARY_KEYS = ['command', 'path', 'file', 'query', 'pattern', 'url', 'question', 'title'];

/**
 * One line saying what a tool call is about, from its JSON arguments.
 * clean turns the chosen value into display text before it is cut short
 * (markdown stripped for a question), so no half markup is left.
 */
export function summarizeArgs(args: string, max = 80, clean?: (s: string) => string): string {
  let text = args.trim();
  try {
    const v = JSON.parse(args) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const key = SUMMARY_KEYS.find((k) => typeof o[k] === 'string') ?? Object.keys(o).find((k) => typeof o[k] === 'string');
      // No text field: a list of texts (a reported plan's steps) reads
      // better joined than as JSON.
      const list = key ? undefined : Object.values(o).find((x): x is string[] => Array.isArray(x) && x.length > 0 && x.every((e) => typeof e === 'string'));
      text = key ? String(o[key]) : list ? list.join('; ') : JSON.stringify(v);
      if ((key || list) && clean) text = clean(text);
    }
  } catch {
    // Arguments still streaming or not JSON: show them as they are.
  }
  text = text.replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function prettyJson(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

export function fileName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i >= 0 ? path.slice(i + 1) : path;
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "5 minutes ago", "yesterday", in the UI locale; "just now" under a minute. */
export function relativeTime(ms: number, locale: string, now = Date.now()): string {
  const diff = ms - now;
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(diff) >= size) return rtf.format(Math.round(diff / size), unit);
  }
  return rtf.format(0, 'minute');
}

/**
 * The part of the prompt the provider served from its cache (0..1), or
 * undefined when it does not report one: unknown, never 0%. Usage from
 * before cacheReportedTokens existed counts its whole prompt when it had
 * a hit.
 */
export function cacheShare(u: Usage): number | undefined {
  const base = u.cacheReportedTokens || (u.cachedTokens > 0 ? u.promptTokens : 0);
  if (!base) return undefined;
  return Math.min(1, u.cachedTokens / base);
}

export function formatCacheHit(u: Usage): string {
  const s = cacheShare(u);
  return s === undefined ? l10n.t('unknown') : `${Math.round(s * 100)}%`;
}

/** Whether the cost is known: the model has prices (older records: a cost was counted). */
export function costKnown(u: Usage): boolean {
  return !!u.priced || u.cost > 0;
}

/** Why a request's prompt cache missed, in words. */
export function missText(m: CacheMiss): string {
  switch (m.cause) {
    case 'compaction':
      return l10n.t('Cache missed: the conversation was compacted');
    case 'tools_changed':
      return l10n.t('Cache missed: the tool list changed ({0})', m.detail ?? '');
    case 'system_changed':
      return l10n.t('Cache missed: the system prompt changed (section {0})', m.detail ?? '');
    case 'model_switched':
      return l10n.t('Cache missed: the model or profile switched ({0})', m.detail ?? '');
    case 'message_rewritten':
      return l10n.t('Cache missed: message {0} was rewritten ({1})', m.message ?? 0, m.detail ?? '');
    case 'provider_evicted':
      return l10n.t('Cache missed: the provider evicted the prefix ({0})', m.detail ?? '');
    default:
      return l10n.t('Cache missed: {0}', m.cause);
  }
}
