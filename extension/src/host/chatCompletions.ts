// The chat input's lookups: slash commands, @-mention files, @#symbols
// (VS Code's workspace symbol provider, passed in by the host) and the
// skills picker. Each is a sidecar request answered back to the webview; the
// webview tags command and file requests with a number and keeps only the
// answer to its newest, so a slow answer never replaces a newer one.
import type { HostMessage, WebviewMessage } from '../../shared/webviewMessages';
import type { ClientRequests, FileCompletion } from '../protocol.gen';

type Request = <M extends keyof ClientRequests>(method: M, params: ClientRequests[M]['params']) => Promise<ClientRequests[M]['result']>;

export type CompletionMessage = Extract<WebviewMessage, { type: 'listCommands' | 'completeFiles' | 'listSkills' | 'setSkillActive' }>;

export function isCompletionMessage(m: WebviewMessage): m is CompletionMessage {
  return m.type === 'listCommands' || m.type === 'completeFiles' || m.type === 'listSkills' || m.type === 'setSkillActive';
}

/** One workspace symbol, as VS Code's symbol provider reports it. */
export interface SymbolHit {
  name: string;
  container?: string;
  /** Workspace-relative path of the symbol's file. */
  path: string;
}

/** Finds workspace symbols (the host passes VS Code's provider). */
export type SymbolSearch = (query: string) => Promise<SymbolHit[]>;

/** The completions a symbol query ("#Na") gets: "#Name" or "#Type.Name". */
export async function symbolCompletions(query: string, search: SymbolSearch, limit = 30): Promise<FileCompletion[]> {
  const q = query.slice(1);
  if (!q) return [];
  const seen = new Set<string>();
  const out: FileCompletion[] = [];
  for (const h of await search(q)) {
    // The sidecar finds "Type.Member" as a member of Type; deeper
    // containers (namespaces, packages) are not part of the name, and a
    // name gopls already qualifies ("Engine.Send") stays as it is.
    const container = !h.name.includes('.') && h.container && /^[A-Za-z_$][\w$]*$/.test(h.container) ? h.container + '.' : '';
    const insert = '#' + container + h.name;
    if (!/^#[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)?$/.test(insert) || seen.has(insert)) continue;
    seen.add(insert);
    out.push({ path: insert, root: h.path });
    if (out.length >= limit) break;
  }
  return out;
}

export async function answerCompletion(
  m: CompletionMessage,
  request: Request,
  post: (m: HostMessage) => void,
  current?: string,
  symbols?: SymbolSearch,
): Promise<void> {
  switch (m.type) {
    case 'listCommands': {
      const { commands } = await request('commands/list', {});
      post({ type: 'commands', reqId: m.reqId, commands });
      return;
    }
    case 'completeFiles': {
      if (m.query.startsWith('#')) {
        let items: FileCompletion[] = [];
        try {
          items = symbols ? await symbolCompletions(m.query, symbols) : [];
        } catch {
          // No symbol provider answered (no language extension): no list.
        }
        post({ type: 'files', reqId: m.reqId, items, partial: false });
        return;
      }
      const { items, partial } = await request('files/complete', { query: m.query, limit: 30 });
      post({ type: 'files', reqId: m.reqId, items, partial: !!partial });
      return;
    }
    case 'listSkills': {
      const { skills } = await request('skills/list', { sessionId: m.sessionId ?? current });
      post({ type: 'skills', skills });
      return;
    }
    case 'setSkillActive': {
      const sessionId = m.sessionId ?? current;
      try {
        // Without a session yet, an activation holds for the workspace.
        const { skills } = await request('skills/setActive', { sessionId, name: m.name, active: m.active, workspace: m.active && !sessionId });
        post({ type: 'skills', skills });
      } catch (err) {
        const { skills } = await request('skills/list', { sessionId });
        post({ type: 'skills', skills, error: err instanceof Error ? err.message : String(err) });
      }
      return;
    }
  }
}
