// The chat input's completion logic, free of the DOM so it is unit-tested:
// which token the caret is in (a slash command at the start, or an
// @mention), what to offer for it, how a pick rewrites the text, and the
// mentions a message holds (shown as chips). Mention parsing follows the
// sidecar's (server/internal/agent/mentions): '@' at the start or after
// whitespace or an opening bracket, not inside `code`, '\@' escapes.
import type { CommandInfo, FileCompletion } from '../../src/protocol.gen';

export type TokenKind = 'command' | 'mention';

export interface Token {
  kind: TokenKind;
  /** What was typed after the '/' or '@'. */
  query: string;
  /** Offsets of the whole token, '/' or '@' included. */
  start: number;
  end: number;
}

const OPENERS = '([{"\'';

/** The completable token the caret is in, if any. */
export function activeToken(text: string, caret: number): Token | undefined {
  if (text.startsWith('/')) {
    const ws = text.search(/\s/);
    const end = ws < 0 ? text.length : ws;
    if (caret >= 1 && caret <= end) return { kind: 'command', query: text.slice(1, caret), start: 0, end };
  }
  let i = caret;
  while (i > 0 && !/\s/.test(text[i - 1]) && text[i - 1] !== '@') i--;
  if (i === 0 || text[i - 1] !== '@') return undefined;
  const at = i - 1;
  const prev = at > 0 ? text[at - 1] : '';
  if (at > 0 && !(/\s/.test(prev) || OPENERS.includes(prev))) return undefined;
  if (inCode(text, at)) return undefined;
  let end = caret;
  while (end < text.length && !/\s/.test(text[end])) end++;
  return { kind: 'mention', query: text.slice(at + 1, caret), start: at, end };
}

function inCode(text: string, pos: number): boolean {
  const before = text.slice(0, pos);
  const fences = before.split('```').length - 1;
  if (fences % 2 === 1) return true;
  const ticks = before.replace(/```/g, '').split('`').length - 1;
  return ticks % 2 === 1;
}

export interface Item {
  /** What the pick inserts (without the leading '/' or '@'). */
  insert: string;
  label: string;
  detail?: string;
  /** A codicon name. */
  icon: string;
  /** Kind of the mention, for its chip. */
  kind?: string;
}

/** Commands whose name starts with the query first, then those containing it. */
export function commandItems(list: CommandInfo[], query: string): Item[] {
  const q = query.toLowerCase();
  const starts = list.filter((c) => c.name.toLowerCase().startsWith(q));
  const contains = q ? list.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q)) : [];
  return [...starts, ...contains].map((c) => ({
    insert: c.name,
    label: '/' + c.name + (c.argumentHint ? ' ' + c.argumentHint : ''),
    detail: c.description,
    icon: 'codicon-symbol-event',
  }));
}

/** The mentions that are not files. */
export const KEYWORDS = ['problems', 'git-changes', 'terminal'] as const;

/** What the list says about each keyword and about a typed URL (localised by the caller). */
export type KeywordDetails = Record<(typeof KEYWORDS)[number] | 'url', string>;

/** Keywords matching the query, a URL when one is typed, then the files. */
export function mentionItems(query: string, files: FileCompletion[], details?: KeywordDetails): Item[] {
  const q = query.toLowerCase();
  const out: Item[] = [];
  if (/^https?:\/\/\S+$/.test(query)) out.push({ insert: query, label: '@' + query, detail: details?.url, icon: 'codicon-globe', kind: 'url' });
  for (const k of KEYWORDS) {
    if (k.startsWith(q)) out.push({ insert: k, label: '@' + k, detail: details?.[k], icon: chipIcon(k), kind: k });
  }
  for (const f of files) {
    if (f.path.startsWith('#')) {
      // A symbol from the editor's workspace symbol provider.
      out.push({ insert: f.path, label: '@' + f.path, detail: f.root, icon: chipIcon('symbol'), kind: 'symbol' });
      continue;
    }
    const folder = f.path.endsWith('/');
    out.push({
      insert: f.path,
      label: f.path,
      detail: f.root,
      icon: folder ? 'codicon-folder' : 'codicon-file',
      kind: folder ? 'folder' : 'file',
    });
  }
  return out;
}

/** The text after a pick, and where the caret goes. */
export function applyPick(text: string, tok: Token, item: Item): { text: string; caret: number } {
  const sigil = tok.kind === 'command' ? '/' : '@';
  let rest = text.slice(tok.end);
  // A folder keeps the list open for its files, so no space after it.
  const space = item.kind === 'folder' ? '' : ' ';
  if (space && rest.startsWith(' ')) rest = rest.slice(1);
  const ins = sigil + item.insert + space;
  return { text: text.slice(0, tok.start) + ins + rest, caret: tok.start + ins.length };
}

export interface MentionChip {
  raw: string;
  kind: string;
  start: number;
  end: number;
}

/** The mentions of a message, as the sidecar will read them. */
export function parseMentions(text: string): MentionChip[] {
  const out: MentionChip[] = [];
  const re = /@[^\s`"'<>)\]}]+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const at = m.index;
    const prev = at > 0 ? text[at - 1] : '';
    if (at > 0 && (prev === '\\' || !(/\s/.test(prev) || OPENERS.includes(prev)))) continue;
    if (inCode(text, at)) continue;
    const tok = m[0].slice(1).replace(/[.,;:!?]+$/, '');
    if (!tok) continue;
    let kind: string;
    if (tok === 'problems' || tok === 'git-changes' || tok === 'terminal') kind = tok;
    else if (/^https?:\/\//.test(tok)) kind = 'url';
    else if (tok.startsWith('mcp:')) kind = 'mcp';
    else if (tok.length > 1 && tok.startsWith('#')) kind = 'symbol';
    else if (tok.endsWith('/') || tok.endsWith('\\')) kind = 'folder';
    else if (/[./\\]/.test(tok)) kind = 'file';
    else continue;
    out.push({ raw: '@' + tok, kind, start: at, end: at + 1 + tok.length });
  }
  return out;
}

/** The text without one mention (and one space next to it). */
export function removeMention(text: string, m: MentionChip): string {
  let { start, end } = m;
  if (text[end] === ' ') end++;
  else if (start > 0 && text[start - 1] === ' ') start--;
  return text.slice(0, start) + text.slice(end);
}

export function chipIcon(kind: string): string {
  switch (kind) {
    case 'folder':
      return 'codicon-folder';
    case 'problems':
      return 'codicon-warning';
    case 'git-changes':
      return 'codicon-git-compare';
    case 'terminal':
      return 'codicon-terminal';
    case 'url':
      return 'codicon-globe';
    case 'mcp':
      return 'codicon-plug';
    case 'symbol':
      return 'codicon-symbol-method';
    default:
      return 'codicon-file';
  }
}
