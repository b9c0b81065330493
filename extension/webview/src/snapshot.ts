// A compaction summary as a person reads it. The model writes it as one
// <state_snapshot> element of known sections (server/internal/compact
// prompt.go); shown raw, the chat printed the XML tags. Each known section
// becomes a bold label over its text. Anything else (another shape, an
// unknown section, text outside the sections) is shown as written, so
// nothing the model wrote is hidden.
import * as l10n from '@vscode/l10n';

const ROOT = 'state_snapshot';

/** The sections the compaction prompt asks for, with their labels. */
function sectionLabel(tag: string): string | undefined {
  switch (tag) {
    case 'overall_goal':
      return l10n.t('Goal');
    case 'key_knowledge':
      return l10n.t('Key knowledge');
    case 'file_system_state':
      return l10n.t('Files');
    case 'recent_actions':
      return l10n.t('Recent actions');
    case 'current_plan':
      return l10n.t('Plan');
    default:
      return undefined;
  }
}

/** The summary as Markdown: labelled sections, or the text unchanged when it is not a plain snapshot. */
export function snapshotMarkdown(summary: string): string {
  const open = `<${ROOT}>`;
  const close = `</${ROOT}>`;
  const text = summary.trim();
  if (!text.startsWith(open) || !text.endsWith(close)) return summary;
  const body = text.slice(open.length, text.length - close.length);
  const out: string[] = [];
  let pos = 0;
  for (;;) {
    while (pos < body.length && /\s/.test(body[pos])) pos++;
    if (pos >= body.length) break;
    if (body[pos] !== '<') return summary;
    const end = body.indexOf('>', pos);
    if (end < 0) return summary;
    const tag = body.slice(pos + 1, end);
    const label = sectionLabel(tag);
    if (!label) return summary;
    const closeAt = body.indexOf(`</${tag}>`, end + 1);
    if (closeAt < 0) return summary;
    const content = body.slice(end + 1, closeAt).trim();
    if (content) out.push(`**${label}**\n\n${content}`);
    pos = closeAt + tag.length + 3;
  }
  return out.length ? out.join('\n\n') : summary;
}
