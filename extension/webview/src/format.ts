import * as l10n from '@vscode/l10n';

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
      text = key ? String(o[key]) : JSON.stringify(v);
      if (key && clean) text = clean(text);
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
