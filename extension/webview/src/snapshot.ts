// A compaction summary as a person reads it. The model writes it as one
// <state_snapshot> element of known sections (server/internal/agent/compact
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

/** A section of the kept block, labelled for a person. */
export interface KeptSection {
  label: string;
  text: string;
}

function keptLabel(tag: string): string | undefined {
  switch (tag) {
    case 'original_request':
      return l10n.t('Your first request');
    case 'current_request':
      return l10n.t('Your current request');
    case 'todo_list':
      return l10n.t('Todo list');
    case 'user_decisions':
      return l10n.t('Your decisions');
    default:
      return undefined;
  }
}

/**
 * The block a compaction keeps word for word (server/internal/agent/compact
 * kept.go: <kept_verbatim> with the model-facing lead-ins and one element
 * per kind) as labelled sections; undefined when it has another shape,
 * and the block is then shown as sent, so nothing is hidden.
 */
export function keptSections(kept: string): KeptSection[] | undefined {
  const m = /^<kept_verbatim>([\s\S]*)<\/kept_verbatim>$/.exec(kept.trim());
  if (!m) return undefined;
  const body = m[1];
  const out: KeptSection[] = [];
  const element = /<([a-z_]+)>\n?([\s\S]*?)\n?<\/\1>/g;
  for (let e = element.exec(body); e; e = element.exec(body)) {
    const label = keptLabel(e[1]);
    if (!label) return undefined;
    if (e[2].trim()) out.push({ label, text: e[2] });
  }
  return out.length ? out : undefined;
}
